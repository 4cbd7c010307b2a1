// SPDX-License-Identifier: Apache-2.0
// Koordinator koord-scheduler: ElasticQuota admission and pod-level preemption, and the
// Coscheduling plugin's job-level (all-or-nothing) preemption behind enablePreemption.
#pragma once

#include "kpreempt/policy/policy.h"

namespace kpreempt::policy {

Decision decide_koordinator(const Input& in);

// Whether `--policy all` runs it: scheduling.sigs.k8s.io ElasticQuotas exist, or the pod
// belongs to a gang.
bool koordinator_applies(const model::Snapshot& snap, model::PodId preemptor);

}  // namespace kpreempt::policy
