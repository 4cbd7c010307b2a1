// SPDX-License-Identifier: Apache-2.0
// Victim importance and candidate ranking. Mirrors kubernetes/kubernetes
// pkg/scheduler/util/utils.go and pkg/scheduler/framework/preemption/preemption.go
// pickOneNodeForPreemption, release v1.34.
#include "policy/common/node_pick.h"

#include <algorithm>
#include <array>
#include <functional>
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

struct Criterion {
  const char* name;
  // Lower is better; start time is negated by comparing in reverse.
  std::function<bool(const CandidateRank&, const CandidateRank&)> better;
  std::function<bool(const CandidateRank&, const CandidateRank&)> equal;
};

const std::array<Criterion, 5>& criteria() {
  static const std::array<Criterion, 5> k_criteria{{
      {"pdb-violations", [](auto& a, auto& b) { return a.pdb_violations < b.pdb_violations; },
       [](auto& a, auto& b) { return a.pdb_violations == b.pdb_violations; }},
      {"highest-victim-priority",
       [](auto& a, auto& b) { return a.highest_victim_priority < b.highest_victim_priority; },
       [](auto& a, auto& b) { return a.highest_victim_priority == b.highest_victim_priority; }},
      {"sum-priorities", [](auto& a, auto& b) { return a.sum_adjusted < b.sum_adjusted; },
       [](auto& a, auto& b) { return a.sum_adjusted == b.sum_adjusted; }},
      {"victim-count", [](auto& a, auto& b) { return a.victim_count < b.victim_count; },
       [](auto& a, auto& b) { return a.victim_count == b.victim_count; }},
      {"start-time", [](auto& a, auto& b) { return a.earliest_start > b.earliest_start; },
       [](auto& a, auto& b) { return a.earliest_start == b.earliest_start; }},
  }};
  return k_criteria;
}

}  // namespace

Pick pick_candidate(const std::vector<CandidateRank>& ranks) {
  Pick out;
  out.lost.resize(ranks.size());
  std::vector<std::size_t> alive(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    alive[i] = i;
  }
  for (const Criterion& c : criteria()) {
    if (alive.size() <= 1) {
      break;
    }
    std::size_t best = alive.front();
    for (std::size_t i : alive) {
      if (c.better(ranks[i], ranks[best])) {
        best = i;
      }
    }
    std::vector<std::size_t> next;
    for (std::size_t i : alive) {
      if (c.equal(ranks[i], ranks[best])) {
        next.push_back(i);
      } else {
        out.lost[i] = c.name;
      }
    }
    if (next.size() == 1) {
      out.decided_by = c.name;
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
