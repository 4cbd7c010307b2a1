// SPDX-License-Identifier: Apache-2.0
// Apache YuniKorn (yunikorn-core v1.7.0 with the k8s shim in standard mode): preemption that
// brings a queue up to its guaranteed resources, within priority and preemption fences.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/classes.h"
#include "kpreempt/policy/policy.h"

namespace kpreempt::policy {

Decision decide_yunikorn(const Input& in);

// Whether `--policy all` runs it: a queue configuration is present and the pod is YuniKorn's
// (schedulerName yunikorn, or the admission controller's application/queue labels).
bool yunikorn_applies(const model::Snapshot& snap, model::PodId preemptor);

extern const ClassRules k_yunikorn_class_rules;

}  // namespace kpreempt::policy
