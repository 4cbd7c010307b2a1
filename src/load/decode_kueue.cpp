// SPDX-License-Identifier: Apache-2.0
// Decoders for the Kueue kinds (kueue.x-k8s.io v1beta1, plus the v1beta2 spellings of newer
// dumps), core Namespaces (for namespaceSelector) and batch/v1 Jobs labelled with a Kueue
// queue, which become the pending Workload Kueue would create for them; add_derived_workload is
// the path every job integration's Workload takes (decode_kueue_jobs.cpp for the other kinds).
#include "load/decode.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace kpreempt::load {
namespace {

model::Toleration decode_toleration(const Field& t) {
  return model::Toleration{t["key"].str(), t["operator"].str(), t["value"].str(),
                           t["effect"].str()};
}

std::optional<model::Quantity> opt_quantity(const Field& f, std::string_view resource) {
  if (!f.present()) {
    return std::nullopt;
  }
  return f.quantity_of(resource);
}

model::KueueResourceGroup decode_resource_group(const Field& g) {
  model::KueueResourceGroup out;
  out.covered_resources = g["coveredResources"].strings();
  g["flavors"].each_item([&](const Field& f) {
    model::KueueFlavorQuotas fq;
    fq.name = f["name"].str();
    f["resources"].each_item([&](const Field& r) {
      const std::string name = r["name"].str();
      fq.resources.push_back(model::KueueQuota{name, r["nominalQuota"].quantity_of(name),
                                               opt_quantity(r["borrowingLimit"], name),
                                               opt_quantity(r["lendingLimit"], name)});
    });
    out.flavors.push_back(std::move(fq));
  });
  return out;
}

void decode_preemption(const Field& p, model::ClusterQueue& cq) {
  cq.within_cluster_queue = p["withinClusterQueue"].str("Never");
  cq.reclaim_within_cohort = p["reclaimWithinCohort"].str("Never");
  Field borrow = p["borrowWithinCohort"];
  cq.borrow_within_cohort = borrow["policy"].str("Never");
  cq.max_priority_threshold = borrow["maxPriorityThreshold"].opt_int32();
}

// Admission checks hold a workload back until an outside controller says yes; no policy
// models that, so the queue is kept by name for a warning.
void add_admission_checks(const Field& spec, const model::ClusterQueue& cq, DecodeContext& ctx) {
  std::vector<std::string> names = spec["admissionChecks"].strings();
  spec["admissionChecksStrategy"]["admissionChecks"].each_item(
      [&](const Field& c) { names.push_back(c["name"].str()); });
  if (!names.empty()) {
    ctx.out.add(model::UnmodelledGate{
        "kueue", model::ObjectRef{"ClusterQueue", "", cq.name},
        "admission checks " + fmt::format("{}", fmt::join(names, ", ")), cq.loc});
  }
}

// spec.fairSharing.weight, which the API server keeps non-negative.
std::optional<model::Quantity> fair_weight(const Field& fair_sharing) {
  Field w = fair_sharing["weight"];
  if (!w.present() || w.is_null()) {
    return std::nullopt;
  }
  model::Quantity q = w.quantity();
  if (q < model::Quantity{}) {
    w.fail("a fair sharing weight cannot be negative");
  }
  return q;
}

void decode_cluster_queue(const Field& root, DecodeContext& ctx) {
  model::ClusterQueue cq;
  cq.name = object_name(root);
  Field spec = root["spec"];
  // v1beta2 (Kueue v0.15+) renamed spec.cohort to spec.cohortName.
  cq.cohort = spec["cohort"].present() ? spec["cohort"].str() : spec["cohortName"].str();
  spec["resourceGroups"].each_item(
      [&](const Field& g) { cq.resource_groups.push_back(decode_resource_group(g)); });
  Field selector = spec["namespaceSelector"];
  cq.namespace_selector = decode_label_selector(selector);
  cq.namespace_selector_valid = !check_label_selector(selector).at.has_value();
  cq.queueing_strategy = spec["queueingStrategy"].str("BestEffortFIFO");
  Field fungibility = spec["flavorFungibility"];
  cq.when_can_borrow = fungibility["whenCanBorrow"].str("Borrow");
  if (cq.when_can_borrow == "MayStopSearch") {
    cq.when_can_borrow = "Borrow";  // the v1beta2 name of the same behaviour
  }
  cq.when_can_preempt = fungibility["whenCanPreempt"].str("TryNextFlavor");
  cq.fungibility_preference = fungibility["preference"].str();
  decode_preemption(spec["preemption"], cq);
  cq.stop_policy = spec["stopPolicy"].str("None");
  cq.fair_sharing = spec["fairSharing"].present();
  cq.fair_weight = fair_weight(spec["fairSharing"]);
  cq.loc = root.loc();
  add_admission_checks(spec, cq, ctx);
  ctx.out.kueue().cluster_queues.push_back(std::move(cq));
}

void decode_local_queue(const Field& root, DecodeContext& ctx) {
  model::LocalQueue q;
  q.namespace_ = object_namespace(root);
  q.name = object_name(root);
  q.cluster_queue = root["spec"]["clusterQueue"].str();
  q.stop_policy = root["spec"]["stopPolicy"].str("None");
  q.loc = root.loc();
  ctx.out.kueue().local_queues.push_back(std::move(q));
}

void decode_resource_flavor(const Field& root, DecodeContext& ctx) {
  model::ResourceFlavor f;
  f.name = object_name(root);
  Field spec = root["spec"];
  f.node_labels = spec["nodeLabels"].string_map();
  spec["nodeTaints"].each_item([&](const Field& t) {
    f.node_taints.push_back(model::Taint{t["key"].str(), t["value"].str(), t["effect"].str()});
  });
  spec["tolerations"].each_item(
      [&](const Field& t) { f.tolerations.push_back(decode_toleration(t)); });
  f.topology_name = spec["topologyName"].str();
  f.loc = root.loc();
  ctx.out.kueue().flavors.push_back(std::move(f));
}

void decode_workload_priority_class(const Field& root, DecodeContext& ctx) {
  model::WorkloadPriorityClass c;
  c.name = object_name(root);
  c.value = root["value"].int32();
  c.loc = root.loc();
  ctx.out.kueue().priority_classes.push_back(std::move(c));
}

void decode_namespace(const Field& root, DecodeContext& ctx) {
  ctx.out.kueue().namespaces.push_back(
      model::KueueNamespace{object_name(root), root["metadata"]["labels"].string_map(),
                            root["metadata"]["annotations"].string_map()});
}

void decode_cohort(const Field& root, DecodeContext& ctx) {
  model::KueueCohort c;
  c.name = object_name(root);
  Field spec = root["spec"];
  c.parent = spec["parentName"].present() ? spec["parentName"].str() : spec["parent"].str();
  spec["resourceGroups"].each_item(
      [&](const Field& g) { c.resource_groups.push_back(decode_resource_group(g)); });
  c.fair_sharing = spec["fairSharing"].present();
  c.fair_weight = fair_weight(spec["fairSharing"]);
  c.loc = root.loc();
  ctx.out.kueue().cohorts.push_back(std::move(c));
}

model::KueueContainer decode_container(const Field& c) {
  return model::KueueContainer{c["name"].str(), c["resources"]["requests"].resource_list(),
                               c["resources"]["limits"].resource_list()};
}

}  // namespace

// The parts of a pod template Kueue reads: requests for quota, scheduling constraints for
// matching ResourceFlavors.
void decode_pod_template(const Field& spec, model::KueuePodSet& ps) {
  spec["containers"].each_item(
      [&](const Field& c) { ps.containers.push_back(decode_container(c)); });
  spec["initContainers"].each_item(
      [&](const Field& c) { ps.init_containers.push_back(decode_container(c)); });
  ps.overhead = spec["overhead"].resource_list();
  ps.node_selector = spec["nodeSelector"].string_map();
  Field required =
      spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"];
  if (required.present()) {
    ps.has_required_node_affinity = true;
    ps.required_node_affinity = decode_node_selector_terms(required["nodeSelectorTerms"]);
  }
  spec["tolerations"].each_item(
      [&](const Field& t) { ps.tolerations.push_back(decode_toleration(t)); });
}

namespace {

model::KueuePodSet decode_pod_set(const Field& f) {
  model::KueuePodSet ps;
  ps.name = f["name"].str("main");
  ps.count = f["count"].int32(1);
  ps.min_count = f["minCount"].opt_int32();
  decode_pod_template(f["template"]["spec"], ps);
  if (std::string limit = model::pod_set_limit_error(ps, ps.count); !limit.empty()) {
    f["count"].fail("total requests out of range: " + limit);
  }
  return ps;
}

void decode_priority_ref(const Field& spec, model::Workload& w) {
  w.spec_priority = spec["priority"].opt_int32();
  w.priority = w.spec_priority.value_or(0);
  w.priority_class_name = spec["priorityClassName"].str();
  w.priority_class_source = spec["priorityClassSource"].str();
  Field ref = spec["priorityClassRef"];  // v1beta2
  if (w.priority_class_name.empty() && ref.present()) {
    w.priority_class_name = ref["name"].str();
    w.priority_class_source = ref["kind"].str() == "PriorityClass"
                                  ? std::string(model::k_pc_source)
                                  : std::string(model::k_wpc_source);
  }
}

void decode_admission(const Field& status, model::Workload& w) {
  Field admission = status["admission"];
  w.admitted = admission.present();
  w.admission_cluster_queue = admission["clusterQueue"].str();
  admission["podSetAssignments"].each_item([&](const Field& a) {
    w.assignments.push_back(model::KueuePodSetAssignment{a["name"].str(), a["flavors"].string_map(),
                                                         a["resourceUsage"].resource_list(),
                                                         a["count"].opt_int32()});
  });
  status["conditions"].each_item([&](const Field& c) {
    std::string type = c["type"].str();
    std::string message = type == "Evicted" || type == "Preempted" ? c["message"].str() : "";
    w.conditions.push_back(model::KueueCondition{std::move(type), c["status"].str(),
                                                 c["reason"].str(), c["lastTransitionTime"].time(),
                                                 std::move(message)});
  });
  status["reclaimablePods"].each_item([&](const Field& r) {
    w.reclaimable_pods.emplace_back(r["name"].str(), r["count"].int32());
  });
}

void decode_workload(const Field& root, DecodeContext& ctx) {
  model::Workload w;
  w.namespace_ = object_namespace(root);
  w.name = object_name(root);
  w.uid = root["metadata"]["uid"].str();
  w.creation_timestamp = root["metadata"]["creationTimestamp"].time();
  w.annotations = root["metadata"]["annotations"].string_map();
  root["metadata"]["ownerReferences"].each_item([&](const Field& o) {
    if (o["controller"].boolean()) {
      w.owner = model::ObjectRef{o["kind"].str(), w.namespace_, o["name"].str()};
    }
  });
  Field spec = root["spec"];
  w.queue_name = spec["queueName"].str();
  w.active = spec["active"].boolean(true);
  decode_priority_ref(spec, w);
  spec["podSets"].each_item([&](const Field& ps) { w.pod_sets.push_back(decode_pod_set(ps)); });
  decode_admission(root["status"], w);
  w.loc = root.loc();
  ctx.out.kueue().workloads.push_back(std::move(w));
}

// Kueue's Job integration (pkg/controller/jobs/job): one pod set "main" of
// min(parallelism, completions) pods.
std::int32_t job_pod_count(const Field& spec) {
  std::int32_t count = spec["parallelism"].int32(1);
  std::optional<std::int32_t> completions = spec["completions"].opt_int32();
  if (completions && *completions < count) {
    count = *completions;
  }
  return count;
}

// jobframework ExtractPriority: the WorkloadPriorityClass label wins; else the PriorityClass
// `pod_class` names (resolved at snapshot build, when every class is read).
void kueue_priority(const model::StringMap& labels, const std::string& pod_class,
                    DecodeContext& ctx, model::Workload& w) {
  if (const std::string* wpc = model::find(labels, model::k_kueue_priority_label)) {
    w.priority_class_name = *wpc;
    w.priority_class_source = model::k_wpc_source;
    if (const auto* c = model::find_workload_priority_class(ctx.out.kueue(), *wpc)) {
      w.priority = c->value;
      w.spec_priority = c->value;
    }
    return;
  }
  w.priority_class_name = pod_class;
  w.priority_class_source = pod_class.empty() ? "" : std::string(model::k_pc_source);
  w.priority_from_pod_class = true;
}

std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

model::KueuePodSet build_pod_set(const DerivedPodSet& d) {
  model::KueuePodSet ps;
  ps.name = lowercase(d.name);  // kueue.NewPodSetReference
  ps.count = d.count;
  decode_pod_template(d.spec, ps);
  if (!ps.containers.empty()) {
    for (const auto& [resource, floor] : d.first_container_floor) {
      raise_request(ps.containers[0].requests, resource, floor);
    }
  }
  ps.containers.insert(ps.containers.end(), d.injected.begin(), d.injected.end());
  if (std::string limit = model::pod_set_limit_error(ps, ps.count); !limit.empty()) {
    d.count_at.fail("total requests out of range: " + limit);
  }
  return ps;
}

void add_job_workload(const Field& root, const Field& job, const std::string& stem,
                      DecodeContext& ctx) {
  Field spec = job["spec"];
  Field pod_spec = spec["template"]["spec"];
  model::Workload w = derived_workload_of("Job", root, job["metadata"], stem,
                                          pod_spec["priorityClassName"].str(), ctx);
  w.pod_sets.push_back(
      build_pod_set(DerivedPodSet{"main", job_pod_count(spec), pod_spec, spec["parallelism"]}));
  ctx.out.kueue().workloads.push_back(std::move(w));
}

namespace {

void decode_job(const Field& root, DecodeContext& ctx) {
  if (!kueue_queue(root)) {
    return;  // not managed by Kueue: its failure accounting alone is read
  }
  add_job_workload(root, root, object_name(root), ctx);
}

}  // namespace

void raise_request(model::ResourceList& requests, const std::string& resource,
                   model::Quantity floor) {
  for (auto& [name, q] : requests) {
    if (name == resource) {
      q = std::max(q, floor);
      return;
    }
  }
  requests.emplace_back(resource, floor);
}

namespace {

// The kinds of Kueue's job integrations. An object whose controller is one of them is part of
// that job (a JobSet's Jobs, a RayJob's RayCluster, a TrainJob's JobSet): the jobframework
// reconciler leaves it to its owner's Workload (IsOwnerManagedByKueue), labels or not.
bool owned_by_integration(const Field& root) {
  static constexpr std::string_view k_kinds[] = {
      "Job",    "JobSet", "PyTorchJob", "TFJob",    "XGBoostJob", "PaddleJob",      "JAXJob",
      "MPIJob", "RayJob", "RayCluster", "TrainJob", "AppWrapper", "LeaderWorkerSet"};
  bool owned = false;
  root["metadata"]["ownerReferences"].each_item([&](const Field& o) {
    const std::string kind = o["kind"].str();
    owned = owned || (o["controller"].boolean() &&
                      std::find(std::begin(k_kinds), std::end(k_kinds), kind) != std::end(k_kinds));
  });
  return owned;
}

}  // namespace

std::optional<std::string> kueue_queue(const Field& root) {
  if (owned_by_integration(root)) {
    return std::nullopt;
  }
  model::StringMap labels = root["metadata"]["labels"].string_map();
  if (const std::string* queue = model::find(labels, model::k_kueue_queue_label)) {
    return *queue;
  }
  return std::nullopt;
}

// The one path every integration's Workload takes (jobframework NewWorkload + priority):
// named <lowercase kind>-<stem> as GetWorkloadNameForOwnerWithGVK names it, less the hash
// suffix, which needs the object's UID and is left out offline.
model::Workload derived_workload(const Field& root, const std::string& stem,
                                 const std::string& pod_class, DecodeContext& ctx) {
  return derived_workload_of(root["kind"].str(), root, root["metadata"], stem, pod_class, ctx);
}

model::Workload derived_workload_of(std::string_view kind, const Field& root, const Field& meta,
                                    const std::string& stem, const std::string& pod_class,
                                    DecodeContext& ctx) {
  model::StringMap labels = meta["labels"].string_map();
  model::Workload w;
  w.namespace_ = object_namespace(root);
  w.name = lowercase(std::string(kind)) + "-" + stem;
  w.uid = meta["uid"].str();
  w.creation_timestamp = meta["creationTimestamp"].time();
  if (const std::string* queue = model::find(labels, model::k_kueue_queue_label)) {
    w.queue_name = *queue;
  }
  kueue_priority(labels, pod_class, ctx, w);
  w.derived_from = model::ObjectRef{root["kind"].str(), w.namespace_, object_name(root)};
  w.what_if = ctx.derive_pods;
  w.loc = root.loc();
  return w;
}

void add_derived_workload(const Field& root, const std::string& stem,
                          const std::vector<DerivedPodSet>& pod_sets,
                          const std::optional<std::string>& priority_class, DecodeContext& ctx) {
  // Without a class of its own, the first pod set whose template names a PriorityClass
  // (jobframework extractPriorityFromPodSets).
  std::string pod_class;
  if (priority_class) {
    pod_class = *priority_class;
  } else {
    for (const DerivedPodSet& d : pod_sets) {
      if (pod_class = d.spec["priorityClassName"].str(); !pod_class.empty()) {
        break;
      }
    }
  }
  model::Workload w = derived_workload(root, stem, pod_class, ctx);
  for (const DerivedPodSet& d : pod_sets) {
    w.pod_sets.push_back(build_pod_set(d));
  }
  ctx.out.kueue().workloads.push_back(std::move(w));
}

// One entry point for every kind of the family, chosen by `kind`, so the kinds table needs
// a single declaration.
void decode_kueue(const Field& root, DecodeContext& ctx) {
  std::string kind = root["kind"].str();
  if (kind == "ClusterQueue") {
    decode_cluster_queue(root, ctx);
  } else if (kind == "LocalQueue") {
    decode_local_queue(root, ctx);
  } else if (kind == "ResourceFlavor") {
    decode_resource_flavor(root, ctx);
  } else if (kind == "Workload") {
    decode_workload(root, ctx);
  } else if (kind == "WorkloadPriorityClass") {
    decode_workload_priority_class(root, ctx);
  } else if (kind == "Namespace") {
    decode_namespace(root, ctx);
  } else if (kind == "Cohort") {
    decode_cohort(root, ctx);
  } else if (kind == "Job") {
    decode_job(root, ctx);
  }
}

}  // namespace kpreempt::load
