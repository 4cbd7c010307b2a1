// SPDX-License-Identifier: Apache-2.0
// Preemptors decided one after another, each on the cluster as the earlier decisions left it:
// the pods of a workload in the order its controller creates them, or every pending pod in
// the scheduling queue's order.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/model/snapshot_edit.h"
#include "kpreempt/policy/lines.h"
#include "kpreempt/policy/policy.h"
#include "kpreempt/render/render.h"

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kpreempt::scenario {

// One policy's run: its entry, args and line, as `explain` resolves them.
struct SequenceRun {
  const policy::Entry& entry;
  const policy::Args& args;
  policy::LineChoice line;
  model::Instant now;
  bool pod_verdicts = true;  // Input::pod_verdicts
};

// The scheduling queue's order: higher priority first, then the earlier queue time (creation,
// or a Workload's requeue after eviction), then input order. Sorts `items` in place.
void sort_queue_order(const model::Snapshot& snap, std::vector<render::Explanation>& items);

// Decides every item `takes` marks with the run's policy, in order, each after the decisions
// before it were applied to `snap`; appends each decision to its item. `snap` is as before
// when it returns.
render::SequenceSummary decide_in_sequence(model::Snapshot& snap, const SequenceRun& run,
                                           std::vector<render::Explanation>& items,
                                           const std::vector<bool>& takes);

// What the steps of one pass have decided so far that later steps share: the pods decided
// with an earlier step as one gang (a Kueue pod group's, a Koordinator gang's job-level
// placement), each with that step and the node it placed the pod on (k_none: no node).
struct SequenceState {
  std::map<model::PodId, std::pair<std::size_t, model::NodeId>> shared;
};

// Decides items[i] with the run's policy on `snap` as it is, applies the decision through
// `edit` (the caller's: the change lasts until it undoes) and appends it to the item and a step
// to `summary`. False when it shares the decision of an earlier step (its gang's), which was
// applied then. decide_in_sequence is this over every item it takes, with its own edit.
bool decide_step(model::Snapshot& snap, model::SnapshotEdit& edit, const SequenceRun& run,
                 std::vector<render::Explanation>& items, std::size_t i, SequenceState& state,
                 render::SequenceSummary& summary);

// Every pending preemptor of the snapshot, each to be explained at `now`: pods waiting for a
// node (unbound, not finished, not terminating), then active Workloads not admitted (a
// deactivated one is not queued), each in input order.
std::vector<render::Explanation> pending_preemptors(const model::Snapshot& snap,
                                                    model::Instant now);

// What every sequence assumes, said with its answer.
std::vector<std::string> sequence_assumptions();

}  // namespace kpreempt::scenario
