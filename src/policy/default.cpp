// SPDX-License-Identifier: Apache-2.0
// kube-scheduler DefaultPreemption: whether the pod fits, whether it may preempt, and which node
// and victims the PostFilter picks. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
// (PodEligibleToPreemptOthers, SelectVictimsOnNode, calculateNumCandidates) and
// pkg/scheduler/framework/preemption/preemption.go (Preempt, findCandidates, SelectCandidate),
// release v1.34. Unlike upstream, every potential node is dry-run, not a random window.
#include "kpreempt/policy/default.h"

#include "policy/common/explain.h"
#include "policy/common/filters.h"
#include "policy/common/kube_line.h"
#include "policy/common/node_pick.h"
#include "policy/common/pdb.h"
#include "policy/common/select_victims.h"

#include "kpreempt/diag.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace kpreempt::policy {
namespace {

using common::Code;
using common::DryRun;
using common::FilterStatus;
using common::NodeState;

struct WindowArgs {
  std::int64_t percentage = 10;
  std::int64_t absolute = 100;
};

// --set wins over a KubeSchedulerConfiguration in the dump; both accept the field with or
// without the plugin name in front.
std::int64_t arg_value(const Input& in, std::string_view field, std::int64_t fallback) {
  const std::string prefixed = fmt::format("DefaultPreemption.{}", field);
  const Args config(in.snapshot.scheduler_config().plugin_args);
  for (const Args* args : {&in.args, &config}) {
    for (std::string_view key : {std::string_view(prefixed), field}) {
      if (args->find(key) != nullptr) {
        return args->get_int(key, fallback);
      }
    }
  }
  return fallback;
}

// ValidateDefaultPreemptionArgs: the scheduler would refuse to start with these.
WindowArgs read_args(const Input& in) {
  WindowArgs a;
  a.percentage = arg_value(in, "minCandidateNodesPercentage", a.percentage);
  a.absolute = arg_value(in, "minCandidateNodesAbsolute", a.absolute);
  if (a.percentage < 0 || a.percentage > 100) {
    throw UsageError(fmt::format(
        "DefaultPreemption.minCandidateNodesPercentage: {} is not in the range [0, 100]",
        a.percentage));
  }
  if (a.absolute < 0) {
    throw UsageError(
        fmt::format("DefaultPreemption.minCandidateNodesAbsolute: {} is not in the range [0, inf)",
                    a.absolute));
  }
  if (a.percentage == 0 && a.absolute == 0) {
    throw UsageError(
        "DefaultPreemption: minCandidateNodesPercentage and minCandidateNodesAbsolute cannot "
        "both be zero");
  }
  return a;
}

// calculateNumCandidates: how many potential nodes upstream dry-runs at most.
std::int64_t upstream_window(const WindowArgs& a, std::int64_t potential) {
  const std::int64_t n = std::max(potential * a.percentage / 100, a.absolute);
  return std::min(n, potential);
}

// Terminating because the scheduler preempted it: DisruptionTarget=True/PreemptionByScheduler
// on the first condition of that type.
bool terminating_by_preemption(const model::Pod& p) {
  if (!p.terminating()) {
    return false;
  }
  for (const model::PodCondition& c : p.conditions) {
    if (c.type == "DisruptionTarget") {
      return c.status == "True" && c.reason == "PreemptionByScheduler";
    }
  }
  return false;
}

// PodEligibleToPreemptOthers; returns the reason code when the pod may not preempt.
std::optional<Reason> ineligible(const Input& in, const Variant& variant,
                                 const std::vector<NodeState>& states) {
  const model::Snapshot& snap = in.snapshot;
  if (snap.facts(in.preemptor).preempt_never) {
    return policy::Code::preemption_policy_never;
  }
  const std::string& nominated = snap.pods()[in.preemptor].nominated_node_name;
  const std::optional<model::NodeId> node = snap.find_node(nominated);
  // A nominated node that is gone, or that no preemption can fix, is preempted for again.
  if (nominated.empty() || !node || states[*node].first.code == Code::unresolvable) {
    return std::nullopt;
  }
  const std::int32_t prio = snap.facts(in.preemptor).priority;
  for (model::PodId id : snap.pods_on(*node)) {
    const model::Pod& p = snap.pods()[id];
    const bool blocks =
        variant.any_terminating_blocks ? p.terminating() : terminating_by_preemption(p);
    if (snap.facts(id).priority < prio && blocks) {
      return Reason(policy::Code::waiting_for_victims, nominated);
    }
  }
  return std::nullopt;
}

std::vector<NodeState> filter_all(const common::Filters& f) {
  const model::Snapshot& snap = f.snapshot();
  std::vector<NodeState> states(snap.nodes().size());
  for (model::NodeId id = 0; id < states.size(); ++id) {
    if (std::optional<FilterStatus> rejected = f.prefilter_rejects(id)) {
      states[id].first = *rejected;
      states[id].excluded = true;
    } else {
      states[id].first = f.run_with_nominated(common::NodeView{id, {}, {}});
    }
  }
  return states;
}

// findCandidates over every potential node (status exactly Unschedulable).
std::vector<model::NodeId> dry_run_all(const Input& in, const Variant& variant,
                                       const common::Filters& f, std::vector<NodeState>& states,
                                       std::int64_t& potential) {
  std::vector<model::NodeId> candidates;
  potential = 0;
  for (model::NodeId id : in.snapshot.nodes_by_name()) {
    if (states[id].excluded || states[id].first.code != Code::unschedulable) {
      continue;
    }
    ++potential;
    states[id].dry = common::select_victims_on_node(f, variant, id, in.now, in.pod_verdicts);
    if (states[id].dry->result == DryRun::Result::candidate) {
      candidates.push_back(id);
    }
  }
  return candidates;
}

void finish_preempt(const Input& in, const std::vector<model::NodeId>& candidates,
                    std::vector<NodeState>& states, Decision& d) {
  const common::Winner w = common::choose_winner(in, candidates, states, d);
  d.reasons.insert(d.reasons.begin(), policy::Code::preempt);
  if (w.tie) {
    d.reasons.insert(d.reasons.begin() + 1, *w.tie);
  }
  common::add_victims(in, w.node, *states[w.node].dry, d);
  d.summary = common::preempt_summary(d, w);
}

}  // namespace

Decision run_default_preemption(const Input& in, const Variant& variant) {
  if (in.preemptor == model::k_none) {
    throw UsageError(fmt::format("policy {} explains a pending Pod (--pod), not a Workload",
                                 variant.policy_name));
  }
  const WindowArgs args = read_args(in);
  const common::Filters filters(in.snapshot, in.preemptor,
                                common::request_rules(in, variant.policy_name));
  Decision d;
  d.policy = std::string(variant.policy_name);
  d.warnings = filters.warnings();
  if (std::string note = common::resized_note(in.snapshot, filters.resized()); !note.empty()) {
    d.warnings.push_back(std::move(note));
  }
  std::vector<NodeState> states = filter_all(filters);

  const bool fits =
      std::any_of(states.begin(), states.end(), [](const NodeState& s) { return s.first.ok(); });
  std::optional<Reason> blocked;
  if (fits) {
    d.outcome = Outcome::fits;
    d.reasons.push_back(policy::Code::fits);
  } else if ((blocked = ineligible(in, variant, states))) {
    d.reasons.push_back(*blocked);
  } else {
    std::int64_t potential = 0;
    const std::vector<model::NodeId> candidates =
        dry_run_all(in, variant, filters, states, potential);
    if (potential > upstream_window(args, potential)) {
      d.reasons.push_back(policy::Code::upstream_window);
    }
    if (candidates.empty()) {
      d.reasons.insert(d.reasons.begin(), policy::Code::no_candidates);
    } else {
      finish_preempt(in, candidates, states, d);
    }
  }
  common::add_node_verdicts(filters, states, d);
  if (d.summary.empty()) {
    d.summary = common::other_summary(in.snapshot, states, d);
  }
  return d;
}

Decision decide_default(const Input& in) {
  return run_default_preemption(in, Variant{});
}

}  // namespace kpreempt::policy
