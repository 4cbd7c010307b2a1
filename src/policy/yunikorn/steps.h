// SPDX-License-Identifier: Apache-2.0
// The preemption steps once the preconditions hold: guarantee check, per-node victim lists,
// node choice, additional victims and the final trim; and the required-node (DaemonSet) path.
#pragma once

#include "policy/common/filters.h"
#include "policy/yunikorn/engine.h"
#include "policy/yunikorn/guarantee.h"

#include <string>

namespace kpreempt::policy::yunikorn {

// preemption.go TryPreemption: steps A-E. Fills t.outcome, reason, victims and node traces.
void general_preemption(const Cluster& c, const common::Filters& f, model::PodId ask, Trace& t);

// required_node_preemptor.go: evicts pods on the DaemonSet pod's own node.
void required_node_preemption(const Cluster& c, const common::Filters& f, model::PodId ask,
                              Trace& t);

// Internal to the steps: records an unschedulable outcome; runs steps D and E on t.node_victims.
void fail_with(Trace& t, Code reason, std::string detail);
// Whether a victim may come from queue q: v1.7 over its guarantee on some key (or none), v1.8
// over on a key the ask requests (isVictimQueueOverGuaranteed).
bool queue_over(const Cluster& c, const QueueSnapshots& s, std::uint32_t q, const Res& ask);
void finish(const Cluster& c, model::PodId ask, Trace& t);

}  // namespace kpreempt::policy::yunikorn
