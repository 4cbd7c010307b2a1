// SPDX-License-Identifier: Apache-2.0
// The per-node victim search of CapacityScheduling. Mirrors kubernetes-sigs/scheduler-plugins
// pkg/capacityscheduling/capacity_scheduling.go preemptor.SelectVictimsOnNode and
// filterPodsWithPDBViolation, v0.35 (commit 903da7df82cb).
#include "policy/capacity/internal.h"
#include "policy/common/node_pick.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace kpreempt::policy::capacity {
namespace {

using common::DryRun;
using common::FilterStatus;
using common::NodeView;

model::ObjectRef ref_of(const model::Pod& p) {
  return {"Pod", p.namespace_, p.name};
}

// The node's pods least important first: lower priority, then later start. Upstream sorts
// with an unstable sort; equal pods keep input order here.
std::vector<model::PodId> least_important_first(const model::Snapshot& snap, model::NodeId node,
                                                model::Instant now) {
  std::vector<model::PodId> pods(snap.pods_on(node).begin(), snap.pods_on(node).end());
  std::stable_sort(pods.begin(), pods.end(), [&](model::PodId a, model::PodId b) {
    const std::int32_t pa = snap.facts(a).priority;
    const std::int32_t pb = snap.facts(b).priority;
    if (pa != pb) {
      return pa < pb;
    }
    return common::start_time(snap.pods()[a], now) > common::start_time(snap.pods()[b], now);
  });
  return pods;
}

// Whether one pod of the walk becomes a potential victim: the candidate code, or nullopt with
// the skip code in `skip`. `local` is the quota state with the earlier candidates removed.
std::optional<policy::Code> classify(const model::Snapshot& snap, const QuotaState& local,
                                     const PreFilter& pre, std::int32_t prio, model::PodId id,
                                     policy::Code& skip) {
  using policy::Code;
  const model::Pod& p = snap.pods()[id];
  const QuotaInfo* q = local.find(p.namespace_);
  const bool lower = snap.facts(id).priority < prio;
  if (!pre.has_quota) {
    if (q != nullptr) {
      skip = Code::quota_managed;
      return std::nullopt;
    }
    skip = Code::not_lower_priority;
    return lower ? std::optional<Code>(Code::no_quota_lower_priority) : std::nullopt;
  }
  if (q == nullptr) {
    skip = Code::no_quota;
    return std::nullopt;
  }
  const bool same = p.namespace_ == pre.namespace_;
  if (pre.above_min) {
    skip = same ? Code::not_lower_priority : Code::other_namespace;
    return same && lower ? std::optional<Code>(Code::same_namespace_lower_priority) : std::nullopt;
  }
  if (same) {
    skip = Code::same_namespace;
    return std::nullopt;
  }
  // Re-evaluated for every pod: removing a candidate shrinks its quota's used.
  skip = Code::quota_not_over_min;
  return local.over_min(*q) ? std::optional<Code>(Code::borrowing_quota) : std::nullopt;
}

std::string skip_detail(policy::Code code, std::int32_t prio, std::int32_t own) {
  using policy::Code;
  if (code == Code::quota_managed) {
    return "its namespace has an ElasticQuota; a preemptor without one only preempts pods of "
           "quota-less namespaces";
  }
  if (code == Code::not_lower_priority) {
    return fmt::format("priority {} is not below the preemptor's {}", prio, own);
  }
  if (code == Code::no_quota) {
    return "its namespace has no ElasticQuota; a quota preemptor never preempts it";
  }
  if (code == Code::other_namespace) {
    return "the preemptor's quota is above min with the request, so only its own namespace is "
           "searched";
  }
  if (code == Code::same_namespace) {
    return "the preemptor's quota stays within min, so victims come from borrowing namespaces "
           "only";
  }
  return "its quota's used is not above its min (at this point of the walk)";
}

struct Walk {
  std::vector<model::PodId> candidates;
  std::vector<std::size_t> verdict_index;
};

// Step 1: walk the node, removing every qualifying pod at once from the node and its quota.
Walk collect(const model::Snapshot& snap, QuotaState& local, const PreFilter& pre,
             std::int32_t prio, model::NodeId node, model::Instant now, DryRun& out) {
  Walk w;
  for (model::PodId id : least_important_first(snap, node, now)) {
    policy::Code skip{};
    const std::int32_t p = snap.facts(id).priority;
    PodVerdict v{ref_of(snap.pods()[id]), p, false, {}, ""};
    if (std::optional<policy::Code> code = classify(snap, local, pre, prio, id, skip)) {
      local.remove(id);
      v.code = *code;
      w.candidates.push_back(id);
      w.verdict_index.push_back(out.pods.size());
    } else {
      v.code = skip;
      v.detail = skip_detail(skip, p, prio);
    }
    out.pods.push_back(std::move(v));
  }
  return w;
}

struct Reprieve {
  const common::Filters& f;
  const PreFilter& pre;
  QuotaState& local;
  NodeView& view;
  DryRun& out;
  bool error = false;

  bool quota_blocks() const {
    const QuotaInfo* own = local.find(pre.namespace_);
    return pre.has_quota &&
           (local.over_max_with(*own, pre.in_quota) || local.aggregated_over_min_with(pre.all));
  }

  // reprievePod: put the pod back; it is a victim when the node or the quota needs it gone.
  // Returns whether it counts as a PDB-violating victim.
  bool run(model::PodId id, const common::PdbMatch* violating, PodVerdict& v) {
    const policy::Code why = v.code.code;  // the candidate code of the walk, with no subject
    const bool pdb = violating != nullptr;
    const bool result = put_back(id, violating, v);
    v.detail =
        fmt::format("candidate as {}{}; {}", name(why), pdb ? ", PDB-violating" : "", v.detail);
    return result;
  }

  bool put_back(model::PodId id, const common::PdbMatch* violating, PodVerdict& v) {
    std::erase(view.removed, id);
    local.add(id);
    const FilterStatus s = f.run_with_nominated(view);
    if (!s.ok()) {
      view.removed.push_back(id);
      local.remove(id);
      out.victims.push_back(id);
      v.victim = true;
      v.code = violating != nullptr ? Reason(policy::Code::pdb_violation, violating->pdb())
                                    : Reason(policy::Code::victim_node_fit);
      v.detail = fmt::format("with it back the preemptor does not fit ({})", s.detail);
    }
    if (quota_blocks()) {
      if (!s.ok()) {
        // Upstream removes the pod a second time; NodeInfo.RemovePod then fails and the
        // whole node is dropped with an error.
        error = true;
        v.code = policy::Code::error_removed_twice;
        v.detail = "fails both the node check and the quota check; upstream errors on the node";
        return false;
      }
      view.removed.push_back(id);
      local.remove(id);
      out.victims.push_back(id);
      v.victim = true;
      v.code = policy::Code::victim_quota;
      v.detail =
          "with it back the quota check fails (used over max, or total used over total "
          "min, with the nominated requests)";
      return false;
    }
    if (s.ok()) {
      v.code = policy::Code::reprieved;
      v.detail = "the preemptor still fits, and its quota holds, with it back";
    }
    return !s.ok() && violating != nullptr;
  }
};

void fail(DryRun& out, DryRun::Result r, Reason code, std::string detail) {
  out.result = r;
  out.code = std::move(code);
  out.detail = std::move(detail);
}

}  // namespace

namespace {

// Step 4: put the potential victims back, most important first, PDB-violating ones first.
void reprieve_all(const common::Filters& f, const PreFilter& pre, const Walk& w, QuotaState& local,
                  NodeView& view, model::Instant now, DryRun& out) {
  std::vector<model::PodId> sorted = w.candidates;
  common::sort_by_importance(f.snapshot(), now, sorted);
  const common::PdbSplit split = common::split_by_pdbs(f.snapshot(), sorted);
  auto index_in = [](const std::vector<model::PodId>& v, model::PodId id) {
    return static_cast<std::size_t>(std::find(v.begin(), v.end(), id) - v.begin());
  };
  auto verdict_of = [&](model::PodId id) -> PodVerdict& {
    return out.pods[w.verdict_index[index_in(w.candidates, id)]];
  };
  Reprieve r{f, pre, local, view, out};
  for (model::PodId id : split.violating) {
    out.pdb_violations += r.run(id, &split.matches[index_in(sorted, id)], verdict_of(id)) ? 1 : 0;
    if (r.error) {
      break;
    }
  }
  for (model::PodId id : split.non_violating) {
    if (r.error) {
      break;
    }
    r.run(id, nullptr, verdict_of(id));
  }
  if (r.error) {
    fail(out, DryRun::Result::error, policy::Code::error_removed_twice,
         "a potential victim failed both the node and the quota check; upstream's second "
         "removal errors and the node is dropped");
    out.victims.clear();
    return;
  }
  if (!split.violating.empty() && !split.non_violating.empty()) {
    common::sort_by_importance(f.snapshot(), now, out.victims);
  }
}

}  // namespace

DryRun select_victims(const common::Filters& f, const QuotaState& quotas, const PreFilter& pre,
                      model::NodeId node, model::Instant now) {
  DryRun out;
  QuotaState local = quotas;
  const Walk w = collect(f.snapshot(), local, pre, f.priority(), node, now, out);
  if (w.candidates.empty()) {
    fail(out, DryRun::Result::no_victims, policy::Code::no_potential_victims,
         "no pod on the node may be preempted by this preemptor");
    return out;
  }
  NodeView view{node, w.candidates, {}};
  if (FilterStatus s = f.run_with_nominated(view); !s.ok()) {
    fail(out, DryRun::Result::still_unschedulable,
         Reason(policy::Code::does_not_fit_after_removal, std::string(s.plugin)),
         s.detail + " (even with every potential victim removed)");
    return out;
  }
  // Step 3 checks the bare request; the reprieve below uses the nominated sums (quirk: the
  // two can disagree, see Reprieve::put_back).
  const QuotaInfo* own = local.find(pre.namespace_);
  if (pre.has_quota &&
      (local.over_max_with(*own, pre.request) || local.aggregated_over_min_with(pre.request))) {
    fail(out, DryRun::Result::still_unschedulable, policy::Code::quota_exceeded_after_removal,
         "global quota max exceeded: even with every potential victim removed the request is "
         "over its quota's max or the total min");
    return out;
  }
  reprieve_all(f, pre, w, local, view, now, out);
  if (out.result == DryRun::Result::error) {
    return out;
  }
  if (out.victims.empty()) {
    fail(out, DryRun::Result::error, policy::Code::all_reprieved,
         "every potential victim could stay; upstream expects at least one victim and drops "
         "the node");
    return out;
  }
  out.result = DryRun::Result::candidate;
  return out;
}

}  // namespace kpreempt::policy::capacity
