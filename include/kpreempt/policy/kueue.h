// SPDX-License-Identifier: Apache-2.0
// Kueue classical workload preemption (kubernetes-sigs/kueue v0.14 and v0.19): quota-level
// victims (whole Workloads) inside a ClusterQueue by priority and across its cohort tree
// (Cohort objects with parents and quota of their own) to reclaim nominal quota. Fair sharing
// is not modelled.
//
// The preemptor is a pending Workload (Input::workload) or a Pod labelled
// kueue.x-k8s.io/queue-name, explained as the one-pod-set Workload Kueue would create.
// Decision::victims are kind Workload with `queue` = their ClusterQueue and `reason` =
// Kueue's InClusterQueue / InCohortReclamation / InCohortReclaimWhileBorrowing.
// Decision::nodes holds one NodeVerdict per ClusterQueue considered (node = ClusterQueue
// name), each with one PodVerdict per admitted Workload of that queue (pod.kind "Workload")
// saying why it is or is not a victim. Decision::tables holds the quota table and
// Decision::details the flavor assignment and quota numbers.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/policy.h"

namespace kpreempt::policy {

Decision decide_kueue(const Input& in);

// Whether Kueue manages the pod (it carries kueue.x-k8s.io/queue-name).
bool kueue_applies(const model::Snapshot& snap, model::PodId preemptor);

}  // namespace kpreempt::policy
