// SPDX-License-Identifier: Apache-2.0
// The pending workload as Kueue v0.14.8 sees it: the checks the scheduler and queue manager
// make before any quota logic (pkg/scheduler/scheduler.go, pkg/cache/queue), its priority
// (pkg/util/priority) and its requests (pkg/workload/workload.go totalRequestsFromPodSets).
// A queue-labelled Pod becomes the single-pod-set Workload of the pod integration.
#include "policy/kueue/internal.h"

#include "kpreempt/model/match.h"

#include <fmt/format.h>

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

// The Workload the pod integration creates: one pod set "main" of one pod.
model::Workload workload_for_pod(const Input& in, const model::Pod& pod) {
  model::Workload w;
  w.namespace_ = pod.namespace_;
  w.name = pod.name;
  w.uid = pod.uid;
  w.creation_timestamp = pod.creation_timestamp;
  w.queue_name = *model::find(pod.labels, model::k_kueue_queue_label);
  w.priority = pod_priority(in, pod);
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
  w.pod_sets.push_back(std::move(ps));
  return w;
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
    built = workload_for_pod(in, pod);
    w = &built;
    p.ref = model::ObjectRef{"Pod", pod.namespace_, pod.name};
    p.priority = built.priority;
  }
  if (Problem pr = queue_problem(in, quota, *w, p.cq); pr.code) {
    fail(d, *pr.code, fmt::format("{} cannot be admitted: {}", model::to_string(p.ref), pr.detail));
    return std::nullopt;
  }
  // A workload written by hand (a what-if Job or Pod) has no creationTimestamp; Kueue would
  // create it now.
  p.ts = w->creation_timestamp ? queue_order_time(*w) : in.now;
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
