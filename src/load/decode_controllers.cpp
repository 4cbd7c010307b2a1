// SPDX-License-Identifier: Apache-2.0
// Workload controllers given as what-if input: the pending pods a Deployment, ReplicaSet,
// StatefulSet, Job or CronJob would create. A DaemonSet's pods depend on the nodes: it is kept
// for the snapshot build, which makes them (model::expand_daemon_sets). The pod template is
// decoded once by the Pod decoder and copied, so a bad template field is reported once, at its
// own line, with its full path. Counts and names follow kubernetes/kubernetes
// pkg/controller/{deployment,replicaset,statefulset,job,cronjob,daemon} (release-1.34); random
// name parts are replaced by "what-if".
#include "load/decode.h"

#include "kpreempt/model/daemon_set.h"
#include "kpreempt/model/kueue.h"

#include <fmt/format.h>

namespace kpreempt::load {
namespace {

// Each derived pod is explained on its own; more than this from one manifest is a typo in
// replicas rather than a question anyone can read the answer to.
constexpr std::int32_t k_max_derived_pods = 10000;

// Stands in for the parts of generated names that are random or hashed upstream
// (<deployment>-<pod-template-hash>-<random>, <cronjob>-<scheduled-minute>).
constexpr std::string_view k_synthetic = "what-if";

enum class Identity { none, stateful_set, indexed_job, job };

// The pods one controller creates: pods named `prefix` + index, each controlled by
// owner_kind/owner_name.
struct Derived {
  std::string owner_kind, owner_name, prefix;
  Identity identity = Identity::none;
  std::string kueue_queue = {};  // set on every pod's labels when not empty
};

// The manifest as messages name it ("Deployment team-a/web") and its namespace.
struct Manifest {
  std::string who, ns;
};

void warn(DecodeContext& ctx, const Manifest& m, const Field& at, std::string_view text) {
  ctx.warn(at, fmt::format("{}: {}: {}", m.who, at.path(), text));
}

void set_entry(model::StringMap& m, std::string_view key, const std::string& value) {
  for (auto& [k, v] : m) {
    if (k == key) {
      v = value;
      return;
    }
  }
  m.emplace_back(std::string(key), value);
}

// The labels the controller (or, for Jobs, the API server's selector generation) puts on
// every pod in addition to the template's; those that pod selectors may name.
void add_identity(model::Pod& p, const Derived& d, std::int32_t index) {
  std::string i = std::to_string(index);
  switch (d.identity) {
    case Identity::stateful_set:
      set_entry(p.labels, "statefulset.kubernetes.io/pod-name", p.name);
      set_entry(p.labels, "apps.kubernetes.io/pod-index", i);
      break;
    case Identity::indexed_job:
      set_entry(p.labels, "batch.kubernetes.io/job-completion-index", i);
      set_entry(p.annotations, "batch.kubernetes.io/job-completion-index", i);
      [[fallthrough]];
    case Identity::job:
      set_entry(p.labels, "batch.kubernetes.io/job-name", d.owner_name);
      set_entry(p.labels, "job-name", d.owner_name);
      break;
    case Identity::none:
      break;
  }
}

// A replica count: the API server defaults it to 1 and refuses a negative one.
std::int32_t replica_count(const Field& f) {
  std::int32_t n = f.int32(1);
  if (n < 0) {
    f.fail("must be greater than or equal to 0");
  }
  return n;
}

// The pod template at `tmpl` (metadata + spec, like a Pod) as the pending pod a controller
// named by `owner` creates in namespace `ns`, but for its name.
model::Pod template_pod(const Field& tmpl, const std::string& ns, model::OwnerReference owner) {
  if (!tmpl.present()) {
    tmpl.fail("required field is missing");
  }
  model::Pod proto = decode_pod_fields(tmpl);
  proto.namespace_ = ns;
  proto.uid.clear();
  proto.owners = {std::move(owner)};
  proto.creation_timestamp.reset();
  proto.deletion_timestamp.reset();
  proto.phase = "Pending";
  return proto;
}

// Decodes `tmpl` and adds `count` copies as pending pods.
void add_pods(const Field& tmpl, const Manifest& m, const Derived& d, std::int32_t count,
              const Field& count_at, DecodeContext& ctx) {
  if (tmpl.present() && count > k_max_derived_pods) {
    count_at.fail(fmt::format("would create {} pods; at most {} are derived from one manifest",
                              count, k_max_derived_pods));
  }
  model::Pod proto =
      template_pod(tmpl, m.ns, model::OwnerReference{d.owner_kind, d.owner_name, "", true});
  if (count == 0) {
    warn(ctx, m, count_at, "no pods to create; nothing to explain");
    return;
  }
  if (!d.kueue_queue.empty()) {
    set_entry(proto.labels, model::k_kueue_queue_label, d.kueue_queue);
  }
  for (std::int32_t i = 0; i < count; ++i) {
    model::Pod p = proto;
    p.name = d.prefix + std::to_string(i);
    add_identity(p, d, i);
    if (ctx.pods != nullptr) {
      ctx.pods->push_back(model::ObjectRef{"Pod", p.namespace_, p.name});
    }
    ctx.out.add(std::move(p));
  }
}

// The Job controller's first sync starts min(parallelism, completions) pods (parallelism
// defaults to 1; unset completions means a work queue, bounded by parallelism only). A
// suspended Job starts none.
void derive_job(const Field& spec, const Manifest& m, const std::string& job_name,
                DecodeContext& ctx) {
  Field parallelism = spec["parallelism"];
  Field completions = spec["completions"];
  std::int32_t count = replica_count(parallelism);
  Field count_at = parallelism;
  if (completions.present()) {
    std::int32_t c = completions.int32();
    if (c < 0) {
      completions.fail("must be greater than or equal to 0");
    }
    if (c < count) {
      count = c;
      count_at = completions;
    }
  }
  if (spec["suspend"].boolean()) {
    warn(ctx, m, spec["suspend"], "the Job is suspended: its controller creates no pods");
    return;
  }
  Derived d{"Job", job_name, job_name + "-", Identity::job};
  if (spec["completionMode"].str() == "Indexed") {
    d.identity = Identity::indexed_job;
  }
  if (spec["manualSelector"].boolean()) {
    d.identity = Identity::none;  // the user's own labels and selector; none are generated
  }
  add_pods(spec["template"], m, d, count, count_at, ctx);
}

bool kueue_managed(const Field& meta) {
  return model::find(meta["labels"].string_map(), model::k_kueue_queue_label) != nullptr;
}

// The CronJob controller names each Job <cronjob>-<scheduled time in minutes>; one run is
// derived, under a synthetic name.
void derive_cron_job(const Field& root, const Manifest& m, const std::string& name,
                     DecodeContext& ctx) {
  Field job = root["spec"]["jobTemplate"];
  if (!job.present()) {
    job.fail("required field is missing");
  }
  const std::string job_name = fmt::format("{}-{}", name, k_synthetic);
  if (kueue_managed(job["metadata"])) {
    // Each run's Job carries the template's queue label, so Kueue admits it as the Workload
    // of its Job integration.
    add_job_workload(root, job, job_name, ctx);
    return;
  }
  derive_job(job["spec"], m, job_name, ctx);
}

Manifest manifest(const Field& root, std::string_view kind, const std::string& name) {
  std::string ns = object_namespace(root);
  return Manifest{fmt::format("{} {}/{}", kind, ns, name), ns};
}

}  // namespace

void decode_controller(const Field& root, DecodeContext& ctx) {
  std::string kind = root["kind"].str();
  if (!ctx.derive_pods) {
    // In a cluster dump the pods a controller made are in the dump already; only a
    // scheduler's own image is read.
    if (!record_template_images(root, kind, ctx)) {
      ctx.out.count_skipped(kind);
    }
    return;
  }
  std::string name = object_name(root);
  Manifest m = manifest(root, kind, name);
  Field spec = root["spec"];
  if (kind == "CronJob") {
    derive_cron_job(root, m, name, ctx);
    return;
  }
  Field replicas = spec["replicas"];
  std::int32_t count = replica_count(replicas);
  const std::optional<std::string> queue = kueue_queue(root);
  if (queue && kind == "StatefulSet" && count > 0) {
    // Kueue's StatefulSet integration (pkg/controller/jobs/statefulset) makes the replicas one
    // pod group, admitted as a single Workload.
    add_derived_workload(root, name,
                         {DerivedPodSet{"main", count, spec["template"]["spec"], replicas}},
                         std::nullopt, ctx);
    return;
  }
  Derived d;
  if (kind == "StatefulSet") {
    d = Derived{kind, name, name + "-", Identity::stateful_set};
  } else if (kind == "Deployment") {
    // A Deployment's pods belong to the ReplicaSet it creates, <name>-<pod-template-hash>.
    std::string rs = fmt::format("{}-{}", name, k_synthetic);
    d = Derived{"ReplicaSet", rs, rs + "-", Identity::none};
    // Kueue's Deployment webhook copies the queue label into the pod template: each pod is
    // then a one-pod Workload of the plain-pod integration.
    d.kueue_queue = queue.value_or("");
  } else {
    d = Derived{kind, name, fmt::format("{}-{}-", name, k_synthetic), Identity::none};
  }
  add_pods(spec["template"], m, d, count, replicas, ctx);
}

void decode_daemon_set(const Field& root, DecodeContext& ctx) {
  if (!ctx.derive_pods) {
    if (!record_template_images(root, "DaemonSet", ctx)) {
      ctx.out.count_skipped("DaemonSet");
    }
    return;
  }
  // Its pods depend on the nodes, which may come later: the snapshot build makes them.
  std::string name = object_name(root);
  std::string ns = object_namespace(root);
  Field tmpl = root["spec"]["template"];
  model::Pod proto = template_pod(tmpl, ns, model::OwnerReference{"DaemonSet", name, "", true});
  model::add_daemon_tolerations(proto, tmpl["spec"]["hostNetwork"].boolean());
  ctx.out.add(model::DaemonSet{std::move(ns), std::move(name), std::move(proto), root.loc()});
}

void decode_batch_job(const Field& root, DecodeContext& ctx) {
  record_job(root, ctx);
  // A Job labelled with a Kueue queue is a Workload what-if, input or dump alike.
  if (!ctx.derive_pods || kueue_managed(root["metadata"])) {
    decode_kueue(root, ctx);
    return;
  }
  std::string name = object_name(root);
  derive_job(root["spec"], manifest(root, "Job", name), name, ctx);
}

}  // namespace kpreempt::load
