// SPDX-License-Identifier: Apache-2.0
// Fair-sharing target search of Kueue v0.19.2 (and v0.14.8 where Rules says so):
// pkg/scheduler/preemption/preemption.go fairPreemptions, findCandidates, runFirstFsStrategy,
// runSecondFsStrategy, fsStrategyUnsatisfiable, workloadFitsForFairSharing, fillBackWorkloads;
// pkg/scheduler/preemption/fairsharing/ ordering.go (TargetClusterQueueOrdering: from the root
// towards the child with the highest share), target.go (ComputeShares,
// ComputeTargetShareAfterRemoval), least_common_ancestor.go (getAlmostLCAs) and strategy.go.
#include "policy/kueue/internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>

namespace kpreempt::policy::kueue {
namespace {

struct Cand {
  const Admitted* a = nullptr;
  std::int32_t priority = 0;
  bool evicted = false, own = false;
  model::Instant reserved;
  std::string uid;
};

// CandidatesOrdering (without admission fair sharing): evicted first, other queues before the
// preemptor's, lower priority, most recently reserved, then uid.
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

// TargetClusterQueueOrdering over candidates (indexes into `cands`): yields the ClusterQueue to
// take the next candidate from. The caller pops a candidate or drops the queue between calls.
class Ordering {
 public:
  Ordering(const Context& ctx, const FairShares& shares, const std::vector<Cand>& cands,
           const std::vector<std::size_t>& which)
      : m_ctx(ctx),
        m_shares(shares),
        m_cands(cands),
        m_queue(ctx.quota.node_count()),
        m_pruned(ctx.quota.node_count(), false),
        m_on_path(ctx.quota.node_count(), false) {
    for (std::size_t i : which) {
      m_queue[cands[i].a->cq].push_back(i);
    }
    for (std::size_t a : ctx.quota.ancestors(ctx.p.cq)) {
      m_on_path[a] = true;
    }
  }

  std::optional<std::size_t> next() {
    std::size_t pcq = m_ctx.p.cq;
    std::vector<std::size_t> up = m_ctx.quota.ancestors(pcq);
    if (up.empty()) {
      return !m_pruned[pcq] && has(pcq) ? std::optional(pcq) : std::nullopt;
    }
    while (!m_pruned[up.back()]) {
      if (std::optional<std::size_t> t = next_target(up.back())) {
        return t;
      }
    }
    return std::nullopt;
  }
  bool has(std::size_t cq) const { return !m_queue[cq].empty(); }
  std::size_t pop(std::size_t cq) {
    std::size_t i = m_queue[cq].front();
    m_queue[cq].pop_front();
    return i;
  }
  void drop(std::size_t cq) { m_pruned[cq] = true; }

 private:
  bool not_borrowing(const Share& s) const {
    return m_ctx.rules.fair_prune_not_borrowing ? !s.borrowing : s.zero();
  }

  // nextTarget: the child queue or cohort with the highest share, descending into a cohort;
  // none when this call only pruned nodes.
  std::optional<std::size_t> next_target(std::size_t cohort) {
    std::optional<std::size_t> cq;
    Share cq_share = negative_share();
    for (std::size_t c : m_ctx.quota.child_cqs(cohort)) {
      if (m_pruned[c]) {
        continue;
      }
      Share s = m_shares.share(c);
      int order = compare(s, cq_share);
      if ((not_borrowing(s) && c != m_ctx.p.cq) || !has(c)) {
        m_pruned[c] = true;
      } else if (order == 0 && cq &&
                 before(m_cands[m_queue[c].front()], m_cands[m_queue[*cq].front()])) {
        cq = c;
      } else if (order > 0) {
        cq_share = s;
        cq = c;
      }
    }
    std::optional<std::size_t> child;
    Share child_share = negative_share();
    for (std::size_t c : m_ctx.quota.child_cohorts(cohort)) {
      if (m_pruned[c]) {
        continue;
      }
      Share s = m_shares.share(c);
      if (not_borrowing(s) && !m_on_path[c]) {
        m_pruned[c] = true;
      } else if (compare(s, child_share) >= 0) {
        child_share = s;
        child = c;
      }
    }
    if (!cq && !child) {
      m_pruned[cohort] = true;
      return std::nullopt;
    }
    if (compare(child_share, cq_share) >= 0) {
      return next_target(*child);  // a tie goes to the cohort: its most unfair node is found
    }
    return cq;
  }

  const Context& m_ctx;
  const FairShares& m_shares;
  const std::vector<Cand>& m_cands;
  std::vector<std::deque<std::size_t>> m_queue;  // per node: candidates of that ClusterQueue
  std::vector<bool> m_pruned, m_on_path;
};

// The preemptor's and the target's sides below their lowest common ancestor.
struct Sides {
  std::size_t lca = 0, preemptor = 0, target = 0;
};

std::size_t almost_lca(const QuotaModel& q, std::size_t cq, std::size_t lca) {
  std::size_t below = cq;
  for (std::size_t a : q.ancestors(cq)) {
    if (a == lca) {
      break;
    }
    below = a;
  }
  return below;
}

Sides sides(const Context& ctx, std::size_t target) {
  std::vector<std::size_t> mine = ctx.quota.ancestors(ctx.p.cq);
  Sides s;
  for (std::size_t a : ctx.quota.ancestors(target)) {
    if (std::find(mine.begin(), mine.end(), a) != mine.end()) {
      s.lca = a;
      break;
    }
  }
  s.preemptor = almost_lca(ctx.quota, ctx.p.cq, s.lca);
  s.target = almost_lca(ctx.quota, target, s.lca);
  return s;
}

// What the search does to candidates, as it goes.
struct Run {
  Context& ctx;
  const FairShares& shares;
  const std::vector<Cand>& cands;
  const FRAmounts& requests;
  Admitted incoming;
  std::vector<std::size_t> chosen;  // removed, in order
  std::vector<Code> codes;
  std::vector<Variant> variants;
  std::vector<FairStep> steps;
  bool within_nominal = false;

  // workloadFitsForFairSharing: the preemptor's usage, added for the shares, is taken out.
  bool fits() {
    ctx.quota.remove(incoming);
    bool out = fits_now(ctx, requests, true);
    ctx.quota.add(incoming);
    return out;
  }
  bool take(std::size_t i, Code code, Variant v) {
    ctx.quota.remove(*cands[i].a);
    chosen.push_back(i);
    codes[i] = code;
    variants[i] = v;
    return fits();
  }
  // ComputeTargetShareAfterRemoval.
  Share share_without(std::size_t i, std::size_t side) {
    ctx.quota.remove(*cands[i].a);
    Share out = shares.share(side);
    ctx.quota.add(*cands[i].a);
    return out;
  }
  FairStep step(std::size_t i, int round, Strategy st, const Sides& at) const {
    return FairStep{cands[i].a,
                    round,
                    st,
                    at.lca,
                    at.preemptor,
                    at.target,
                    shares.share(at.preemptor),
                    shares.share(at.target),
                    std::nullopt,
                    false};
  }
};

Code refusal(Strategy s) {
  return s == Strategy::final_share ? Code::fair_share_above_final
                                    : Code::fair_share_not_below_initial;
}

Code admission(Strategy s) {
  return s == Strategy::final_share ? Code::fair_share_final : Code::fair_share_initial;
}

// The candidates of one target queue under the first strategy; true when the preemptor fits.
bool judge_queue(Run& r, Ordering& ord, std::size_t t, Strategy st,
                 std::vector<std::size_t>& retry) {
  Sides at = sides(r.ctx, t);
  FairStep base = r.step(0, 1, st, at);
  // fsStrategyUnsatisfiable: a zero-weight preemptor side that borrows cannot pass against a
  // target that is not one; its candidates wait for the second strategy unjudged.
  bool hopeless = std::isinf(base.preemptor_new.value()) && !std::isinf(base.target_old.value());
  while (ord.has(t)) {
    std::size_t i = ord.pop(t);
    FairStep s = base;
    s.a = r.cands[i].a;
    if (!hopeless && st == Strategy::final_share) {
      s.target_new = r.share_without(i, at.target);
    }
    s.passed =
        !hopeless && (st == Strategy::final_share ? compare(s.preemptor_new, *s.target_new) <= 0
                                                  : compare(s.preemptor_new, s.target_old) < 0);
    r.steps.push_back(s);
    if (!s.passed) {
      r.codes[i] = refusal(st);
      retry.push_back(i);
      continue;
    }
    if (r.take(i, admission(st), Variant::fair_sharing)) {
      return true;
    }
    break;  // the shares changed: the ordering may pick another queue
  }
  return false;
}

bool run_first(Run& r, Strategy st, std::vector<std::size_t>& retry) {
  std::vector<std::size_t> all(r.cands.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    all[i] = i;
  }
  Ordering ord(r.ctx, r.shares, r.cands, all);
  const std::size_t pcq = r.ctx.p.cq;
  while (std::optional<std::size_t> t = ord.next()) {
    if (*t == pcq) {
      std::size_t i = ord.pop(pcq);
      if (r.take(i, own_queue_code(r.ctx, r.cands[i].priority), Variant::within_cq)) {
        return true;
      }
    } else if (r.within_nominal) {
      if (r.take(ord.pop(*t), Code::fair_within_nominal, Variant::reclaim)) {
        return true;
      }
    } else if (judge_queue(r, ord, *t, st, retry)) {
      return true;
    }
  }
  return false;
}

// Rule S2-b on the candidates the first strategy refused: at most one per queue.
bool run_second(Run& r, const std::vector<std::size_t>& retry) {
  Ordering ord(r.ctx, r.shares, r.cands, retry);
  while (std::optional<std::size_t> t = ord.next()) {
    Sides at = sides(r.ctx, *t);
    std::size_t i = ord.pop(*t);
    FairStep s = r.step(i, 2, Strategy::initial_share, at);
    s.passed = compare(s.preemptor_new, s.target_old) < 0;
    r.steps.push_back(s);
    if (s.passed) {
      if (r.take(i, Code::fair_share_initial, Variant::fair_sharing)) {
        return true;
      }
    } else {
      r.codes[i] = Code::fair_share_not_below_initial;
    }
    ord.drop(*t);
  }
  return false;
}

// findCandidates: the preemptor's queue under withinClusterQueue, and every borrowing queue of
// the cohort tree under reclaimWithinCohort, using a pair that needs preemption.
std::optional<Code> screen(const Context& ctx, const Admitted& a, const FRSet& needs) {
  const model::ClusterQueue& q = ctx.quota.cq(ctx.p.cq);
  const model::Workload& w = ctx.k.workloads[a.workload];
  bool own = a.cq == ctx.p.cq;
  const std::string& policy = own ? q.within_cluster_queue : q.reclaim_within_cohort;
  if (policy == "Never" || policy.empty()) {
    return own ? Code::within_cq_policy_never : Code::reclaim_policy_never;
  }
  if (!own && !ctx.quota.active(a.cq)) {
    return Code::cq_inactive;
  }
  if (!own && std::none_of(needs.begin(), needs.end(),
                           [&](const FR& fr) { return ctx.quota.borrows_with(a.cq, fr, 0); })) {
    return Code::cq_below_nominal;  // cqIsBorrowing: only borrowing queues give candidates
  }
  if (!uses_any(a, needs)) {
    return Code::not_using_assigned_flavor;
  }
  return policy_block(policy, w.priority, ctx, w);
}

std::vector<Cand> collect(const Context& ctx, const FRSet& needs, std::vector<Verdict>& verdicts) {
  std::vector<bool> scope(ctx.quota.cq_count(), false);
  for (std::size_t cq : ctx.quota.tree_cqs(ctx.p.cq)) {
    scope[cq] = true;
  }
  std::vector<Cand> out;
  for (const Admitted& a : ctx.quota.admitted()) {
    if (!scope[a.cq] || ctx.p.replaces == a.workload) {
      continue;
    }
    if (std::optional<Code> c = screen(ctx, a, needs)) {
      verdicts.push_back(Verdict{&a, false, *c, ""});
      continue;
    }
    const model::Workload& w = ctx.k.workloads[a.workload];
    out.push_back(Cand{&a, w.priority, model::condition_true(w, "Evicted"), a.cq == ctx.p.cq,
                       quota_reserved_time(w, ctx.in.now), w.uid});
  }
  std::stable_sort(out.begin(), out.end(), before);
  return out;
}

// queueWithinNominalInResourcesNeedingPreemption, with the preemptor's usage added.
bool within_nominal(const Context& ctx, const FRSet& needs) {
  return std::none_of(needs.begin(), needs.end(),
                      [&](const FR& fr) { return ctx.quota.borrows_with(ctx.p.cq, fr, 0); });
}

// fillBackWorkloads with borrowing allowed: each removed workload but the last, newest first,
// comes back when the preemptor still fits with it.
void fill_back(Run& r) {
  for (std::size_t k = r.chosen.size() - 1; k-- > 0;) {
    r.ctx.quota.add(*r.cands[r.chosen[k]].a);
    if (fits_now(r.ctx, r.requests, true)) {
      r.codes[r.chosen[k]] = Code::filled_back;
      r.chosen[k] = r.chosen.back();
      r.chosen.pop_back();
    } else {
      r.ctx.quota.remove(*r.cands[r.chosen[k]].a);
    }
  }
}

std::string node_name(const QuotaModel& q, std::size_t n) {
  return (q.is_cq(n) ? "ClusterQueue/" : "Cohort/") + q.name(n);
}

// "LessThanOrEqualToFinalShare below Cohort/root: ClusterQueue/a 250 (cpu) with the preemptor
// <= Cohort/right 300 (cpu) without the candidate": the comparison the candidate met last.
std::string step_text(const QuotaModel& q, const FairStep& s) {
  const bool final_share = s.strategy == Strategy::final_share;
  std::string target =
      s.target_new ? to_string(*s.target_new) + " without it" : to_string(s.target_old) + " before";
  if (final_share && !s.target_new) {
    return fmt::format("{} below {}: {} {} with the preemptor borrows on a zero weight; not tried",
                       to_string(s.strategy), node_name(q, s.lca), node_name(q, s.preemptor_side),
                       to_string(s.preemptor_new));
  }
  std::string_view op = final_share ? (s.passed ? "<=" : ">") : (s.passed ? "<" : ">=");
  return fmt::format("{}{} below {}: {} {} with the preemptor {} {} {}", to_string(s.strategy),
                     s.round == 2 ? " (second pass)" : "", node_name(q, s.lca),
                     node_name(q, s.preemptor_side), to_string(s.preemptor_new), op,
                     node_name(q, s.target_side), target);
}

}  // namespace

std::string_view to_string(Strategy s) {
  return s == Strategy::final_share ? model::k_final_share_strategy
                                    : model::k_initial_share_strategy;
}

Search find_fair_targets(Context& ctx, const FRSet& needs, const FRAmounts& requests) {
  Search s;
  s.fair = true;
  std::vector<Cand> cands = collect(ctx, needs, s.verdicts);
  if (cands.empty()) {
    return s;
  }
  FairShares shares(ctx.quota, ctx.k);
  Run r{ctx, shares, cands, requests, Admitted{0, ctx.p.cq, requests, {}}, {}, {}, {}, {}, false};
  r.codes.assign(cands.size(), Code::not_needed);
  r.variants.assign(cands.size(), Variant::fair_sharing);
  ctx.quota.add(r.incoming);  // the shares include the incoming workload
  r.within_nominal = ctx.rules.fair_within_nominal && within_nominal(ctx, needs);
  std::vector<std::size_t> retry;
  bool fit = run_first(r, ctx.fair.strategies.front(), retry);
  if (!fit && ctx.fair.strategies.size() > 1) {
    fit = run_second(r, retry);
  }
  ctx.quota.remove(r.incoming);
  if (fit) {
    fill_back(r);
  }
  std::vector<bool> victim(cands.size(), false);
  for (std::size_t i : r.chosen) {
    ctx.quota.add(*cands[i].a);
    if (fit) {
      victim[i] = true;
      s.targets.push_back(Target{cands[i].a, r.variants[i]});
    }
  }
  for (std::size_t i = 0; i < cands.size(); ++i) {
    Code code = r.codes[i];
    if (!fit && std::find(r.chosen.begin(), r.chosen.end(), i) != r.chosen.end()) {
      code = Code::insufficient_candidates;  // removed, yet the preemptor still did not fit
    }
    std::string detail;
    for (const FairStep& st : r.steps) {
      if (st.a == cands[i].a) {
        detail = step_text(ctx.quota, st);
      }
    }
    s.verdicts.push_back(Verdict{cands[i].a, victim[i], code, detail});
  }
  s.fair_steps = std::move(r.steps);
  s.within_nominal = r.within_nominal;
  return s;
}

}  // namespace kpreempt::policy::kueue
