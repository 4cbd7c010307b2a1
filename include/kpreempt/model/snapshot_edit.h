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

  // Knobs a what-if turns (`advise`): one field of one object, as if the objects were
  // written so. Pods take a changed priority as a recreated pod would.

  // The pod's priority (spec.priority, and every policy's reading of it).
  void set_priority(PodId pod, std::int32_t value);
  // A PriorityClass's value, and the priority of every pod that names the class.
  void set_class_value(std::uint32_t priority_class, std::int32_t value);
  // The pod's preemptionPolicy: Never, or PreemptLowerPriority.
  void set_preempt_never(PodId pod, bool never);
  // One annotation of a pod (a policy reads it from the pod, as YuniKorn's allow-preemption).
  void set_annotation(PodId pod, const std::string& key, const std::string& value);
  // One resource request of a pending pod, in scheduler units (cpu in milli-cores), held by
  // its container with the largest request of it (the others keep theirs).
  void set_request(PodId pod, const std::string& resource, std::int64_t total);
  // A node's spec.unschedulable (cordon); uncordoned, it loses the cordon taint too.
  void set_unschedulable(NodeId node, bool unschedulable);
  // A budget's status.disruptionsAllowed, as its controller would compute it after a spec
  // change.
  void set_disruptions_allowed(std::uint32_t pdb, std::int32_t value);
  // Any other field of an object of the stores below, restored by undo(). Only for fields no
  // derived table of the snapshot depends on (quotas, queue settings, class annotations).
  template <class T>
  void assign(T& field, T value) {
    m_undo.emplace_back([&field, old = field]() mutable { field = std::move(old); });
    field = std::move(value);
  }
  KueueObjects& kueue() { return m_snap.m_kueue; }
  YunikornObjects& yunikorn() { return m_snap.m_yunikorn; }
  CapacityObjects& capacity() { return m_snap.m_capacity; }
  KoordinatorObjects& koordinator() { return m_snap.m_koordinator; }
  std::vector<PriorityClass>& priority_classes() { return m_snap.m_classes; }

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
