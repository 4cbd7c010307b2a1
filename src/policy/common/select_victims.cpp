// SPDX-License-Identifier: Apache-2.0
// The preemption dry run on one node. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go SelectVictimsOnNode,
// release v1.34 (victims re-sorted after the reprieve since v1.32, PR #128307).
#include "policy/common/select_victims.h"

#include "policy/common/node_pick.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::common {
namespace {

model::ObjectRef ref_of(const model::Pod& p) {
  return {"Pod", p.namespace_, p.name};
}

PodVerdict verdict(const model::Snapshot& snap, model::PodId id, Reason code, std::string detail) {
  const model::Pod& p = snap.pods()[id];
  return PodVerdict{ref_of(p), snap.facts(id).priority, false, std::move(code), std::move(detail)};
}

// What add_victims reports for a victim: a counted PDB violation, then whether upstream skips
// the delete call.
Reason victim_reason(const model::Pod& pod, const PdbMatch& m, bool violating) {
  if (violating) {
    return Reason(policy::Code::pdb_violation, m.pdb());
  }
  return pod.terminating() ? policy::Code::already_terminating : policy::Code::victim;
}

// The code a victim's pod verdict carries: its reason, or which budget it consumed.
Reason victim_code(const model::Pod& pod, const PdbMatch& m, bool violating) {
  Reason reason = victim_reason(pod, m, violating);
  if (reason.code != policy::Code::victim) {
    return reason;
  }
  switch (m.kind) {
    case PdbMatch::Kind::within_budget:
      return Reason(policy::Code::pdb_within_budget, m.pdb());
    case PdbMatch::Kind::disrupted:
      return Reason(policy::Code::pdb_disrupted_pod, m.pdb());
    default:
      return reason;
  }
}

struct Potential {
  std::vector<model::PodId> pods;
  std::vector<std::size_t> verdict_index;  // where each pod's verdict sits in DryRun::pods
};

// Step 1: classify every pod on the node; false when the variant fails the node. Without pod
// verdicts only the potential victims and a node error are recorded.
bool collect(const Filters& f, const Variant& variant, model::NodeId node, bool pod_verdicts,
             DryRun& out, Potential& pot) {
  const model::Snapshot& snap = f.snapshot();
  for (model::PodId id : snap.pods_on(node)) {
    const std::int32_t prio = snap.facts(id).priority;
    if (prio >= f.priority()) {
      if (pod_verdicts) {
        out.pods.push_back(verdict(
            snap, id, policy::Code::higher_or_equal_priority,
            fmt::format("priority {} is not below the preemptor's {}", prio, f.priority())));
      }
      continue;
    }
    VictimCheck check;
    if (variant.victim_check) {
      check = variant.victim_check(snap.pods()[id], id);
    }
    if (check.kind == VictimCheck::Kind::node_error && out.result != DryRun::Result::error) {
      out.result = DryRun::Result::error;
      out.code = check.code;
      out.detail = check.detail;
    }
    if (check.kind == VictimCheck::Kind::node_error || check.kind == VictimCheck::Kind::exempt) {
      if (pod_verdicts) {
        out.pods.push_back(verdict(snap, id, std::move(check.code), std::move(check.detail)));
      }
      continue;
    }
    pot.pods.push_back(id);
    if (pod_verdicts) {
      pot.verdict_index.push_back(out.pods.size());
      out.pods.push_back(verdict(snap, id, policy::Code::lower_priority, ""));
    }
  }
  return out.result != DryRun::Result::error;
}

}  // namespace

PodVerdict plain_verdict(const model::Snapshot& snap, model::PodId pod, std::int32_t priority,
                         std::string_view why_not_examined) {
  const std::int32_t prio = snap.facts(pod).priority;
  if (prio >= priority) {
    return verdict(snap, pod, policy::Code::higher_or_equal_priority,
                   fmt::format("priority {} is not below the preemptor's {}", prio, priority));
  }
  return verdict(
      snap, pod, policy::Code::lower_priority,
      fmt::format("priority {} is below the preemptor's {}; {}", prio, priority, why_not_examined));
}

DryRun select_victims_on_node(const Filters& f, const Variant& variant, model::NodeId node,
                              model::Instant now, bool pod_verdicts) {
  const model::Snapshot& snap = f.snapshot();
  DryRun out;
  Potential pot;
  if (!collect(f, variant, node, pod_verdicts, out, pot)) {
    return out;
  }
  if (pot.pods.empty()) {
    out.code = policy::Code::no_victims;
    out.detail = "No preemption victims found for incoming pod";
    return out;
  }
  NodeView view{node, pot.pods, {}};
  if (FilterStatus s = f.run_with_nominated(view); !s.ok()) {
    out.result = DryRun::Result::still_unschedulable;
    out.code = Reason(policy::Code::still_unschedulable, std::string(s.plugin));
    out.detail = s.detail + " (even with every lower-priority pod removed)";
    for (std::size_t i : pot.verdict_index) {
      out.pods[i].detail = "would not make room: the node fails without it too";
    }
    return out;
  }
  std::vector<model::PodId> sorted = pot.pods;
  sort_by_importance(snap, now, sorted);
  const PdbSplit split = split_by_pdbs(snap, sorted);
  auto index_in = [](const std::vector<model::PodId>& ids, model::PodId id) {
    return static_cast<std::size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
  };
  auto reprieve = [&](model::PodId id, bool violating) {
    std::erase(view.removed, id);
    const FilterStatus s = f.run_with_nominated(view);
    PodVerdict* v = pod_verdicts ? &out.pods[pot.verdict_index[index_in(pot.pods, id)]] : nullptr;
    if (s.ok()) {
      if (v != nullptr) {
        v->code = policy::Code::reprieved;
        v->detail = "the preemptor still fits with it back on the node";
      }
      return;
    }
    view.removed.push_back(id);
    out.victims.push_back(id);
    out.pdb_violations += violating ? 1 : 0;
    const PdbMatch& match = split.matches[index_in(sorted, id)];
    out.victim_reasons.emplace_back(id, victim_reason(snap.pods()[id], match, violating));
    if (v != nullptr) {
      v->code = victim_code(snap.pods()[id], match, violating);
      v->victim = true;
      v->detail = fmt::format("must go: with it back the preemptor fails ({})", s.detail);
    }
  };
  for (model::PodId id : split.violating) {
    reprieve(id, true);
  }
  for (model::PodId id : split.non_violating) {
    reprieve(id, false);
  }
  if (!split.violating.empty() && !split.non_violating.empty()) {
    sort_by_importance(snap, now, out.victims);
  }
  if (out.victims.empty()) {
    // Cannot happen for a node that failed the filters; upstream reports an Error for it.
    out.result = DryRun::Result::error;
    out.code = policy::Code::error_no_victims_needed;
    out.detail = "expected at least one victim pod on the node";
    return out;
  }
  out.result = DryRun::Result::candidate;
  return out;
}

}  // namespace kpreempt::policy::common
