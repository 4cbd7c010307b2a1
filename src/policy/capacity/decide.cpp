// SPDX-License-Identifier: Apache-2.0
// scheduler-plugins CapacityScheduling: PreFilter quota admission, PodEligibleToPreemptOthers,
// and the PostFilter preemption through kube-scheduler's evaluator with the plugin's victim
// search. Mirrors kubernetes-sigs/scheduler-plugins pkg/capacityscheduling/
// capacity_scheduling.go (PreFilter, PostFilter, preemptor.PodEligibleToPreemptOthers,
// GetOffsetAndNumCandidates), v0.35 (commit 903da7df82cb), on the kubernetes v1.35
// pkg/scheduler/framework/preemption evaluator (Preempt, DryRunPreemption,
// pickOneNodeForPreemption).
#include "policy/capacity/internal.h"
#include "policy/common/explain.h"
#include "policy/common/kube_line.h"
#include "policy/common/node_pick.h"

#include "kpreempt/diag.h"
#include "kpreempt/policy/capacity.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace kpreempt::policy {
namespace {

using capacity::PreFilter;
using capacity::QuotaState;
using common::Code;
using common::DryRun;
using common::FilterStatus;
using common::NodeState;

std::string prefilter_message(const model::Snapshot& snap, model::PodId id, const PreFilter& pre) {
  const model::Pod& p = snap.pods()[id];
  if (pre.over_max) {
    return fmt::format(
        "Pod {}/{} is rejected in PreFilter because ElasticQuota {} is more than Max", p.namespace_,
        p.name, p.namespace_);
  }
  return fmt::format(
      "Pod {}/{} is rejected in PreFilter because total ElasticQuota used is more than min",
      p.namespace_, p.name);
}

// The Filter pass. A PreFilter rejection stops the cycle before any Filter runs and every
// node carries that (plain Unschedulable) status, so preemption is tried on all of them.
std::vector<NodeState> first_pass(const Input& in, const common::Filters& f, const PreFilter& pre) {
  const model::Snapshot& snap = in.snapshot;
  std::vector<NodeState> states(snap.nodes().size());
  for (model::NodeId id = 0; id < states.size(); ++id) {
    if (pre.rejects()) {
      states[id].first = FilterStatus{Code::unschedulable, "CapacityScheduling",
                                      prefilter_message(snap, in.preemptor, pre)};
    } else if (std::optional<FilterStatus> rejected = f.prefilter_rejects(id)) {
      states[id].first = *rejected;
      states[id].excluded = true;
    } else {
      states[id].first = f.run_with_nominated(common::NodeView{id, {}, {}});
    }
  }
  return states;
}

// A terminating pod on the nominated node that makes the preemptor wait.
bool blocks(const model::Snapshot& snap, const QuotaState& quotas, const PreFilter& pre,
            std::int32_t prio, model::PodId id) {
  const model::Pod& p = snap.pods()[id];
  if (!p.terminating()) {
    return false;
  }
  const capacity::QuotaInfo* q = quotas.find(p.namespace_);
  const bool lower = snap.facts(id).priority < prio;
  if (!pre.has_quota) {
    return q == nullptr && lower;  // pods of quota namespaces are ignored
  }
  if (q == nullptr) {
    return false;
  }
  if (p.namespace_ == pre.namespace_) {
    return lower;
  }
  // Its quota is borrowing and the preemptor would reclaim across namespaces: the room this
  // pod frees is what the preemptor is waiting for.
  return !pre.above_min && quotas.over_min(*q);
}

// PodEligibleToPreemptOthers; the reason code when the pod may not preempt.
std::optional<Reason> ineligible(const Input& in, const QuotaState& quotas, const PreFilter& pre,
                                 const std::vector<NodeState>& states) {
  const model::Snapshot& snap = in.snapshot;
  if (snap.facts(in.preemptor).preempt_never) {
    return policy::Code::cannot_trigger_preemption;
  }
  const std::string& nominated = snap.pods()[in.preemptor].nominated_node_name;
  const std::optional<model::NodeId> node = snap.find_node(nominated);
  if (nominated.empty() || !node || states[*node].excluded ||
      states[*node].first.code == Code::unresolvable) {
    return std::nullopt;
  }
  const std::int32_t prio = snap.facts(in.preemptor).priority;
  for (model::PodId id : snap.pods_on(*node)) {
    if (blocks(snap, quotas, pre, prio, id)) {
      return Reason(policy::Code::terminating_victim_on_nominated_node, nominated);
    }
  }
  return std::nullopt;
}

// DryRunPreemption over every potential node: GetOffsetAndNumCandidates returns all of them.
std::vector<model::NodeId> dry_run_all(const Input& in, const common::Filters& f,
                                       const QuotaState& quotas, const PreFilter& pre,
                                       std::vector<NodeState>& states) {
  std::vector<model::NodeId> candidates;
  for (model::NodeId id : in.snapshot.nodes_by_name()) {
    if (states[id].excluded || states[id].first.code != Code::unschedulable) {
      continue;
    }
    states[id].dry = capacity::select_victims(f, quotas, pre, id, in.now);
    if (states[id].dry->result == DryRun::Result::candidate) {
      candidates.push_back(id);
    }
  }
  return candidates;
}

void pick(const Input& in, const QuotaState& quotas, const std::vector<model::NodeId>& candidates,
          std::vector<NodeState>& states, Decision& d) {
  const common::Winner w = common::choose_winner(in, candidates, states, d);
  d.reasons.push_back(policy::Code::preempt);
  if (w.tie) {
    d.reasons.push_back(*w.tie);
  }
  capacity::add_victims(in, w.node, *states[w.node].dry, quotas, d);
  d.summary = common::preempt_summary(d, w);
}

std::string unschedulable_summary(const Reason& reason, const PreFilter& pre) {
  if (reason.code == policy::Code::cannot_trigger_preemption) {
    return "cannot preempt: its preemptionPolicy is Never";
  }
  if (reason.code == policy::Code::terminating_victim_on_nominated_node) {
    return fmt::format(
        "cannot preempt yet: a pod on its nominated node {} that it would reclaim "
        "from is still terminating",
        fmt::join(reason.subject, ","));
  }
  const std::string quota = pre.over_max              ? "its ElasticQuota would exceed max"
                            : pre.aggregated_over_min ? "total quota used would exceed total min"
                                                      : "no node fits";
  return fmt::format("unschedulable: {}, and no node yields victims this preemptor may take",
                     quota);
}

}  // namespace

bool capacity_applies(const model::Snapshot& snap, model::PodId /*preemptor*/) {
  return !snap.capacity().quotas.empty();
}

Decision decide_capacity(const Input& in) {
  if (in.preemptor == model::k_none) {
    throw UsageError("policy capacity explains a pending Pod (--pod), not a Workload");
  }
  const common::Filters filters(in.snapshot, in.preemptor, common::request_rules(in, "capacity"));
  const QuotaState quotas(in.snapshot);
  const PreFilter pre = capacity::run_prefilter(quotas, in.snapshot, in.preemptor);
  Decision d;
  d.policy = "capacity";
  d.warnings = filters.warnings();
  capacity::add_input_warnings(in.snapshot, d);
  std::vector<NodeState> states = first_pass(in, filters, pre);
  if (pre.rejects()) {
    d.reasons.push_back(pre.over_max ? policy::Code::prefilter_over_max
                                     : policy::Code::prefilter_aggregated_over_min);
  }
  const bool fits = !pre.rejects() && std::any_of(states.begin(), states.end(),
                                                  [](const NodeState& s) { return s.first.ok(); });
  std::optional<Reason> blocked;
  if (fits) {
    d.outcome = Outcome::fits;
    d.reasons.push_back(policy::Code::fits);
    d.summary =
        "fits without preemption: its quota admits the request and a node passes the "
        "filters";
  } else if ((blocked = ineligible(in, quotas, pre, states))) {
    d.reasons.insert(d.reasons.begin(), *blocked);
    d.summary = unschedulable_summary(*blocked, pre);
  } else {
    const std::vector<model::NodeId> candidates = dry_run_all(in, filters, quotas, pre, states);
    if (candidates.empty()) {
      d.reasons.insert(d.reasons.begin(), policy::Code::no_candidates);
      d.summary = unschedulable_summary(policy::Code::no_candidates, pre);
    } else {
      pick(in, quotas, candidates, states, d);
      if (pre.rejects()) {
        d.summary += pre.over_max ? "; PreFilter: its ElasticQuota would exceed max"
                                  : "; PreFilter: total quota used would exceed total min";
      }
    }
  }
  common::add_node_verdicts(filters, states, d);
  capacity::add_quota_report(in, quotas, pre, d.outcome != Outcome::unschedulable, d);
  return d;
}

}  // namespace kpreempt::policy
