// SPDX-License-Identifier: Apache-2.0
// Classical target search of Kueue v0.14.8: pkg/scheduler/preemption/preemption.go
// (classicalPreemptions, fillBackWorkloads, workloadFits, CandidatesOrdering) and
// pkg/scheduler/preemption/classical/ (candidate collection, classifyPreemptionVariant,
// candidateIterator), specialised to flat cohorts.
#include "policy/kueue/internal.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::kueue {
namespace {

struct Cand {
  const Admitted* a = nullptr;
  Variant variant = Variant::within_cq;
  std::int32_t priority = 0;
  bool evicted = false, own = false, above_threshold = false;
  model::Instant reserved;
  std::string uid;
};

const model::Workload& wl(const Context& ctx, const Admitted& a) {
  return ctx.k.workloads[a.workload];
}

// SatisfiesPreemptionPolicy: none when allowed, else the verdict code.
std::optional<Code> policy_block(const std::string& policy, std::int32_t prio, const Context& ctx,
                                 const model::Workload& w) {
  std::int32_t p = ctx.p.priority;
  if (policy == "Any" || prio < p) {
    return std::nullopt;
  }
  if (prio > p) {
    return Code::higher_priority;
  }
  if (policy == "LowerOrNewerEqualPriority") {
    // Newer means created strictly after the preemptor (queue order time, not the
    // QuotaReserved time the ordering uses).
    if (ctx.p.ts < queue_order_time(w)) {
      return std::nullopt;
    }
    return Code::equal_priority_older;
  }
  return Code::equal_priority;
}

bool uses_any(const Admitted& a, const FRSet& needs) {
  return std::any_of(needs.begin(), needs.end(), [&](const FR& fr) { return a.uses.count(fr); });
}

// Whether the preemptor would fit in its own ClusterQueue's nominal quota for every pair it
// requests (hierarchical advantage in a flat cohort).
bool has_advantage(const Context& ctx, const FRAmounts& requests) {
  return std::all_of(requests.begin(), requests.end(), [&](const auto& kv) {
    return ctx.quota.usage(ctx.p.cq, kv.first) + kv.second <=
           ctx.quota.quota(ctx.p.cq, kv.first).nominal;
  });
}

Variant classify(const Context& ctx, std::int32_t prio, bool advantage, bool& above) {
  const model::ClusterQueue& q = ctx.quota.cq(ctx.p.cq);
  if (advantage) {
    return Variant::reclaim;
  }
  if (q.borrow_within_cohort == "Never" || q.borrow_within_cohort.empty() ||
      prio >= ctx.p.priority) {
    return Variant::reclaim_no_borrow;
  }
  if (q.max_priority_threshold && prio > *q.max_priority_threshold) {
    above = true;
    return Variant::reclaim_no_borrow;
  }
  return Variant::reclaim_while_borrowing;
}

// The code that keeps an admitted workload out of the candidates; none for a candidate.
std::optional<Code> screen(const Context& ctx, const Admitted& a, const FRSet& needs) {
  const model::ClusterQueue& q = ctx.quota.cq(ctx.p.cq);
  const model::Workload& w = wl(ctx, a);
  if (a.cq == ctx.p.cq) {
    if (q.within_cluster_queue == "Never" || q.within_cluster_queue.empty()) {
      return Code::within_cq_policy_never;
    }
    return uses_any(a, needs) ? policy_block(q.within_cluster_queue, w.priority, ctx, w)
                              : Code::not_using_assigned_flavor;
  }
  if (q.reclaim_within_cohort == "Never" || q.reclaim_within_cohort.empty()) {
    return Code::reclaim_policy_never;
  }
  if (!ctx.quota.active(a.cq)) {
    return Code::cq_inactive;
  }
  if (!ctx.quota.over_nominal(a.cq, needs)) {
    return Code::cq_below_nominal;
  }
  return uses_any(a, needs) ? policy_block(q.reclaim_within_cohort, w.priority, ctx, w)
                            : Code::not_using_assigned_flavor;
}

bool in_scope(const Context& ctx, const Admitted& a) {
  if (a.cq == ctx.p.cq) {
    return true;
  }
  const auto& members = ctx.quota.cohort_members(ctx.p.cq);
  return ctx.quota.has_cohort(ctx.p.cq) &&
         std::find(members.begin(), members.end(), a.cq) != members.end();
}

// CandidatesOrdering: evicted first, other ClusterQueues first, lower priority, most
// recently reserved, then uid.
bool before(const Cand& x, const Cand& y) {
  if (x.evicted != y.evicted) {
    return x.evicted;
  }
  if (x.own != y.own) {
    return !x.own;
  }
  if (x.priority != y.priority) {
    return x.priority < y.priority;
  }
  if (x.reserved != y.reserved) {
    return x.reserved > y.reserved;
  }
  return x.uid < y.uid;
}

std::vector<Cand> collect(const Context& ctx, const FRSet& needs, const FRAmounts& requests,
                          std::vector<Verdict>& verdicts) {
  bool advantage = has_advantage(ctx, requests);
  std::vector<Cand> out;
  for (const Admitted& a : ctx.quota.admitted()) {
    if (!in_scope(ctx, a) || ctx.p.replaces == a.workload) {
      continue;  // the replaced slice finishes on admission, it is not preempted
    }
    const model::Workload& w = wl(ctx, a);
    if (std::optional<Code> code = screen(ctx, a, needs)) {
      verdicts.push_back(Verdict{&a, false, *code, ""});
      continue;
    }
    Cand c{&a,
           Variant::within_cq,
           w.priority,
           model::condition_true(w, "Evicted"),
           a.cq == ctx.p.cq,
           false,
           quota_reserved_time(w, ctx.in.now),
           w.uid};
    if (!c.own) {
      c.variant = classify(ctx, w.priority, advantage, c.above_threshold);
    }
    out.push_back(c);
  }
  std::stable_sort(out.begin(), out.end(), before);
  return out;
}

bool fits(const Context& ctx, const FRAmounts& requests, bool borrow) {
  return std::all_of(requests.begin(), requests.end(), [&](const auto& kv) {
    if (!borrow && ctx.quota.borrows_with(ctx.p.cq, kv.first, kv.second)) {
      return false;
    }
    return kv.second <= ctx.quota.available(ctx.p.cq, kv.first);
  });
}

Code victim_code(const Context& ctx, const Cand& c) {
  switch (c.variant) {
    case Variant::within_cq:
      return c.priority < ctx.p.priority ? Code::same_cq_lower_priority
                                         : Code::same_cq_newer_equal_priority;
    case Variant::reclaim_while_borrowing:
      return Code::cohort_reclaim_while_borrowing;
    default:
      return Code::cohort_reclaim;
  }
}

// Whether victim_code gave the code: the walk removed the workload.
bool removed_by_walk(Code code) {
  switch (code) {
    case Code::same_cq_lower_priority:
    case Code::same_cq_newer_equal_priority:
    case Code::cohort_reclaim_while_borrowing:
    case Code::cohort_reclaim:
      return true;
    default:
      return false;
  }
}

struct Walk {
  bool fit = false;
  std::vector<std::size_t> chosen;  // indexes into the candidates
  std::vector<Code> codes;
};

// fillBackWorkloads: re-add each removed workload but the last, newest first, keeping it
// out only if the preemptor no longer fits with it.
void fill_back(Context& ctx, const std::vector<Cand>& cands, const FRAmounts& requests, bool borrow,
               Walk& w) {
  for (std::size_t i = w.chosen.size() - 1; i-- > 0;) {
    ctx.quota.add(*cands[w.chosen[i]].a);
    if (fits(ctx, requests, borrow)) {
      w.codes[w.chosen[i]] = Code::filled_back;
      w.chosen[i] = w.chosen.back();  // upstream's O(1) removal, which reorders
      w.chosen.pop_back();
    } else {
      ctx.quota.remove(*cands[w.chosen[i]].a);
    }
  }
}

Walk walk(Context& ctx, const std::vector<Cand>& cands, const FRSet& needs,
          const FRAmounts& requests, bool borrow) {
  Walk w;
  w.codes.assign(cands.size(), Code::not_needed);
  for (std::size_t i = 0; i < cands.size() && !w.fit; ++i) {
    const Cand& c = cands[i];
    if (!c.own && borrow && c.variant == Variant::reclaim_no_borrow) {
      w.codes[i] = c.above_threshold ? Code::above_max_priority_threshold
                                     : Code::reclaim_requires_no_borrowing;
      continue;
    }
    // Once a borrowing queue is back within nominal its other workloads are off-limits.
    if (!c.own && !ctx.quota.over_nominal(c.a->cq, needs)) {
      w.codes[i] = Code::cq_below_nominal;
      continue;
    }
    ctx.quota.remove(*c.a);
    w.chosen.push_back(i);
    w.codes[i] = victim_code(ctx, c);
    if (fits(ctx, requests, borrow)) {
      fill_back(ctx, cands, requests, borrow, w);
      w.fit = true;
    }
  }
  for (std::size_t i : w.chosen) {
    ctx.quota.add(*cands[i].a);
  }
  return w;
}

std::vector<bool> attempts(const Context& ctx, const std::vector<Cand>& cands, const FRSet& needs) {
  const model::ClusterQueue& q = ctx.quota.cq(ctx.p.cq);
  bool forbid = q.borrow_within_cohort == "Never" || q.borrow_within_cohort.empty();
  bool any_other = std::any_of(cands.begin(), cands.end(), [](const Cand& c) { return !c.own; });
  bool at_nominal = std::any_of(needs.begin(), needs.end(), [&](const FR& fr) {
    return ctx.quota.usage(ctx.p.cq, fr) >= ctx.quota.quota(ctx.p.cq, fr).nominal;
  });
  if (!any_other || (forbid && at_nominal)) {
    return {true};
  }
  bool any_reclaim = std::any_of(cands.begin(), cands.end(),
                                 [](const Cand& c) { return c.variant == Variant::reclaim; });
  if (forbid && !any_reclaim) {
    return {false, true};
  }
  return {true, false};
}

}  // namespace

Code upstream_reason(Variant v) {
  switch (v) {
    case Variant::within_cq:
      return Code::in_cluster_queue;
    case Variant::reclaim_while_borrowing:
      return Code::in_cohort_reclaim_while_borrowing;
    default:
      return Code::in_cohort_reclamation;
  }
}

Search find_targets(Context& ctx, const FRSet& needs, const FRAmounts& requests) {
  Search s;
  std::vector<Cand> cands = collect(ctx, needs, requests, s.verdicts);
  Walk last;
  for (bool borrow : attempts(ctx, cands, needs)) {
    last = walk(ctx, cands, needs, requests, borrow);
    s.borrow_attempt = borrow;
    if (last.fit) {
      break;
    }
  }
  std::vector<bool> is_victim(cands.size(), false);
  if (last.fit) {
    for (std::size_t i : last.chosen) {
      is_victim[i] = true;
      s.targets.push_back(Target{cands[i].a, cands[i].variant});
    }
  }
  for (std::size_t i = 0; i < cands.size(); ++i) {
    Code code = last.codes.empty() ? Code::not_needed : last.codes[i];
    if (!last.fit && !is_victim[i] && removed_by_walk(code)) {
      code = Code::insufficient_candidates;  // removed, yet the preemptor still did not fit
    }
    s.verdicts.push_back(Verdict{cands[i].a, is_victim[i], code, ""});
  }
  return s;
}

}  // namespace kpreempt::policy::kueue
