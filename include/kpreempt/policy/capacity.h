// SPDX-License-Identifier: Apache-2.0
// scheduler-plugins CapacityScheduling (v0.35): ElasticQuota admission in PreFilter and its own
// PostFilter preemption that reclaims quota borrowed beyond other namespaces' min.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/policy.h"

namespace kpreempt::policy {

Decision decide_capacity(const Input& in);

// Whether the dump holds an ElasticQuota of group scheduling.x-k8s.io (the only group current
// CapacityScheduling reads).
bool capacity_applies(const model::Snapshot& snap, model::PodId preemptor);

}  // namespace kpreempt::policy
