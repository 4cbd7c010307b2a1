// SPDX-License-Identifier: Apache-2.0
// Which pods a policy's scheduler ever sees. A scheduler takes only pods that name it in
// spec.schedulerName, and kube-scheduler (and the schedulers built from it) keeps a pod with
// scheduling gates out of its active queue until every gate is gone. Kueue admits Workloads
// whatever scheduler places their pods, and lifts its own admission gate itself.
#include "kpreempt/policy/policy.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy {
namespace {

constexpr std::string_view k_default_scheduler = "default-scheduler";
constexpr std::string_view k_yunikorn = "yunikorn";
constexpr std::string_view k_koordinator = "koord-scheduler";

// The profile of a KubeSchedulerConfiguration in the input that serves the name.
const model::SchedulerProfile* profile_named(const model::Snapshot& snap, std::string_view name) {
  const auto& ps = snap.scheduler_config().profiles;
  const auto it = std::find_if(ps.begin(), ps.end(), [&](const model::SchedulerProfile& p) {
    return p.scheduler_name == name;
  });
  return it == ps.end() ? nullptr : &*it;
}

// An unset schedulerName (a manifest, not a dump: the API server defaults it) is asked
// about under the policy's own scheduler.
bool handles(Scheduler s, const model::Snapshot& snap, std::string_view name) {
  if (name.empty() || s == Scheduler::kueue) {
    return true;
  }
  switch (s) {
    case Scheduler::kube:
      // A second kube-scheduler (scheduler-plugins) answers for its profiles' names; the
      // names of YuniKorn and Koordinator stay theirs even when their configuration is read.
      return name == k_default_scheduler ||
             (name != k_yunikorn && name != k_koordinator && profile_named(snap, name) != nullptr);
    case Scheduler::yunikorn:
      // YuniKorn's admission controller rewrites default-scheduler pods to yunikorn.
      return name == k_yunikorn || name == k_default_scheduler;
    case Scheduler::koordinator:
      return name == k_koordinator;
    case Scheduler::kueue:
      break;
  }
  return true;
}

std::string_view scheduler_label(Scheduler s) {
  switch (s) {
    case Scheduler::kube:
      return "kube-scheduler";
    case Scheduler::yunikorn:
      return "YuniKorn";
    case Scheduler::koordinator:
      return "koord-scheduler";
    case Scheduler::kueue:
      break;
  }
  return "Kueue";
}

// The profile whose DefaultPreemption the pod would run, when it disables it.
const model::SchedulerProfile* disabled_profile(const Entry& e, const model::Snapshot& snap,
                                                const model::Pod& pod) {
  if (e.plugin != "DefaultPreemption") {
    return nullptr;
  }
  const std::string_view name =
      pod.scheduler_name.empty() ? k_default_scheduler : std::string_view(pod.scheduler_name);
  const model::SchedulerProfile* p = profile_named(snap, name);
  return p != nullptr && p->preemption_disabled ? p : nullptr;
}

Decision held_back(const Entry& e, Reason why, std::string summary) {
  Decision d;
  d.policy = std::string(e.name);
  d.outcome = Outcome::unschedulable;
  d.reasons.push_back(std::move(why));
  d.summary = std::move(summary);
  return d;
}

Decision not_handled(const Entry& e, const model::Pod& pod) {
  return held_back(e, Reason(Code::not_handled, pod.scheduler_name),
                   fmt::format("not handled: spec.schedulerName is {}, so {} never schedules "
                               "this pod and preempts nothing for it",
                               pod.scheduler_name, scheduler_label(e.scheduler)));
}

Decision gated(const Entry& e, const model::Pod& pod) {
  return held_back(e, Reason(Code::gated, pod.scheduling_gates),
                   fmt::format("gated: spec.schedulingGates holds {}; the scheduler does not "
                               "try the pod, nor preempt for it, until every gate is removed",
                               fmt::join(pod.scheduling_gates, ", ")));
}

void disable_preemption(const model::SchedulerProfile& p, Decision& d) {
  d.warnings.push_back(
      fmt::format("profile {} of the KubeSchedulerConfiguration disables DefaultPreemption "
                  "(plugins.postFilter.disabled), so it never preempts for its pods",
                  p.scheduler_name));
  if (d.outcome != Outcome::preempt) {
    return;
  }
  d.outcome = Outcome::unschedulable;
  d.node.clear();
  d.victims.clear();
  d.tied_nodes.clear();
  d.nodes.clear();  // the candidates of a preemption that never runs would only mislead
  d.reasons.assign(1, Reason(Code::preemption_disabled, p.scheduler_name));
  d.summary = fmt::format(
      "unschedulable: preemption would make room, but profile {} disables DefaultPreemption",
      p.scheduler_name);
}

// Objects of Kubernetes' workload-aware scheduling (default.md "(W)"): with its feature gate
// off, the default, every pod is judged by the single-pod rules, which is what kpreempt does.
void warn_workload_aware(const Entry& e, const Input& in, Decision& d) {
  if (e.scheduler != Scheduler::kube) {
    return;
  }
  std::vector<std::string> seen;
  std::size_t count = 0;
  for (const model::UnmodelledGate& g : in.snapshot.unmodelled()) {
    if (g.family == "workload-aware" && ++count <= 3) {
      seen.push_back(g.what == "spec.schedulingGroup"
                         ? model::to_string(g.ref) + " (" + g.what + ")"
                         : model::to_string(g.ref));
    }
  }
  if (count == 0) {
    return;
  }
  d.warnings.push_back(fmt::format(
      "the dump holds {} object(s) of workload-aware scheduling ({}{}): with feature gate "
      "GenericWorkload off, the default, every pod is judged by the single-pod rules, as here; "
      "gang preemption with the gate on is not modelled",
      count, fmt::join(seen, ", "), count > seen.size() ? ", ..." : ""));
}

void warn_unmodelled(const Entry& e, const Input& in, Decision& d) {
  for (const model::UnmodelledGate& g : in.snapshot.unmodelled()) {
    if (g.family == "kueue" && e.scheduler == Scheduler::kueue) {
      d.warnings.push_back(fmt::format("{}: {} not modelled; the answer ignores it",
                                       model::to_string(g.ref), g.what));
    }
  }
  warn_workload_aware(e, in, d);
  if (in.preemptor == model::k_none) {
    return;
  }
  const model::Pod& pod = in.snapshot.pods()[in.preemptor];
  for (const model::ObjectRef& claim : pod.resource_claims) {
    d.warnings.push_back(fmt::format(
        "Pod {}/{} claims devices through {}/{}/{} (DRA): device allocation is not modelled; "
        "the answer ignores it",
        pod.namespace_, pod.name, claim.kind, pod.namespace_, claim.name));
  }
}

// The scheduler writes PodScheduled=False with reason Unschedulable when no node would take the
// pod. If the pod fits the dump all the same, the dump most likely misses what filled the nodes
// (pods of other namespaces, nodes left out), or the cluster changed after that attempt.
void warn_stale_fit(const model::Pod& pod, Decision& d) {
  if (d.outcome != Outcome::fits) {
    return;
  }
  const bool unschedulable =
      std::any_of(pod.conditions.begin(), pod.conditions.end(), [](const model::PodCondition& c) {
        return c.type == "PodScheduled" && c.status == "False" && c.reason == "Unschedulable";
      });
  if (unschedulable) {
    d.warnings.push_back(fmt::format(
        "Pod {}/{}: its status says the scheduler found no node for it (PodScheduled False, "
        "Unschedulable), yet it fits this dump: the dump may lack pods or nodes (kubectl get "
        "nodes,pods -A -o yaml collects all of them), or the cluster changed since",
        pod.namespace_, pod.name));
  }
}

}  // namespace

Decision decide(const Entry& e, const Input& in) {
  const model::Pod* pod =
      in.preemptor == model::k_none ? nullptr : &in.snapshot.pods()[in.preemptor];
  if (pod != nullptr && e.scheduler != Scheduler::kueue) {
    if (!handles(e.scheduler, in.snapshot, pod->scheduler_name)) {
      return not_handled(e, *pod);
    }
    if (!pod->scheduling_gates.empty()) {
      return gated(e, *pod);
    }
  }
  Decision d = e.decide(in);
  if (pod != nullptr) {
    if (const model::SchedulerProfile* p = disabled_profile(e, in.snapshot, *pod)) {
      disable_preemption(*p, d);
    }
    // Only for kube-scheduler and the schedulers built from it, whose PostFilter writes that
    // condition when no node fits.
    if (e.scheduler == Scheduler::kube || e.scheduler == Scheduler::koordinator) {
      warn_stale_fit(*pod, d);
    }
  }
  warn_unmodelled(e, in, d);
  return d;
}

bool applies(const Entry& e, const model::Snapshot& snap, model::PodId preemptor) {
  if (preemptor != model::k_none) {
    const model::Pod& pod = snap.pods()[preemptor];
    if (!handles(e.scheduler, snap, pod.scheduler_name) ||
        disabled_profile(e, snap, pod) != nullptr) {
      return false;
    }
  }
  return e.applies(snap, preemptor);
}

}  // namespace kpreempt::policy
