// SPDX-License-Identifier: Apache-2.0
// `explain --victim` for an eviction already under way: the pending pod nominated to the
// victim's node with a higher priority (kube-scheduler's own rule) and what each policy decides
// for it, or the Workload a Kueue preemption message names by UID; when nothing in the dump
// explains it, what was checked and who probably preempted it.
#include "cli/victim.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

namespace kpreempt::cli {

const model::PodCondition* preemption_condition(const model::Pod& pod) {
  for (const model::PodCondition& c : pod.conditions) {
    if (c.type == "DisruptionTarget") {
      return c.status == "True" && c.reason == "PreemptionByScheduler" ? &c : nullptr;
    }
  }
  return nullptr;
}

bool eviction_under_way(const model::Pod& pod) {
  return pod.terminating() || preemption_condition(pod) != nullptr;
}

bool eviction_under_way(const model::Workload& w) {
  return model::condition_true(w, "Evicted") || model::condition_true(w, "Preempted");
}

namespace {

using render::Explainer;
using render::Stance;
using State = render::Explainer::State;

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// Where each decision of `e` stands towards the victim. A decision waits for it when it waits
// for a terminating pod on `node`, the victim's (empty for a Workload victim).
std::vector<render::PolicyStance> stances_of(const render::Explanation& e,
                                             const model::ObjectRef& victim,
                                             const std::string& node) {
  std::vector<render::PolicyStance> out;
  for (const policy::Decision& d : e.decisions) {
    render::PolicyStance s{d.policy, Stance::neither, std::nullopt, d.outcome};
    for (const policy::Victim& v : d.victims) {
      if (v.ref == victim) {
        s.stance = Stance::lists;
        s.reason = v.reason;
        break;
      }
    }
    for (const policy::Reason& why : d.reasons) {
      const bool waits = why.code == policy::Code::waiting_for_victims ||
                         why.code == policy::Code::terminating_victim_on_nominated_node;
      if (s.stance == Stance::neither && waits && !node.empty() &&
          (why.subject.empty() || why.subject.front() == node)) {
        s.stance = Stance::waits;
        s.reason = why;
      }
    }
    if (s.stance == Stance::neither && !d.reasons.empty()) {
      s.reason = d.reasons.front();
    }
    out.push_back(std::move(s));
  }
  return out;
}

// The pending explainers' decisions, kept whole but for the per-node verdicts.
void explain_pending(const ExplainOptions& o, const model::Snapshot& snap, model::Instant now,
                     std::vector<Explainer>& explainers) {
  std::vector<Subject> subjects;
  for (const Explainer& x : explainers) {
    if (x.state == State::pending) {
      subjects.push_back({x.pod, x.workload});
    }
  }
  if (subjects.empty()) {
    return;
  }
  Batch b = explain_subjects(o, snap, subjects, now, true, nullptr);
  for (render::Explanation& e : b.explanations) {
    for (Explainer& x : explainers) {
      if (x.pod == e.preemptor && x.workload == e.workload) {
        x.explanation = std::move(e);
        break;
      }
    }
  }
}

// The Workload Kueue made for the pod (its controller owner's, or the pod's own in a pod
// group) when Kueue evicted it: the pod then goes because its Workload did.
const model::Workload* evicted_workload_of(const model::Snapshot& snap, const model::Pod& pod) {
  std::vector<model::ObjectRef> owners{{"Pod", pod.namespace_, pod.name}};
  if (const model::OwnerReference* o = model::controller_of(pod)) {
    owners.push_back({o->kind, pod.namespace_, o->name});
  }
  for (const model::Workload& w : snap.kueue().workloads) {
    if (w.owner && eviction_under_way(w) &&
        std::find(owners.begin(), owners.end(), *w.owner) != owners.end()) {
      return &w;
    }
  }
  return nullptr;
}

// Pods bound to the victim's node since the eviction began, of higher priority: the preemptor
// once it was bound, as far as the dump can tell.
void likely_bound(const model::Snapshot& snap, model::PodId victim, model::Instant since,
                  render::EvictionUnderWay& u) {
  const model::Pod& v = snap.pods()[victim];
  const std::int32_t priority = snap.facts(victim).priority;
  u.likely_search = fmt::format(
      "the preemptor may already be bound: pods on {} of priority above {} created or started at "
      "or after {}",
      v.node_name, priority, model::to_string(since));
  const auto& pods = snap.pods();
  for (model::PodId id = 0; id < pods.size(); ++id) {
    const model::Pod& p = pods[id];
    if (id == victim || p.node_name != v.node_name || p.terminal() || p.terminating() ||
        snap.facts(id).priority <= priority) {
      continue;
    }
    const bool after = (p.start_time && *p.start_time >= since) ||
                       (p.creation_timestamp && *p.creation_timestamp >= since);
    if (after) {
      u.likely.push_back(Explainer{id, model::k_none, State::bound, true, {}, std::nullopt});
    }
  }
  std::stable_sort(u.likely.begin(), u.likely.end(), [&](const Explainer& a, const Explainer& b) {
    return pods[a.pod].start_time.value_or(model::Instant{}) <
           pods[b.pod].start_time.value_or(model::Instant{});
  });
}

void pod_under_way(const ExplainOptions& o, const model::Snapshot& snap, const Batch& batch,
                   render::VictimReport& r) {
  const model::Pod& victim = snap.pods()[r.victim];
  if (!eviction_under_way(victim)) {
    return;
  }
  render::EvictionUnderWay u;
  u.deletion_timestamp = victim.deletion_timestamp;
  const model::PodCondition* disruption = nullptr;
  for (const model::PodCondition& c : victim.conditions) {
    if (c.type == "DisruptionTarget" && c.status == "True") {
      disruption = &c;
      u.conditions.push_back({c.type, c.status, c.reason, {}, c.last_transition_time});
    }
  }
  std::unordered_map<model::PodId, const render::Explanation*> explained;
  for (const render::Explanation& e : batch.explanations) {
    if (e.preemptor != model::k_none) {
      explained.emplace(e.preemptor, &e);
    }
  }
  const model::ObjectRef ref{"Pod", victim.namespace_, victim.name};
  const std::int32_t priority = snap.facts(r.victim).priority;
  std::size_t not_higher = 0, unnominated = 0, elsewhere = 0;
  const auto& pods = snap.pods();
  for (model::PodId id = 0; id < pods.size(); ++id) {
    const model::Pod& p = pods[id];
    if (!p.pending() || p.terminating()) {
      continue;
    }
    const bool higher = snap.facts(id).priority > priority;
    const bool here = p.nominated_node_name == victim.node_name;
    std::vector<render::PolicyStance> stances;
    if (auto it = explained.find(id); it != explained.end()) {
      stances = stances_of(*it->second, ref, victim.node_name);
    }
    const bool decided = std::any_of(stances.begin(), stances.end(),
                                     [](const auto& s) { return s.stance != Stance::neither; });
    if (here && (higher || decided)) {
      u.explained_by.push_back(
          Explainer{id, model::k_none, State::pending, false, std::move(stances), std::nullopt});
    } else if (here) {
      ++not_higher;
    } else if (higher) {
      ++(p.nominated_node_name.empty() ? unnominated : elsewhere);
    }
  }
  explain_pending(o, snap, r.now, u.explained_by);
  if (u.explained_by.empty()) {
    u.checked.push_back(
        not_higher == 0
            ? fmt::format("no pending pod is nominated to node {}", victim.node_name)
            : fmt::format("{} nominated to node {} {} priority not above {}",
                          plural(not_higher, "pending pod", "pending pods"), victim.node_name,
                          not_higher == 1 ? "has" : "have", priority));
    if (unnominated > 0) {
      u.checked.push_back(fmt::format("{} of higher priority {} no nominated node",
                                      plural(unnominated, "pending pod", "pending pods"),
                                      unnominated == 1 ? "has" : "have"));
    }
    if (elsewhere > 0) {
      u.checked.push_back(fmt::format("{} of higher priority {} nominated to another node",
                                      plural(elsewhere, "pending pod", "pending pods"),
                                      elsewhere == 1 ? "is" : "are"));
    }
    if (preemption_condition(victim) == nullptr) {
      u.checked.emplace_back(
          "no scheduler marked it DisruptionTarget/PreemptionByScheduler: it may be deleted for "
          "another reason");
    }
    if (const model::Workload* w = evicted_workload_of(snap, victim)) {
      u.checked.push_back(
          fmt::format("its Workload {}/{} was evicted by Kueue: --victim {}/{} explains that",
                      w->namespace_, w->name, w->namespace_, w->name));
    }
    const std::optional<model::Instant> since =
        disruption != nullptr && disruption->last_transition_time ? disruption->last_transition_time
                                                                  : victim.deletion_timestamp;
    if (since) {
      likely_bound(snap, r.victim, *since, u);
    }
  }
  r.under_way = std::move(u);
}

// The value after `key` in a Kueue preemption message, up to the next ',' or ')':
// "Preempted to accommodate a workload (UID: 6c1e..., JobUID: 0b7a...) due to ...". Kueue
// writes UNKNOWN for a UID it lacks; that is returned empty.
std::string message_field(std::string_view message, std::string_view key) {
  const auto at = message.find(key);
  if (at == std::string_view::npos) {
    return {};
  }
  std::string_view rest = message.substr(at + key.size());
  rest = rest.substr(0, rest.find_first_of(",)"));
  while (!rest.empty() && rest.back() == ' ') {
    rest.remove_suffix(1);
  }
  return rest == "UNKNOWN" ? std::string() : std::string(rest);
}

// The ClusterQueue a Workload is admitted to, or the one its LocalQueue points at.
std::string cluster_queue_of(const model::Snapshot& snap, const model::Workload& w) {
  if (!w.admission_cluster_queue.empty()) {
    return w.admission_cluster_queue;
  }
  const model::LocalQueue* lq = model::find_local_queue(snap.kueue(), w.namespace_, w.queue_name);
  return lq != nullptr ? lq->cluster_queue : std::string();
}

// Workloads that reserved quota since the eviction began, where the victim's quota is: of
// higher priority in its ClusterQueue, or of any priority elsewhere in its cohort.
void likely_admitted(const model::Snapshot& snap, std::uint32_t victim, model::Instant since,
                     render::EvictionUnderWay& u) {
  const auto& workloads = snap.kueue().workloads;
  const model::Workload& v = workloads[victim];
  const std::string cq = cluster_queue_of(snap, v);
  if (cq.empty()) {
    return;
  }
  const model::ClusterQueue* queue = model::find_cluster_queue(snap.kueue(), cq);
  const std::string cohort = queue != nullptr ? queue->cohort : std::string();
  u.likely_search = fmt::format(
      "the preemptor may already be admitted: Workloads that reserved quota at or after {} in "
      "ClusterQueue {} with priority above {}{}",
      model::to_string(since), cq, v.priority,
      cohort.empty() ? "" : fmt::format(", or elsewhere in cohort {}", cohort));
  for (std::uint32_t id = 0; id < workloads.size(); ++id) {
    const model::Workload& w = workloads[id];
    const model::KueueCondition* reserved = model::find_condition(w, "QuotaReserved");
    if (id == victim || !w.admitted || model::condition_true(w, "Finished") ||
        reserved == nullptr || reserved->status != "True" || !reserved->last_transition_time ||
        *reserved->last_transition_time < since) {
      continue;
    }
    const model::ClusterQueue* at =
        model::find_cluster_queue(snap.kueue(), w.admission_cluster_queue);
    const bool same_cq = w.admission_cluster_queue == cq && w.priority > v.priority;
    const bool same_cohort =
        !cohort.empty() && at != nullptr && at->cohort == cohort && w.admission_cluster_queue != cq;
    if (same_cq || same_cohort) {
      u.likely.push_back(Explainer{model::k_none, id, State::admitted, true, {}, std::nullopt});
    }
  }
}

void workload_under_way(const ExplainOptions& o, const model::Snapshot& snap,
                        render::VictimReport& r) {
  const auto& workloads = snap.kueue().workloads;
  const model::Workload& victim = workloads[r.victim_workload];
  if (!eviction_under_way(victim)) {
    return;
  }
  render::EvictionUnderWay u;
  const model::KueueCondition* evicted = model::find_condition(victim, "Evicted");
  const model::KueueCondition* preempted = model::find_condition(victim, "Preempted");
  evicted = evicted != nullptr && evicted->status == "True" ? evicted : nullptr;
  preempted = preempted != nullptr && preempted->status == "True" ? preempted : nullptr;
  for (const model::KueueCondition* c : {evicted, preempted}) {
    if (c != nullptr) {
      u.conditions.push_back({c->type, c->status, c->reason, c->message, c->last_transition_time});
    }
  }
  const model::KueueCondition* said = preempted != nullptr ? preempted : evicted;
  if (preempted == nullptr && evicted->reason != "Preempted") {
    u.checked.push_back(fmt::format("evicted for {}, not preempted: no workload preempted it",
                                    evicted->reason.empty() ? "no reason given" : evicted->reason));
    r.under_way = std::move(u);
    return;
  }
  std::string message = said->message;
  if (message.find("(UID: ") == std::string::npos && evicted != nullptr) {
    message = evicted->message;
  }
  u.preemptor_uid = message_field(message, "(UID: ");
  u.preemptor_job_uid = message_field(message, "JobUID: ");
  const model::ObjectRef ref{"Workload", victim.namespace_, victim.name};
  if (u.preemptor_uid.empty()) {
    u.checked.push_back("the preemption message names no preemptor UID");
  } else {
    auto it = std::find_if(workloads.begin(), workloads.end(), [&](const model::Workload& w) {
      return w.uid == u.preemptor_uid && !w.what_if;
    });
    if (it == workloads.end()) {
      u.checked.push_back(fmt::format(
          "no Workload of the input has UID {}: the preemptor may have finished and been deleted",
          u.preemptor_uid));
    } else {
      const auto id = static_cast<std::uint32_t>(it - workloads.begin());
      const State state = model::condition_true(*it, "Finished") ? State::finished
                          : it->admitted                         ? State::admitted
                                                                 : State::pending;
      u.explained_by.push_back(Explainer{model::k_none, id, state, false, {}, std::nullopt});
      explain_pending(o, snap, r.now, u.explained_by);
      Explainer& x = u.explained_by.back();
      if (x.explanation) {
        x.stances = stances_of(*x.explanation, ref, "");
      }
    }
  }
  const std::optional<model::Instant> since =
      preempted != nullptr && preempted->last_transition_time ? preempted->last_transition_time
      : evicted != nullptr                                    ? evicted->last_transition_time
                                                              : std::nullopt;
  if (u.explained_by.empty() && since) {
    likely_admitted(snap, r.victim_workload, *since, u);
  }
  r.under_way = std::move(u);
}

}  // namespace

void add_under_way(const ExplainOptions& o, const model::Snapshot& snap, const Batch& batch,
                   render::VictimReport& r) {
  if (r.victim != model::k_none) {
    pod_under_way(o, snap, batch, r);
  } else {
    workload_under_way(o, snap, r);
  }
}

}  // namespace kpreempt::cli
