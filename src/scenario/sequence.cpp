// SPDX-License-Identifier: Apache-2.0
// Each decision is applied to the snapshot before the next preemptor is decided: the pod
// bound to its node, victims deleted (their budgets' allowance used), a Workload admitted with
// the flavors it was assigned and its victims evicted. The state is the one the cluster
// settles in once the evictions are done, which is what the next placement depends on.
#include "kpreempt/scenario/sequence.h"

#include "kpreempt/model/kueue.h"
#include "kpreempt/model/quantity.h"
#include "kpreempt/model/snapshot_edit.h"
#include "kpreempt/policy/lines.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <utility>

namespace kpreempt::scenario {
namespace {

using Json = nlohmann::ordered_json;

struct QueueKey {
  std::int32_t priority = 0;
  std::optional<model::Instant> queued;
};

QueueKey queue_key(const model::Snapshot& snap, const render::Explanation& e) {
  if (e.preemptor != model::k_none) {
    return {snap.facts(e.preemptor).priority, snap.pods()[e.preemptor].creation_timestamp};
  }
  const model::Workload& w = snap.kueue().workloads[e.workload];
  if (!w.creation_timestamp) {
    return {w.priority, std::nullopt};
  }
  return {w.priority, model::queue_order_time(w)};
}

// NodeResourcesFit's default score, LeastAllocated over cpu and memory with equal weights:
// the share of each left free once the pod is added, in 0..100.
std::int64_t least_allocated(const model::NodeFacts& n, const model::Resources& pod) {
  auto share = [](std::int64_t capacity, std::int64_t used) -> std::int64_t {
    if (capacity <= 0 || used > capacity) {
      return 0;
    }
    return (capacity - used) * 100 / capacity;
  };
  return (share(n.allocatable.cpu_milli, n.requested.cpu_milli + pod.cpu_milli) +
          share(n.allocatable.memory, n.requested.memory + pod.memory)) /
         2;
}

// Where a pod the policy says fits is bound: the node it named, else the best-scored node
// among those that pass the filters (ties to the first by name). `by_score`: the score chose.
std::optional<model::NodeId> fit_node(const model::Snapshot& snap, model::PodId pod,
                                      const policy::Decision& d, bool& by_score) {
  by_score = false;
  if (!d.node.empty()) {
    return snap.find_node(d.node);
  }
  std::optional<model::NodeId> best;
  std::int64_t best_score = -1;
  std::size_t feasible = 0;
  for (const policy::NodeVerdict& v : d.nodes) {
    if (v.code.code != policy::Code::passes_filters) {
      continue;
    }
    const std::optional<model::NodeId> id = snap.find_node(v.node);
    if (!id) {
      continue;
    }
    ++feasible;
    const std::int64_t score = least_allocated(snap.node_facts(*id), snap.facts(pod).requests);
    if (score > best_score) {
      best = id;
      best_score = score;
    }
  }
  // With one feasible node (a DaemonSet pod's) no score had to choose.
  by_score = feasible > 1;
  return best;
}

void remove_victims(model::Snapshot& snap, model::SnapshotEdit& edit, const policy::Decision& d,
                    model::Instant now) {
  for (const policy::Victim& v : d.victims) {
    if (v.ref.kind == "Workload") {
      if (auto w = model::find_workload(snap.kueue(), v.ref.namespace_, v.ref.name)) {
        edit.evict(*w, now);
      }
      continue;
    }
    if (auto pod = snap.find_pod(v.ref.namespace_, v.ref.name)) {
      for (std::uint32_t b : snap.pdbs_of(*pod)) {
        edit.use_disruption(b);
      }
      edit.remove(*pod);
    }
  }
}

// The assignment a Kueue decision made (details.podSets), as status.admission records it.
std::vector<model::KueuePodSetAssignment> assignments_of(const Json& details,
                                                         const model::Workload* w) {
  std::vector<model::KueuePodSetAssignment> out;
  if (!details.is_object() || !details.contains("podSets")) {
    return out;
  }
  for (const Json& ps : details["podSets"]) {
    model::KueuePodSetAssignment a;
    a.name = ps.value("name", "");
    for (const Json& f : ps["flavors"]) {
      const std::string resource = f.value("resource", "");
      a.flavors.emplace_back(resource, f.value("flavor", ""));
      if (auto q = model::parse_quantity(f.value("request", "0")).value) {
        a.resource_usage.emplace_back(resource, *q);
      }
    }
    if (w != nullptr) {
      for (const model::KueuePodSet& set : w->pod_sets) {
        if (set.name == a.name) {
          a.count = set.count;
        }
      }
    }
    out.push_back(std::move(a));
  }
  if (details.contains("partialAdmission")) {
    for (const Json& p : details["partialAdmission"]) {
      for (auto& a : out) {
        if (a.name == p.value("podSet", "")) {
          a.count = p.value("count", 0);
        }
      }
    }
  }
  return out;
}

// The Workload Kueue's pod integration makes for a single pod: one pod set of one pod.
model::Workload pod_workload(const model::Snapshot& snap, model::PodId id, const Json& details,
                             model::Instant now) {
  const model::Pod& pod = snap.pods()[id];
  model::Workload w;
  w.namespace_ = pod.namespace_;
  w.name = "pod-" + pod.name;
  w.priority = snap.facts(id).priority;
  w.creation_timestamp = pod.creation_timestamp.value_or(now);
  w.derived_from = model::ObjectRef{"Pod", pod.namespace_, pod.name};
  for (const Json& ps : details["podSets"]) {
    model::KueuePodSet set;
    set.name = ps.value("name", "main");
    w.pod_sets.push_back(std::move(set));
  }
  return w;
}

// Kueue decides quota, not nodes: its preemptor holds quota from now on.
void admit(model::Snapshot& snap, model::SnapshotEdit& edit, const render::Explanation& e,
           const policy::Decision& d, model::Instant now) {
  const std::string cq = d.details.is_object() ? d.details.value("clusterQueue", "") : "";
  if (cq.empty() || !d.details.contains("podSets")) {
    return;
  }
  const std::uint32_t w = e.workload != model::k_none
                              ? e.workload
                              : edit.add(pod_workload(snap, e.preemptor, d.details, now));
  edit.admit(w, cq, assignments_of(d.details, &snap.kueue().workloads[w]), now);
}

// The other members of the preemptor's gang a job-level decision placed with it (Koordinator's
// details.job.placements), each with its node: they are bound with the preemptor.
std::vector<std::pair<model::PodId, model::NodeId>> gang_placements(const model::Snapshot& snap,
                                                                    const render::Explanation& e,
                                                                    const policy::Decision& d) {
  std::vector<std::pair<model::PodId, model::NodeId>> out;
  if (e.preemptor == model::k_none || !d.details.is_object() || !d.details.contains("job") ||
      !d.details["job"].value("ok", false)) {
    return out;
  }
  const std::string& ns = snap.pods()[e.preemptor].namespace_;
  for (const Json& p : d.details["job"]["placements"]) {
    const auto pod = snap.find_pod(ns, p.value("pod", ""));
    const auto node = snap.find_node(p.value("node", ""));
    if (pod && node && *pod != e.preemptor && snap.pods()[*pod].pending()) {
      out.emplace_back(*pod, *node);
    }
  }
  return out;
}

// Applies one decision; returns where the preemptor went.
// `quota_only`: the policy admits to quota and places nothing on nodes (Kueue).
// `members`: the gang members placed with the preemptor (gang_placements), bound too.
render::SequenceStep apply(model::Snapshot& snap, model::SnapshotEdit& edit,
                           const render::Explanation& e, const policy::Decision& d,
                           model::Instant now, bool quota_only,
                           const std::vector<std::pair<model::PodId, model::NodeId>>& members) {
  render::SequenceStep step;
  step.outcome = d.outcome;
  if (d.outcome == policy::Outcome::unschedulable) {
    return step;
  }
  remove_victims(snap, edit, d, now);
  if (e.preemptor == model::k_none || quota_only) {
    admit(snap, edit, e, d, now);
    return step;
  }
  std::optional<model::NodeId> node;
  if (d.outcome == policy::Outcome::fits) {
    node = fit_node(snap, e.preemptor, d, step.node_by_score);
  } else if (!d.node.empty()) {
    node = snap.find_node(d.node);
    // The scheduler takes the nomination from lower-priority pods nominated there.
    const std::int32_t priority = snap.facts(e.preemptor).priority;
    const auto nominated = snap.nominated_to(*node);
    for (model::PodId other : std::vector<model::PodId>(nominated.begin(), nominated.end())) {
      if (other != e.preemptor && snap.facts(other).priority < priority) {
        edit.clear_nomination(other);
      }
    }
  }
  if (node) {
    step.node = snap.nodes()[*node].name;
    edit.bind(e.preemptor, *node, now);
  }
  for (const auto& [member, at] : members) {
    edit.bind(member, at, now);
  }
  return step;
}

void add_victims(const policy::Decision& d, render::SequenceSummary& s) {
  for (const policy::Victim& v : d.victims) {
    auto it = std::find_if(s.victims_by_node.begin(), s.victims_by_node.end(),
                           [&](const auto& entry) { return entry.first == v.node; });
    if (it == s.victims_by_node.end()) {
      s.victims_by_node.emplace_back(v.node, std::vector<model::ObjectRef>{});
      it = s.victims_by_node.end() - 1;
    }
    it->second.push_back(v.ref);
  }
}

// The gang a preemptor belongs to under a policy that admits it all or nothing: a Kueue pod
// group, whose pods share one Workload and one decision. Empty when it is on its own.
// (Koordinator's gangs are known from the decision: gang_placements.)
std::string gang_of(const model::Snapshot& snap, const render::Explanation& e, bool kueue) {
  if (!kueue || e.preemptor == model::k_none) {
    return {};
  }
  const model::Pod& pod = snap.pods()[e.preemptor];
  const std::string* group = model::find(pod.labels, model::k_kueue_pod_group_label);
  return group == nullptr ? std::string() : pod.namespace_ + "/" + *group;
}

}  // namespace

void sort_queue_order(const model::Snapshot& snap, std::vector<render::Explanation>& items) {
  std::stable_sort(items.begin(), items.end(), [&](const auto& a, const auto& b) {
    const QueueKey ka = queue_key(snap, a);
    const QueueKey kb = queue_key(snap, b);
    if (ka.priority != kb.priority) {
      return ka.priority > kb.priority;
    }
    // A preemptor without a queue time joins the queue now, after every one that has one.
    if (ka.queued.has_value() != kb.queued.has_value()) {
      return ka.queued.has_value();
    }
    return ka.queued && *ka.queued < *kb.queued;
  });
}

bool decide_step(model::Snapshot& snap, model::SnapshotEdit& edit, const SequenceRun& run,
                 std::vector<render::Explanation>& items, std::size_t i, SequenceState& state,
                 render::SequenceSummary& summary) {
  const bool kueue = run.entry.scheduler == policy::Scheduler::kueue;
  render::Explanation& e = items[i];
  if (const auto it = state.shared.find(e.preemptor); it != state.shared.end()) {
    // Decided with the first of its gang, as one: nothing more to apply.
    const auto [decided_at, node] = it->second;
    render::SequenceStep step = summary.steps[decided_at];
    e.decisions.push_back(items[step.item].decisions.back());
    step.item = i;
    if (node != model::k_none) {
      step.node = snap.nodes()[node].name;
      step.node_by_score = false;
    }
    summary.steps.push_back(step);
    return false;
  }
  policy::Decision d = policy::run(
      run.entry, policy::Input{snap, e.preemptor, run.now, run.args, e.workload, run.pod_verdicts},
      run.line);
  const auto members = gang_placements(snap, e, d);
  render::SequenceStep step = apply(snap, edit, e, d, run.now, kueue, members);
  step.item = i;
  for (const auto& [member, node] : members) {
    state.shared.emplace(member, std::make_pair(summary.steps.size(), node));
  }
  // A Kueue pod group's later pods share the Workload's one decision.
  if (const std::string gang = gang_of(snap, e, kueue); !gang.empty()) {
    for (std::size_t j = i + 1; j < items.size(); ++j) {
      if (items[j].preemptor != model::k_none && gang_of(snap, items[j], kueue) == gang) {
        state.shared.emplace(items[j].preemptor,
                             std::make_pair(summary.steps.size(), model::k_none));
      }
    }
  }
  summary.steps.push_back(std::move(step));
  add_victims(d, summary);
  if (!run.pod_verdicts) {
    d.nodes = {};
  }
  e.decisions.push_back(std::move(d));
  return true;
}

render::SequenceSummary decide_in_sequence(model::Snapshot& snap, const SequenceRun& run,
                                           std::vector<render::Explanation>& items,
                                           const std::vector<bool>& takes) {
  render::SequenceSummary summary;
  summary.policy = std::string(run.entry.name);
  model::SnapshotEdit edit(snap);
  SequenceState state;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (takes[i]) {
      decide_step(snap, edit, run, items, i, state, summary);
    }
  }
  return summary;
}

std::vector<render::Explanation> pending_preemptors(const model::Snapshot& snap,
                                                    model::Instant now) {
  std::vector<render::Explanation> out;
  const auto& pods = snap.pods();
  for (model::PodId id = 0; id < pods.size(); ++id) {
    if (pods[id].pending() && !pods[id].terminating()) {
      out.push_back({id, model::k_none, now, {}});
    }
  }
  const auto& workloads = snap.kueue().workloads;
  for (std::uint32_t id = 0; id < workloads.size(); ++id) {
    if (!workloads[id].admitted && workloads[id].active) {
      out.push_back({model::k_none, id, now, {}});
    }
  }
  return out;
}

std::vector<std::string> sequence_assumptions() {
  return {
      "each preemptor is decided once the decisions before it have taken effect: placed pods "
      "bound, victims deleted (their disruption budgets' allowance used), Workloads admitted "
      "or evicted; the scheduling cycles in between, while victims terminate, are not replayed",
      "a pod that fits without preemption is bound to the feasible node with the best "
      "NodeResourcesFit LeastAllocated score (cpu and memory), ties to the first by name: the "
      "other score plugins are not modelled, and upstream breaks ties at random",
      "evicted pods are not recreated by their controllers and evicted Workloads are not "
      "queued again"};
}

}  // namespace kpreempt::scenario
