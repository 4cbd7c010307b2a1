// SPDX-License-Identifier: Apache-2.0
#include "kpreempt/model/snapshot_edit.h"

#include "kpreempt/model/resources.h"

#include <algorithm>
#include <utility>

namespace kpreempt::model {
namespace {

void set_condition(Workload& w, const std::string& type, const std::string& status,
                   const std::string& reason, Instant now) {
  for (KueueCondition& c : w.conditions) {
    if (c.type == type) {
      c = {type, status, reason, now, {}};
      return;
    }
  }
  w.conditions.push_back({type, status, reason, now, {}});
}

}  // namespace

// Restores the node's lists; its derived facts are recomputed from them.
void SnapshotEdit::save_node(NodeId node) {
  m_undo.emplace_back([this, node, pods = m_snap.m_pods_on[node],
                       nominated = m_snap.m_nominated_to[node]]() mutable {
    m_snap.m_pods_on[node] = std::move(pods);
    m_snap.m_nominated_to[node] = std::move(nominated);
    m_snap.rederive_node(node);
  });
}

void SnapshotEdit::save_pod(PodId pod) {
  m_undo.emplace_back([this, pod, old = m_snap.m_pods[pod], facts = m_snap.m_facts[pod]]() mutable {
    m_snap.m_pods[pod] = std::move(old);
    m_snap.m_facts[pod] = facts;
  });
}

void SnapshotEdit::unlist(std::vector<PodId>& list, PodId pod) {
  list.erase(std::remove(list.begin(), list.end(), pod), list.end());
}

void SnapshotEdit::clear_nomination(PodId pod) {
  Pod& p = m_snap.m_pods[pod];
  if (p.nominated_node_name.empty()) {
    return;
  }
  if (auto node = m_snap.find_node(p.nominated_node_name)) {
    save_node(*node);
    unlist(m_snap.m_nominated_to[*node], pod);
  }
  save_pod(pod);
  p.nominated_node_name.clear();
}

void SnapshotEdit::bind(PodId pod, NodeId node, Instant now) {
  clear_nomination(pod);
  const Pod& before = m_snap.m_pods[pod];
  if (has_resize_status(before) || !before.pod_level_requests.empty()) {
    // Its requests under some release line's rules may differ from its facts: a bound pod
    // of that kind belongs in Snapshot::resized_requests().
    m_snap.m_derived.requests.forget();
    m_undo.emplace_back([this] { m_snap.m_derived.requests.forget(); });
  }
  // Undone newest first: the node's tables are rebuilt while the pod is still bound there.
  save_pod(pod);
  save_node(node);
  Pod& p = m_snap.m_pods[pod];
  p.node_name = m_snap.m_nodes[node].name;
  p.phase = "Running";
  p.start_time = now;
  if (!p.creation_timestamp) {
    p.creation_timestamp = now;
  }
  m_snap.m_facts[pod].node = node;
  // Pods of a node are listed in input order.
  std::vector<PodId>& on = m_snap.m_pods_on[node];
  on.insert(std::upper_bound(on.begin(), on.end(), pod), pod);
  m_snap.rederive_node(node);
}

void SnapshotEdit::remove(PodId pod) {
  clear_nomination(pod);
  save_pod(pod);
  const NodeId node = m_snap.m_facts[pod].node;
  if (node != k_none && !m_snap.m_pods[pod].terminal()) {
    save_node(node);
    unlist(m_snap.m_pods_on[node], pod);
  }
  // Finished pods hold nothing anywhere; every policy already leaves them out.
  m_snap.m_pods[pod].phase = "Failed";
  if (node != k_none) {
    m_snap.rederive_node(node);
  }
}

void SnapshotEdit::repend(PodId pod, Instant now) {
  save_pod(pod);
  const NodeId node = m_snap.m_facts[pod].node;
  Pod& p = m_snap.m_pods[pod];
  if (node != k_none && !p.terminal()) {
    save_node(node);
    unlist(m_snap.m_pods_on[node], pod);
  }
  clear_nomination(pod);
  p.node_name.clear();
  p.phase = "Pending";
  p.start_time.reset();
  p.deletion_timestamp.reset();
  p.creation_timestamp = now;
  m_snap.m_facts[pod].node = k_none;
  if (node != k_none) {
    m_snap.rederive_node(node);
  }
}

void SnapshotEdit::use_disruption(std::uint32_t pdb) {
  PodDisruptionBudget& b = m_snap.m_pdbs[pdb];
  m_undo.emplace_back(
      [this, pdb, old = b.disruptions_allowed] { m_snap.m_pdbs[pdb].disruptions_allowed = old; });
  b.disruptions_allowed = std::max(0, b.disruptions_allowed - 1);
}

void SnapshotEdit::admit(std::uint32_t workload, const std::string& cluster_queue,
                         std::vector<KueuePodSetAssignment> assignments, Instant now) {
  Workload& w = m_snap.m_kueue.workloads[workload];
  m_undo.emplace_back(
      [this, workload, old = w]() mutable { m_snap.m_kueue.workloads[workload] = std::move(old); });
  w.admitted = true;
  w.admission_cluster_queue = cluster_queue;
  w.assignments = std::move(assignments);
  set_condition(w, "QuotaReserved", "True", "QuotaReserved", now);
  set_condition(w, "Admitted", "True", "Admitted", now);
}

std::uint32_t SnapshotEdit::add(Workload w) {
  std::vector<Workload>& all = m_snap.m_kueue.workloads;
  all.push_back(std::move(w));
  m_undo.emplace_back([this] { m_snap.m_kueue.workloads.pop_back(); });
  return static_cast<std::uint32_t>(all.size() - 1);
}

void SnapshotEdit::evict(std::uint32_t workload, Instant now) {
  Workload& w = m_snap.m_kueue.workloads[workload];
  m_undo.emplace_back(
      [this, workload, old = w]() mutable { m_snap.m_kueue.workloads[workload] = std::move(old); });
  w.admitted = false;
  w.admission_cluster_queue.clear();
  w.assignments.clear();
  set_condition(w, "QuotaReserved", "False", "Preempted", now);
  set_condition(w, "Admitted", "False", "Preempted", now);
  set_condition(w, "Evicted", "True", "Preempted", now);
}

void SnapshotEdit::set_priority(PodId pod, std::int32_t value) {
  save_pod(pod);
  m_snap.m_pods[pod].priority = value;
  m_snap.m_facts[pod].priority = value;
}

void SnapshotEdit::set_class_value(std::uint32_t priority_class, std::int32_t value) {
  PriorityClass& c = m_snap.m_classes[priority_class];
  assign(c.value, value);
  // A class may hold most pods of a cluster: only their priorities are saved, in one entry.
  struct Saved {
    PodId pod;
    std::optional<std::int32_t> spec;
    std::int32_t fact;
  };
  std::vector<Saved> saved;
  for (PodId id = 0; id < m_snap.m_pods.size(); ++id) {
    Pod& p = m_snap.m_pods[id];
    if (p.priority_class_name == c.name) {
      saved.push_back({id, p.priority, m_snap.m_facts[id].priority});
      p.priority = value;
      m_snap.m_facts[id].priority = value;
    }
  }
  m_undo.emplace_back([this, saved = std::move(saved)] {
    for (const Saved& s : saved) {
      m_snap.m_pods[s.pod].priority = s.spec;
      m_snap.m_facts[s.pod].priority = s.fact;
    }
  });
}

void SnapshotEdit::set_preempt_never(PodId pod, bool never) {
  save_pod(pod);
  m_snap.m_pods[pod].preemption_policy = never ? "Never" : "PreemptLowerPriority";
  m_snap.m_facts[pod].preempt_never = never;
}

void SnapshotEdit::set_annotation(PodId pod, const std::string& key, const std::string& value) {
  save_pod(pod);
  set(m_snap.m_pods[pod].annotations, key, value);
}

void SnapshotEdit::set_request(PodId pod, const std::string& resource, std::int64_t total) {
  save_pod(pod);
  Pod& p = m_snap.m_pods[pod];
  const bool cpu = resource == "cpu";
  auto amount = [&](const Container& c) {
    const Quantity q = get(c.requests, resource);
    return cpu ? q.milli() : q.value_ceil();
  };
  Container* holder = nullptr;
  std::int64_t others = 0;
  for (Container& c : p.containers) {
    if (holder == nullptr || amount(c) > amount(*holder)) {
      holder = &c;
    }
    others += amount(c);
  }
  if (holder == nullptr) {
    return;
  }
  others -= amount(*holder);
  const std::int64_t own = std::max<std::int64_t>(0, total - others);
  const Quantity q = cpu ? Quantity::from_milli(own) : Quantity::from_units(own);
  auto it = std::find_if(holder->requests.begin(), holder->requests.end(),
                         [&](const auto& r) { return r.first == resource; });
  if (it != holder->requests.end()) {
    it->second = q;
  } else {
    holder->requests.emplace_back(resource, q);
  }
  // A pending pod is in no node's sums, so nothing derived changes with it.
  m_snap.m_facts[pod].requests = pod_requests(p);
}

void SnapshotEdit::set_unschedulable(NodeId node, bool unschedulable) {
  Node& n = m_snap.m_nodes[node];
  assign(n.unschedulable, unschedulable);
  if (!unschedulable) {
    // The node lifecycle controller takes its cordon taint off with the cordon.
    std::vector<Taint> taints = n.taints;
    std::erase_if(taints, [](const Taint& t) {
      return t.key == "node.kubernetes.io/unschedulable" && t.effect == "NoSchedule";
    });
    assign(n.taints, std::move(taints));
  }
}

void SnapshotEdit::set_disruptions_allowed(std::uint32_t pdb, std::int32_t value) {
  assign(m_snap.m_pdbs[pdb].disruptions_allowed, value);
}

void SnapshotEdit::undo() {
  while (!m_undo.empty()) {
    m_undo.back()();
    m_undo.pop_back();
  }
}

}  // namespace kpreempt::model
