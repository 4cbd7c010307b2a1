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

PodVerdict verdict(const model::Snapshot& snap, model::PodId id, std::string code,
                   std::string detail) {
  const model::Pod& p = snap.pods()[id];
  return PodVerdict{ref_of(p), snap.facts(id).priority, false, std::move(code), std::move(detail)};
}

// The code a victim carries: a counted PDB violation first, then whether upstream skips the
// delete call, then which budget it consumed.
std::string victim_code(const model::Pod& pod, const PdbMatch& m, bool violating) {
  if (violating) {
    return "pdb-violation:" + m.pdb;
  }
  if (pod.terminating()) {
    return "already-terminating";
  }
  switch (m.kind) {
    case PdbMatch::Kind::within_budget:
      return "pdb-within-budget:" + m.pdb;
    case PdbMatch::Kind::disrupted:
      return "pdb-disrupted-pod:" + m.pdb;
    default:
      return "victim";
  }
}

struct Potential {
  std::vector<model::PodId> pods;
  std::vector<std::size_t> verdict_index;  // where each pod's verdict sits in DryRun::pods
};

// Step 1: classify every pod on the node; false when the variant fails the node.
bool collect(const Filters& f, const Variant& variant, model::NodeId node, DryRun& out,
             Potential& pot) {
  const model::Snapshot& snap = f.snapshot();
  for (model::PodId id : snap.pods_on(node)) {
    const std::int32_t prio = snap.facts(id).priority;
    if (prio >= f.priority()) {
      out.pods.push_back(
          verdict(snap, id, "higher-or-equal-priority",
                  fmt::format("priority {} is not below the preemptor's {}", prio, f.priority())));
      continue;
    }
    VictimCheck check;
    if (variant.victim_check) {
      check = variant.victim_check(snap.pods()[id], id);
    }
    if (check.kind == VictimCheck::Kind::node_error) {
      if (out.result != DryRun::Result::error) {
        out.result = DryRun::Result::error;
        out.code = check.code;
        out.detail = check.detail;
      }
      out.pods.push_back(verdict(snap, id, check.code, check.detail));
      continue;
    }
    if (check.kind == VictimCheck::Kind::exempt) {
      out.pods.push_back(verdict(snap, id, check.code, check.detail));
      continue;
    }
    pot.verdict_index.push_back(out.pods.size());
    pot.pods.push_back(id);
    out.pods.push_back(verdict(snap, id, "lower-priority", ""));
  }
  return out.result != DryRun::Result::error;
}

}  // namespace

PodVerdict plain_verdict(const model::Snapshot& snap, model::PodId pod, std::int32_t priority,
                         std::string_view why_not_examined) {
  const std::int32_t prio = snap.facts(pod).priority;
  if (prio >= priority) {
    return verdict(snap, pod, "higher-or-equal-priority",
                   fmt::format("priority {} is not below the preemptor's {}", prio, priority));
  }
  return verdict(
      snap, pod, "lower-priority",
      fmt::format("priority {} is below the preemptor's {}; {}", prio, priority, why_not_examined));
}

DryRun select_victims_on_node(const Filters& f, const PdbIndex& pdbs, const Variant& variant,
                              model::NodeId node, model::Instant now) {
  const model::Snapshot& snap = f.snapshot();
  DryRun out;
  Potential pot;
  if (!collect(f, variant, node, out, pot)) {
    return out;
  }
  if (pot.pods.empty()) {
    out.code = "no-victims";
    out.detail = "No preemption victims found for incoming pod";
    return out;
  }
  NodeView view{node, pot.pods, {}};
  if (FilterStatus s = f.run_with_nominated(view); !s.ok()) {
    out.result = DryRun::Result::still_unschedulable;
    out.code = "still-unschedulable:" + s.plugin;
    out.detail = s.detail + " (even with every lower-priority pod removed)";
    for (std::size_t i : pot.verdict_index) {
      out.pods[i].detail = "would not make room: the node fails without it too";
    }
    return out;
  }
  std::vector<model::PodId> sorted = pot.pods;
  sort_by_importance(snap, now, sorted);
  const PdbSplit split = pdbs.split(sorted);
  auto verdict_of = [&](model::PodId id) -> PodVerdict& {
    const auto at = std::find(pot.pods.begin(), pot.pods.end(), id) - pot.pods.begin();
    return out.pods[pot.verdict_index[static_cast<std::size_t>(at)]];
  };
  auto match_of = [&](model::PodId id) -> const PdbMatch& {
    return split.matches[static_cast<std::size_t>(std::find(sorted.begin(), sorted.end(), id) -
                                                  sorted.begin())];
  };
  auto reprieve = [&](model::PodId id, bool violating) {
    std::erase(view.removed, id);
    PodVerdict& v = verdict_of(id);
    const FilterStatus s = f.run_with_nominated(view);
    if (s.ok()) {
      v.code = "reprieved";
      v.detail = "the preemptor still fits with it back on the node";
      return;
    }
    view.removed.push_back(id);
    out.victims.push_back(id);
    out.pdb_violations += violating ? 1 : 0;
    v.code = victim_code(snap.pods()[id], match_of(id), violating);
    v.victim = true;
    v.detail = fmt::format("must go: with it back the preemptor fails ({})", s.detail);
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
    out.code = "error:no-victims-needed";
    out.detail = "expected at least one victim pod on the node";
    return out;
  }
  out.result = DryRun::Result::candidate;
  return out;
}

}  // namespace kpreempt::policy::common
