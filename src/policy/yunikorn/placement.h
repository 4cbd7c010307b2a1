// SPDX-License-Identifier: Apache-2.0
// Queue configuration loading and application placement (apache/yunikorn-core v1.7.0
// pkg/scheduler/placement: provided, tag, fixed, user rules and the recovery rule).
#pragma once

#include "policy/yunikorn/cluster.h"

#include "kpreempt/model/objects.h"

#include <cstdint>

namespace kpreempt::policy::yunikorn {

// Fills c.queues (and has_config, preemption_enabled) from the dump's queue file, or from the
// built-in default configuration when there is none.
void load_queues(Cluster& c);

// The leaf queue the rules put the pod's application in, creating dynamic queues as the rules
// allow; the pod's Namespace annotations feed the tag rule (parentqueue) and set a dynamic
// leaf's guaranteed and max. No rule matched: a running pod goes to root.@recovery@, a pending
// one to root.default when that leaf exists; otherwise, or when a rule fails, k_no_queue
// (rejected).
std::uint32_t place(Cluster& c, const model::Pod& pod, bool running);

}  // namespace kpreempt::policy::yunikorn
