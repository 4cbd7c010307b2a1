// SPDX-License-Identifier: Apache-2.0
// Classical target search of Kueue v0.14.8 and v0.19.2: pkg/scheduler/preemption/preemption.go
// (classicalPreemptions, fillBackWorkloads, workloadFits, CandidatesOrdering) and
// pkg/scheduler/preemption/classical/ (hierarchical_preemption.go candidate collection across
// the cohort tree and classifyPreemptionVariant, candidate_generator.go candidateIterator).
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
  // The cohorts between its ClusterQueue and the lowest common ancestor with the preemptor's,
  // which must stay over their subtree quota for it to remain a candidate.
  std::vector<std::size_t> below_lca;
  std::string why;  // where a hierarchical advantage comes from, for the verdict
};

const model::Workload& wl(const Context& ctx, const Admitted& a) {
  return ctx.k.workloads[a.workload];
}

}  // namespace

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
    if (ctx.p.ts < model::queue_order_time(w)) {
      return std::nullopt;
    }
    return Code::equal_priority_older;
  }
  return Code::equal_priority;
}

bool uses_any(const Admitted& a, const FRSet& needs) {
  return std::any_of(needs.begin(), needs.end(), [&](const FR& fr) { return a.uses.count(fr); });
}

Code own_queue_code(const Context& ctx, std::int32_t priority) {
  return priority < ctx.p.priority ? Code::same_cq_lower_priority
                                   : Code::same_cq_newer_equal_priority;
}

bool fits_now(const Context& ctx, const FRAmounts& requests, bool borrow) {
  return std::all_of(requests.begin(), requests.end(), [&](const auto& kv) {
    if (!borrow && ctx.quota.borrows_with(ctx.p.cq, kv.first, kv.second)) {
      return false;
    }
    return kv.second <= ctx.quota.available(ctx.p.cq, kv.first);
  });
}

namespace {

// Where an admitted workload of another ClusterQueue sits relative to the preemptor's: the
// lowest common ancestor (an index into the preemptor's ancestors) and the cohorts below it.
struct Placement {
  std::size_t lca = 0;
  std::vector<std::size_t> below_lca;
};

Placement place(const Context& ctx, std::size_t cq) {
  std::vector<std::size_t> mine = ctx.quota.ancestors(ctx.p.cq);
  Placement out;
  for (std::size_t a : ctx.quota.ancestors(cq)) {
    auto it = std::find(mine.begin(), mine.end(), a);
    if (it != mine.end()) {
      out.lca = static_cast<std::size_t>(it - mine.begin());
      return out;
    }
    out.below_lca.push_back(a);
  }
  return out;  // not reached for a queue of the same tree
}

// Hierarchical advantage per ancestor of the preemptor's ClusterQueue
// (collectCandidatesForHierarchicalReclaim): the node whose quota holds the requests, the
// queue's nominal quota or the subtree of a lower ancestor, what each level's free local quota
// leaves of them going up; none without advantage. A workload the reclaim policy allows, found
// at ancestor k, is a HierarchicalReclaim candidate (usable while the preemptor borrows, with
// no borrowWithinCohort threshold) when out[k] is set.
std::vector<std::optional<std::size_t>> advantage(const Context& ctx, const FRAmounts& requests) {
  FRAmounts rest;
  std::optional<std::size_t> holder;
  if (ctx.quota.fits_in_quota(ctx.p.cq, requests, rest)) {
    holder = ctx.p.cq;
  }
  std::vector<std::optional<std::size_t>> out;
  for (std::size_t a : ctx.quota.ancestors(ctx.p.cq)) {
    out.push_back(holder);
    FRAmounts next;
    if (ctx.quota.fits_in_quota(a, rest, next) && !holder) {
      holder = a;
    }
    rest = std::move(next);
  }
  return out;
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

// Why a workload of another ClusterQueue is out of reach: the first cohort between it and the
// lowest common ancestor that is within its subtree quota (upstream does not enter that
// subtree), or its ClusterQueue within nominal.
std::optional<Verdict> out_of_reach(const Context& ctx, const Admitted& a, const FRSet& needs,
                                    const Placement& at) {
  for (auto it = at.below_lca.rbegin(); it != at.below_lca.rend(); ++it) {
    if (ctx.quota.within_nominal(*it, needs)) {
      return Verdict{&a, false, Code::cohort_below_nominal,
                     "cohort " + ctx.quota.name(*it) + " is within its subtree quota"};
    }
  }
  if (ctx.quota.within_nominal(a.cq, needs)) {
    return Verdict{&a, false, Code::cq_below_nominal, ""};
  }
  return std::nullopt;
}

// The verdict that keeps an admitted workload out of the candidates; none for a candidate.
std::optional<Verdict> screen(const Context& ctx, const Admitted& a, const FRSet& needs,
                              const Placement& at) {
  const model::ClusterQueue& q = ctx.quota.cq(ctx.p.cq);
  const model::Workload& w = wl(ctx, a);
  auto code = [&](std::optional<Code> c) {
    return c ? std::optional(Verdict{&a, false, *c, ""}) : std::nullopt;
  };
  if (a.cq == ctx.p.cq) {
    if (q.within_cluster_queue == "Never" || q.within_cluster_queue.empty()) {
      return code(Code::within_cq_policy_never);
    }
    return code(uses_any(a, needs) ? policy_block(q.within_cluster_queue, w.priority, ctx, w)
                                   : Code::not_using_assigned_flavor);
  }
  if (q.reclaim_within_cohort == "Never" || q.reclaim_within_cohort.empty()) {
    return code(Code::reclaim_policy_never);
  }
  if (!ctx.quota.active(a.cq)) {
    return code(Code::cq_inactive);
  }
  if (std::optional<Verdict> v = out_of_reach(ctx, a, needs, at)) {
    return v;
  }
  return code(uses_any(a, needs) ? policy_block(q.reclaim_within_cohort, w.priority, ctx, w)
                                 : Code::not_using_assigned_flavor);
}

// The ClusterQueues of the preemptor's cohort tree, its own included.
std::vector<bool> in_tree(const Context& ctx) {
  std::vector<bool> out(ctx.quota.cq_count(), false);
  for (std::size_t cq : ctx.quota.tree_cqs(ctx.p.cq)) {
    out[cq] = true;
  }
  return out;
}

// NewCandidateIterator sorts three lists apart and joins them evicted first: workloads the
// preemptor has hierarchical advantage over, the other ClusterQueues' and its own queue's. In
// a flat cohort this is CandidatesOrdering's other-ClusterQueues-first key.
int block(const Cand& c) {
  return c.own ? 2 : c.variant == Variant::reclaim ? 0 : 1;
}

// CandidatesOrdering within those lists: evicted first, lower priority, most recently
// reserved, then uid.
bool before(const Cand& x, const Cand& y) {
  if (x.evicted != y.evicted) {
    return x.evicted;
  }
  if (block(x) != block(y)) {
    return block(x) < block(y);
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
  std::vector<std::optional<std::size_t>> adv = advantage(ctx, requests);
  std::vector<bool> scope = in_tree(ctx);
  std::vector<Cand> out;
  for (const Admitted& a : ctx.quota.admitted()) {
    if (!scope[a.cq] || ctx.p.replaces == a.workload) {
      continue;  // the replaced slice finishes on admission, it is not preempted
    }
    const model::Workload& w = wl(ctx, a);
    Placement at = a.cq == ctx.p.cq ? Placement{} : place(ctx, a.cq);
    if (std::optional<Verdict> v = screen(ctx, a, needs, at)) {
      verdicts.push_back(std::move(*v));
      continue;
    }
    Cand c{&a,
           Variant::within_cq,
           w.priority,
           model::condition_true(w, "Evicted"),
           a.cq == ctx.p.cq,
           false,
           quota_reserved_time(w, ctx.in.now),
           w.uid,
           at.below_lca,
           ""};
    if (!c.own) {
      std::optional<std::size_t> holder = adv[at.lca];
      c.variant = classify(ctx, w.priority, holder.has_value(), c.above_threshold);
      if (holder && *holder != ctx.p.cq) {
        c.why = "hierarchical advantage: cohort " + ctx.quota.name(*holder) + " holds the request";
      }
    }
    out.push_back(c);
  }
  std::stable_sort(out.begin(), out.end(), before);
  return out;
}

bool fits(const Context& ctx, const FRAmounts& requests, bool borrow) {
  return fits_now(ctx, requests, borrow);
}

Code victim_code(const Context& ctx, const Cand& c) {
  switch (c.variant) {
    case Variant::within_cq:
      return own_queue_code(ctx, c.priority);
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

// candidateIsValid, beyond the borrowing rule: the candidate's ClusterQueue and every cohort
// between it and the lowest common ancestor must still be over nominal.
std::optional<Code> invalidated(const Context& ctx, const Cand& c, const FRSet& needs) {
  if (ctx.quota.within_nominal(c.a->cq, needs)) {
    return Code::cq_below_nominal;
  }
  for (std::size_t cohort : c.below_lca) {
    if (ctx.quota.within_nominal(cohort, needs)) {
      return Code::cohort_below_nominal;
    }
  }
  return std::nullopt;
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
    // Once a borrowing queue, or a cohort between it and the preemptor's, is back within
    // nominal its other workloads are off-limits.
    if (!c.own) {
      if (std::optional<Code> code = invalidated(ctx, c, needs)) {
        w.codes[i] = *code;
        continue;
      }
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
    case Variant::fair_sharing:
      return Code::in_cohort_fair_sharing;
    default:
      return Code::in_cohort_reclamation;
  }
}

Search find_targets(Context& ctx, const FRSet& needs, const FRAmounts& requests) {
  if (ctx.fair.on) {
    return find_fair_targets(ctx, needs, requests);
  }
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
    s.verdicts.push_back(Verdict{cands[i].a, is_victim[i], code, cands[i].why});
  }
  return s;
}

}  // namespace kpreempt::policy::kueue
