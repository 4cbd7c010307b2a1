// SPDX-License-Identifier: Apache-2.0
// Applies what a decision does to a snapshot, in place, so that the next decision sees it:
// a pod bound to its node, victims gone, a budget's disruption used, a Workload admitted or
// evicted. Each change touches only the objects and node tables concerned, never the whole
// snapshot, and undo() puts back everything an edit changed.
#pragma once

#include "kpreempt/model/kueue.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/model/time.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kpreempt::model {

class SnapshotEdit {
 public:
  explicit SnapshotEdit(Snapshot& snap) : m_snap(snap) {}
  SnapshotEdit(const SnapshotEdit&) = delete;
  SnapshotEdit& operator=(const SnapshotEdit&) = delete;
  ~SnapshotEdit() { undo(); }

  // The pending pod runs on the node from `now`: spec.nodeName set, phase Running, its
  // nomination gone.
  void bind(PodId pod, NodeId node, Instant now);
  // The pod is deleted: off its node (or its nomination), finished for every policy.
  void remove(PodId pod);
  // A removed pod made again by its owner (a ReplicaSet, StatefulSet, Job or DaemonSet), same
  // name and spec: pending from `now`, off every node, queued at `now`.
  void repend(PodId pod, Instant now);
  // A pending pod nominated elsewhere loses its nomination (the scheduler clears those of
  // lower priority on a node it nominates a preemptor to).
  void clear_nomination(PodId pod);
  // A PodDisruptionBudget allows one disruption fewer (the disruption controller's count once
  // a selected pod is gone), never below zero.
  void use_disruption(std::uint32_t pdb);
  // The Workload holds quota in `cluster_queue` with these assignments from `now`.
  void admit(std::uint32_t workload, const std::string& cluster_queue,
             std::vector<KueuePodSetAssignment> assignments, Instant now);
  // A Workload Kueue makes for a pod it admits (pod integration); returns its index.
  std::uint32_t add(Workload w);
  // The Workload gives its quota back: evicted by preemption at `now`.
  void evict(std::uint32_t workload, Instant now);

  // Puts back every change, newest first.
  void undo();

 private:
  void save_node(NodeId node);
  void save_pod(PodId pod);
  void unlist(std::vector<PodId>& list, PodId pod);

  Snapshot& m_snap;
  std::vector<std::function<void()>> m_undo;
};

}  // namespace kpreempt::model
