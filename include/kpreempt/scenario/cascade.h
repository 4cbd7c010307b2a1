// SPDX-License-Identifier: Apache-2.0
// A preemption cascade: every pending preemptor decided in queue order, each by the policy of
// its own scheduler and on the cluster the decisions before it left, round after round; between
// rounds the victims' owners bring them back (a ReplicaSet's or StatefulSet's pod, a Job's while
// its failures stay within the backoff limit, a DaemonSet's on its node) and evicted Workloads
// are queued again. It stops once a round evicts nobody, when a state repeats (a loop) or after
// the last round.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/render/cascade.h"
#include "kpreempt/scenario/sequence.h"

#include <cstddef>
#include <cstdint>
#include <functional>

namespace kpreempt::scenario {

struct CascadeOptions {
  std::size_t rounds = 20;
  // Evictions of a Job's pods it tolerates (spec.backoffLimit; the Job object is not read).
  std::int64_t backoff_limit = 6;
  model::Instant now;
};

// The run that decides a pod (or, with k_none, a Workload); nullptr: none takes it, it is left
// out of every round.
using RunFor =
    std::function<const SequenceRun*(const model::Snapshot&, model::PodId, std::uint32_t)>;

// Runs the cascade on `snap`; `snap` is as before when it returns.
render::Cascade run_cascade(model::Snapshot& snap, const CascadeOptions& o, const RunFor& run_for);

// The state a loop is found by: the pods bound on each node, the pending preemptors and the
// admitted Workloads, as one comparable text.
std::string cascade_state(const model::Snapshot& snap);

// What every cascade assumes, said with its answer.
std::vector<std::string> cascade_assumptions();

}  // namespace kpreempt::scenario
