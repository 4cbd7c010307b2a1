// SPDX-License-Identifier: Apache-2.0
// What `explain --victim` shares between choosing the victim and reading an eviction already
// under way.
#pragma once

#include "cli/explain_modes.h"

#include "kpreempt/model/kueue.h"
#include "kpreempt/model/objects.h"
#include "kpreempt/render/render.h"

namespace kpreempt::cli {

// The pod's DisruptionTarget condition when kube-scheduler set it to evict the pod
// (status True, reason PreemptionByScheduler), else null.
const model::PodCondition* preemption_condition(const model::Pod& pod);

// A pod is being evicted: terminating, or marked by the scheduler as a preemption victim.
bool eviction_under_way(const model::Pod& pod);

// A Workload Kueue evicted or preempted: an Evicted or Preempted condition with status True.
bool eviction_under_way(const model::Workload& w);

// The report's `under_way` for the victim when its eviction is under way: the conditions that
// say so and the preemptor(s) whose decision explains it. `batch` holds every pending
// preemptor explained, without per-node verdicts.
void add_under_way(const ExplainOptions& o, const model::Snapshot& snap, const Batch& batch,
                   render::VictimReport& r);

}  // namespace kpreempt::cli
