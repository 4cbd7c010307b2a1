// SPDX-License-Identifier: Apache-2.0
// The pending workload as Kueue v0.14.8 sees it: the checks the scheduler and queue manager
// make before any quota logic (pkg/scheduler/scheduler.go, pkg/cache/queue), its priority
// (pkg/util/priority) and its requests (pkg/workload/workload.go totalRequestsFromPodSets).
// A queue-labelled Pod becomes the single-pod-set Workload of the pod integration.
#include "policy/kueue/internal.h"

#include "kpreempt/model/go_parse.h"
#include "kpreempt/model/match.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace kpreempt::policy::kueue {
namespace {

void fail(Decision& d, Code code, const std::string& summary) {
  d.outcome = Outcome::unschedulable;
  d.reasons.push_back(code);
  d.summary = summary;
}

std::int32_t pod_priority(const Input& in, const model::Pod& pod) {
  if (const std::string* wpc = model::find(pod.labels, model::k_kueue_priority_label)) {
    if (const auto* c = model::find_workload_priority_class(in.snapshot.kueue(), *wpc)) {
      return c->value;
    }
  }
  return in.snapshot.facts(in.preemptor).priority;
}

model::KueueContainer to_kueue(const model::Container& c) {
  return model::KueueContainer{c.name, c.requests, {}};
}

// The pod set a pod makes (constructPodSet).
model::KueuePodSet pod_set_of(const model::Pod& pod) {
  model::KueuePodSet ps;
  std::transform(pod.containers.begin(), pod.containers.end(), std::back_inserter(ps.containers),
                 to_kueue);
  for (const model::Container& c : pod.init_containers) {
    ps.init_containers.push_back(to_kueue(c));
  }
  ps.overhead = pod.overhead;
  ps.node_selector = pod.node_selector;
  ps.required_node_affinity = pod.required_node_affinity;
  ps.has_required_node_affinity = pod.has_required_node_affinity;
  ps.tolerations = pod.tolerations;
  return ps;
}

// The Workload the pod integration creates: one pod set "main" of one pod.
model::Workload workload_for_pod(const Input& in, const model::Pod& pod) {
  model::Workload w;
  w.namespace_ = pod.namespace_;
  w.name = pod.name;
  w.uid = pod.uid;
  w.creation_timestamp = pod.creation_timestamp;
  w.queue_name = *model::find(pod.labels, model::k_kueue_queue_label);
  w.priority = pod_priority(in, pod);
  w.pod_sets.push_back(pod_set_of(pod));
  return w;
}

// Kueue's pod groups (pkg/controller/jobs/pod): pods labelled with one group name become a
// single Workload named after the group once its pod-group-total-count pods exist (at once
// with pod-group-fast-admission), with one pod set per pod role.
constexpr std::string_view k_group_label = model::k_kueue_pod_group_label;
constexpr std::string_view k_group_total = "kueue.x-k8s.io/pod-group-total-count";
constexpr std::string_view k_group_fast = "kueue.x-k8s.io/pod-group-fast-admission";

// isPodRunnableOrSucceeded: not Failed, and not deleted before it was bound.
bool runnable_or_succeeded(const model::Pod& p) {
  return p.phase != "Failed" && !(p.deletion_timestamp && p.node_name.empty());
}

std::vector<const model::Pod*> group_members(const model::Snapshot& s, const model::Pod& pod,
                                             const std::string& group) {
  std::vector<const model::Pod*> out;
  for (const model::Pod& p : s.pods()) {
    const std::string* g = model::find(p.labels, k_group_label);
    if (p.namespace_ == pod.namespace_ && g != nullptr && *g == group && runnable_or_succeeded(p)) {
      out.push_back(&p);
    }
  }
  return out;
}

// What of a pod's role hash kpreempt keeps: the pod set a pod makes, compared field by field.
std::string role_of(const model::KueuePodSet& ps) {
  std::string key;
  for (const auto* list : {&ps.init_containers, &ps.containers}) {
    for (const model::KueueContainer& c : *list) {
      key += c.name + "{";
      for (const auto& [r, q] : c.requests) {
        key += fmt::format("{}={};", r, model::to_string(q));
      }
      key += "}";
    }
    key += "|";
  }
  for (const auto& [k, v] : ps.node_selector) {
    key += k + "=" + v + ";";
  }
  for (const model::Toleration& t : ps.tolerations) {
    key += fmt::format("{}:{}:{}:{};", t.key, t.op, t.value, t.effect);
  }
  for (const model::NodeSelectorTerm& t : ps.required_node_affinity) {
    for (const model::Requirement& r : t.match_expressions) {
      key += fmt::format("{} {} {};", r.key, r.op, fmt::join(r.values, ","));
    }
    key += "|";
  }
  for (const auto& [r, q] : ps.overhead) {
    key += fmt::format("{}={};", r, model::to_string(q));
  }
  return key;
}

constexpr std::string_view k_role_hash = "kueue.x-k8s.io/role-hash";

// The role hash Kueue's pod webhook wrote on the pod, if it did (every pod it admitted).
const std::string* written_role_hash(const model::Pod& p) {
  return model::find(p.annotations, k_role_hash);
}

// The group's pod sets (constructGroupPodSets): one per role with its pod count, or with fast
// admission one pod set of the total count shaped like the first member. Upstream names each
// by its role hash and sorts them by name. Pods Kueue's webhook saw carry the hash; for pods
// that do not (a manifest not yet applied) kpreempt compares the pod sets field by field and
// names them role-1, role-2 in member order, which `hashless` reports.
std::vector<model::KueuePodSet> group_pod_sets(const std::vector<const model::Pod*>& members,
                                               std::int64_t total, bool fast, bool& hashless) {
  std::vector<model::KueuePodSet> sets;
  std::vector<std::string> roles;
  hashless = false;
  for (const model::Pod* p : members) {
    model::KueuePodSet ps = pod_set_of(*p);
    const std::string* hash = written_role_hash(*p);
    const std::string role = hash != nullptr ? "hash:" + *hash : role_of(ps);
    const auto it = std::find(roles.begin(), roles.end(), role);
    if (it != roles.end()) {
      ++sets[static_cast<std::size_t>(it - roles.begin())].count;
      continue;
    }
    hashless = hashless || hash == nullptr;
    ps.name = hash != nullptr ? *hash : fmt::format("role-{}", roles.size() + 1);
    roles.push_back(role);
    sets.push_back(std::move(ps));
    if (fast) {
      sets.back().count = static_cast<std::int32_t>(total);
      break;
    }
  }
  if (!hashless) {
    std::sort(
        sets.begin(), sets.end(),
        [](const model::KueuePodSet& a, const model::KueuePodSet& b) { return a.name < b.name; });
  }
  return sets;
}

bool namespace_matches(const Input& in, const model::ClusterQueue& cq, const std::string& ns) {
  if (!cq.namespace_selector.present || !cq.namespace_selector_valid) {
    return false;  // a nil selector admits no namespace
  }
  const model::KueueNamespace* n = model::find_namespace(in.snapshot.kueue(), ns);
  model::StringMap labels =
      n != nullptr ? n->labels : model::StringMap{{"kubernetes.io/metadata.name", ns}};
  return model::matches(cq.namespace_selector, labels);
}

bool request_above_limit(const model::Workload& w) {
  for (const auto& ps : w.pod_sets) {
    for (const auto* list : {&ps.containers, &ps.init_containers}) {
      for (const auto& c : *list) {
        for (const auto& [res, q] : c.requests) {
          auto limit = std::find_if(c.limits.begin(), c.limits.end(),
                                    [&](const auto& kv) { return kv.first == res; });
          if (limit != c.limits.end() && q > limit->second) {
            return true;
          }
        }
      }
    }
  }
  return false;
}

struct Problem {
  std::optional<Code> code;
  std::string detail;
};

// The queue checks, in Kueue's order; an empty code when the workload may be scheduled.
Problem queue_problem(const Input& in, const QuotaModel& quota, const model::Workload& w,
                      std::size_t& cq_index) {
  const auto& k = in.snapshot.kueue();
  if (model::condition_true(w, "QuotaReserved")) {
    return {Code::already_admitted, "the workload already holds quota"};
  }
  if (model::condition_true(w, "Finished") || !w.active) {
    return {Code::inactive_workload, "the workload is finished or spec.active is false"};
  }
  const model::LocalQueue* lq = model::find_local_queue(k, w.namespace_, w.queue_name);
  if (lq == nullptr) {
    return {Code::no_local_queue,
            fmt::format("LocalQueue {}/{} does not exist", w.namespace_, w.queue_name)};
  }
  if (lq->stop_policy != "None" && !lq->stop_policy.empty()) {
    return {Code::local_queue_stopped,
            fmt::format("LocalQueue {}/{} is stopped", w.namespace_, w.queue_name)};
  }
  std::optional<std::size_t> cq = quota.find_cq(lq->cluster_queue);
  if (!cq) {
    return {Code::no_cluster_queue,
            fmt::format("ClusterQueue {} does not exist", lq->cluster_queue)};
  }
  cq_index = *cq;
  if (!quota.active(*cq)) {
    return {Code::cq_inactive, fmt::format("ClusterQueue {} is inactive: {}", lq->cluster_queue,
                                           quota.inactive_reason(*cq))};
  }
  if (!namespace_matches(in, quota.cq(*cq), w.namespace_)) {
    return {Code::namespace_mismatch, fmt::format("namespace {} is not selected by ClusterQueue {}",
                                                  w.namespace_, lq->cluster_queue)};
  }
  if (request_above_limit(w)) {
    return {Code::invalid_resources, "a container requests more than its limit"};
  }
  return {};
}

bool covers_pods(const model::ClusterQueue& cq) {
  return std::any_of(cq.resource_groups.begin(), cq.resource_groups.end(), [](const auto& g) {
    return std::find(g.covered_resources.begin(), g.covered_resources.end(), "pods") !=
           g.covered_resources.end();
  });
}

std::int32_t reclaimable(const model::Workload& w, const std::string& pod_set) {
  for (const auto& [name, count] : w.reclaimable_pods) {
    if (name == pod_set) {
      return count;
    }
  }
  return 0;
}

// The Workload of the preemptor's pod group, as the pod integration would make it; false with
// the decision failed when Kueue would make none yet.
bool group_workload(const Input& in, const model::Pod& pod, const std::string& group,
                    model::Workload& w, Decision& d) {
  const std::vector<const model::Pod*> members = group_members(in.snapshot, pod, group);
  const std::string* total_text = model::find(pod.annotations, k_group_total);
  // strconv.Atoi; an absent annotation fails like an empty one.
  const auto total = model::go::parse_int(total_text != nullptr ? *total_text : "");
  if (!total.ok() || total.value < 1) {
    fail(d, Code::pod_group_incomplete,
         fmt::format("Pod {}/{} is in pod group {} but its {} annotation is {}: Kueue makes no "
                     "Workload for the group",
                     pod.namespace_, pod.name, group, k_group_total,
                     total_text != nullptr ? "not a positive count" : "missing"));
    return false;
  }
  const std::string* fast_text = model::find(pod.annotations, k_group_fast);
  const bool fast = fast_text != nullptr && *fast_text == "true";
  if (!fast && static_cast<std::int64_t>(members.size()) < total.value) {
    fail(d, Code::pod_group_incomplete,
         fmt::format("pod group {}/{} has {} of its {} pods: Kueue makes its Workload once all "
                     "exist (or at once with {}: \"true\")",
                     pod.namespace_, group, members.size(), total.value, k_group_fast));
    return false;
  }
  w = workload_for_pod(in, pod);
  w.name = group;
  bool hashless = false;
  w.pod_sets = group_pod_sets(members, total.value, fast, hashless);
  if (w.pod_sets.size() > 1 && hashless) {
    d.warnings.push_back(fmt::format(
        "pod group {}/{} has {} pod roles: Kueue names and orders its pod sets by a hash of each "
        "role's pod spec, which kpreempt does not compute for pods without the {} annotation "
        "(shown as role-1...); with quota tight across flavors, the flavor each role gets may "
        "differ",
        pod.namespace_, group, w.pod_sets.size(), k_role_hash));
  }
  return true;
}

}  // namespace

std::optional<Preemptor> resolve_preemptor(const Input& in, const QuotaModel& quota, Decision& d) {
  const model::KueueObjects& k = in.snapshot.kueue();
  model::Workload built;
  const model::Workload* w = nullptr;
  Preemptor p;
  if (in.workload != model::k_none) {
    w = &k.workloads[in.workload];
    p.ref = model::ObjectRef{"Workload", w->namespace_, w->name};
    p.derived_from = w->derived_from;
    p.priority = w->priority;
  } else {
    const model::Pod& pod = in.snapshot.pods()[in.preemptor];
    if (model::find(pod.labels, model::k_kueue_queue_label) == nullptr) {
      fail(d, Code::not_kueue_managed,
           fmt::format("Pod {}/{} has no {} label, so Kueue does not manage it", pod.namespace_,
                       pod.name, model::k_kueue_queue_label));
      return std::nullopt;
    }
    if (const std::string* group = model::find(pod.labels, k_group_label)) {
      if (!group_workload(in, pod, *group, built, d)) {
        return std::nullopt;
      }
      p.ref = model::ObjectRef{"Workload", pod.namespace_, built.name};
      p.derived_from = model::ObjectRef{"Pod", pod.namespace_, pod.name};
    } else {
      built = workload_for_pod(in, pod);
      p.ref = model::ObjectRef{"Pod", pod.namespace_, pod.name};
    }
    w = &built;
    p.priority = built.priority;
  }
  if (Problem pr = queue_problem(in, quota, *w, p.cq); pr.code) {
    fail(d, *pr.code, fmt::format("{} cannot be admitted: {}", model::to_string(p.ref), pr.detail));
    return std::nullopt;
  }
  // A workload written by hand (a what-if Job or Pod) has no creationTimestamp; Kueue would
  // create it now.
  p.ts = w->creation_timestamp ? model::queue_order_time(*w) : in.now;
  bool pods = covers_pods(quota.cq(p.cq));
  for (const model::KueuePodSet& ps : w->pod_sets) {
    std::int64_t count = std::max<std::int64_t>(0, ps.count - reclaimable(*w, ps.name));
    model::KueueAmounts req = model::pod_set_requests(ps, count);
    if (pods) {
      req["pods"] = count;
    }
    p.pod_sets.push_back(ps);
    p.requests.push_back(std::move(req));
    p.counts.push_back(count);
  }
  return p;
}

}  // namespace kpreempt::policy::kueue

namespace kpreempt::policy::kueue {

void bind_replaced_slice(Context& ctx) {
  constexpr std::string_view key = "kueue.x-k8s.io/workload-slice-replacement-for";
  if (!ctx.rules.workload_slices || ctx.in.workload == model::k_none) {
    return;
  }
  const model::Workload& w = ctx.k.workloads[ctx.in.workload];
  const std::string* ref = model::find(w.annotations, key);
  std::size_t slash = ref == nullptr ? std::string::npos : ref->find('/');
  if (slash == std::string::npos || ref->substr(0, slash) != w.namespace_) {
    return;
  }
  std::optional<std::uint32_t> old =
      model::find_workload(ctx.k, w.namespace_, ref->substr(slash + 1));
  if (!old || !holds_quota(ctx.k.workloads[*old]) ||
      ctx.k.workloads[*old].admission_cluster_queue != ctx.quota.cq(ctx.p.cq).name) {
    return;
  }
  ctx.p.replaces = *old;
  for (std::size_t i = 0; i < ctx.p.pod_sets.size(); ++i) {
    for (const auto& a : ctx.k.workloads[*old].assignments) {
      if (a.name != ctx.p.pod_sets[i].name) {
        continue;
      }
      for (const auto& [res, q] : a.resource_usage) {
        auto it = ctx.p.requests[i].find(res);
        if (it != ctx.p.requests[i].end()) {
          it->second = std::max<std::int64_t>(0, it->second - model::kueue_amount(res, q));
        }
      }
    }
  }
}

}  // namespace kpreempt::policy::kueue
