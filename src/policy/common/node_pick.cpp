// SPDX-License-Identifier: Apache-2.0
// Victim importance and candidate ranking. Mirrors kubernetes/kubernetes
// pkg/scheduler/util/utils.go and pkg/scheduler/framework/preemption/preemption.go
// pickOneNodeForPreemption, release v1.34.
#include "policy/common/node_pick.h"

#include <algorithm>
#include <compare>
#include <tuple>

namespace kpreempt::policy::common {

model::Instant start_time(const model::Pod& pod, model::Instant now) {
  return pod.start_time.value_or(now);
}

void sort_by_importance(const model::Snapshot& snap, model::Instant now,
                        std::vector<model::PodId>& pods) {
  std::sort(pods.begin(), pods.end(), [&](model::PodId a, model::PodId b) {
    const std::int32_t pa = snap.facts(a).priority;
    const std::int32_t pb = snap.facts(b).priority;
    if (pa != pb) {
      return pa > pb;
    }
    const model::Instant sa = start_time(snap.pods()[a], now);
    const model::Instant sb = start_time(snap.pods()[b], now);
    return std::tie(sa, a) < std::tie(sb, b);
  });
}

CandidateRank rank_of(const model::Snapshot& snap, model::Instant now,
                      const std::vector<model::PodId>& victims, std::int64_t pdb_violations) {
  CandidateRank r;
  r.pdb_violations = pdb_violations;
  r.victim_count = static_cast<std::int64_t>(victims.size());
  if (victims.empty()) {
    return r;
  }
  r.highest_victim_priority = snap.facts(victims.front()).priority;
  bool first = true;
  for (model::PodId v : victims) {
    const std::int32_t p = snap.facts(v).priority;
    // Offsetting by 2^31 keeps every term positive, so more victims never lower the sum.
    r.sum_adjusted += static_cast<std::int64_t>(p) + (std::int64_t{1} << 31);
    // GetEarliestPodStartTime looks only at the pods of the highest priority among victims.
    const std::int32_t highest = r.highest_victim_priority;
    if (p == highest) {
      const model::Instant t = start_time(snap.pods()[v], now);
      if (first || t < r.earliest_start) {
        r.earliest_start = t;
        first = false;
      }
    }
  }
  return r;
}

namespace {

// Lower is better on every criterion but the start time, where the later start wins.
std::strong_ordering compare(Criterion c, const CandidateRank& a, const CandidateRank& b) {
  switch (c) {
    case Criterion::pdb_violations:
      return a.pdb_violations <=> b.pdb_violations;
    case Criterion::highest_victim_priority:
      return a.highest_victim_priority <=> b.highest_victim_priority;
    case Criterion::sum_priorities:
      return a.sum_adjusted <=> b.sum_adjusted;
    case Criterion::victim_count:
      return a.victim_count <=> b.victim_count;
    case Criterion::start_time:
      return b.earliest_start <=> a.earliest_start;
  }
  return std::strong_ordering::equal;
}

}  // namespace

Pick pick_candidate(const std::vector<CandidateRank>& ranks) {
  Pick out;
  out.lost.resize(ranks.size());
  std::vector<std::size_t> alive(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    alive[i] = i;
  }
  for (const CriterionInfo& ci : criteria()) {
    const Criterion c = ci.criterion;
    if (alive.size() <= 1) {
      break;
    }
    std::size_t best = alive.front();
    for (std::size_t i : alive) {
      if (compare(c, ranks[i], ranks[best]) < 0) {
        best = i;
      }
    }
    std::vector<std::size_t> next;
    for (std::size_t i : alive) {
      if (compare(c, ranks[i], ranks[best]) == 0) {
        next.push_back(i);
      } else {
        out.lost[i] = c;
      }
    }
    if (next.size() == 1) {
      out.decided_by = c;
    }
    alive = std::move(next);
  }
  out.winner = alive.front();
  if (alive.size() > 1) {
    out.tied = alive;
  }
  return out;
}

}  // namespace kpreempt::policy::common
