// SPDX-License-Identifier: Apache-2.0
// Victim importance and the choice among candidate nodes. Mirrors kubernetes/kubernetes
// pkg/scheduler/util/utils.go (MoreImportantPod, GetEarliestPodStartTime) and
// pkg/scheduler/framework/preemption/preemption.go pickOneNodeForPreemption, release v1.34.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/model/time.h"
#include "kpreempt/policy/policy.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace kpreempt::policy::common {

// status.startTime, or `now` for a pod without one (upstream reads the wall clock).
model::Instant start_time(const model::Pod& pod, model::Instant now);

// Most important first: higher priority, then earlier start. Upstream's sort is unstable;
// equal pods keep input order here so every run gives the same answer.
void sort_by_importance(const model::Snapshot& snap, model::Instant now,
                        std::vector<model::PodId>& pods);

// The numbers pickOneNodeForPreemption compares; `victims` most important first.
CandidateRank rank_of(const model::Snapshot& snap, model::Instant now,
                      const std::vector<model::PodId>& victims, std::int64_t pdb_violations);

struct Pick {
  std::size_t winner = 0;
  std::vector<std::optional<Criterion>> lost;  // per candidate: the criterion it lost on
  std::vector<std::size_t> tied;  // candidates still equal after every criterion (>= 2), or none
  std::optional<Criterion> decided_by;  // the criterion that left one candidate
};

// Criteria in the order of policy::criteria(): fewest PDB violations, lowest highest-victim
// priority, lowest sum of (priority + 2^31), fewest victims, latest earliest start among the
// highest-priority victims. Candidates still tied: upstream takes an arbitrary one; here the first
// (callers pass them in node-name order). `ranks` must not be empty.
Pick pick_candidate(const std::vector<CandidateRank>& ranks);

}  // namespace kpreempt::policy::common
