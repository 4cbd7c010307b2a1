// SPDX-License-Identifier: Apache-2.0
// The kube-scheduler default-profile Filter plugins (v1.34), evaluated for one preemptor on one
// node as a preemption dry run sees it: bound pods minus the ones taken off, plus nominated pods.
#pragma once

#include "kpreempt/model/objects.h"
#include "kpreempt/model/resources.h"
#include "kpreempt/model/snapshot.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace kpreempt::policy::common {

// framework.Status codes a filter can return (Error is reported by the callers).
enum class Code { success, unschedulable, unresolvable };

struct FilterStatus {
  Code code = Code::success;
  std::string_view plugin;  // "NodeResourcesFit": always a literal, so never allocated
  std::string detail;       // upstream's reason text: "Insufficient cpu, Too many pods"
  bool ok() const { return code == Code::success; }
};

// One simulated node: its bound pods minus `removed`, plus `added` (pending pods treated as
// running there). The snapshot itself is never copied or changed.
struct NodeView {
  model::NodeId node = model::k_none;
  std::vector<model::PodId> removed;
  std::vector<model::PodId> added;

  bool is_removed(model::PodId id) const;
};

class TopologySpread;
class InterPodAffinity;

// PreFilter state for one preemptor, computed once over the whole snapshot; filter() then runs
// the plugins on a NodeView in the default profile's order and stops at the first failure.
class Filters {
 public:
  // `rules`: how bound pods' resize status enters NodeResourcesFit (the default reads spec
  // requests only, for schedulers that do not run the Kubernetes line's PodRequests).
  Filters(const model::Snapshot& snap, model::PodId preemptor,
          const model::RequestRules& rules = model::RequestRules{});
  ~Filters();
  Filters(const Filters&) = delete;
  Filters& operator=(const Filters&) = delete;

  // RunFilterPlugins.
  FilterStatus run(const NodeView& view) const;
  // RunFilterPluginsWithNominatedPods: first with the node's nominated pods of priority >= the
  // preemptor's added, then (only if some were added and that passed) without them.
  FilterStatus run_with_nominated(NodeView view) const;
  // The node's nominated pods that run_with_nominated adds, in input order.
  std::vector<model::PodId> nominated_counted(model::NodeId node) const;

  // A PreFilter result that excludes the node (NodeAffinity's metadata.name set): the node is
  // never filtered and counts as UnschedulableAndUnresolvable.
  std::optional<FilterStatus> prefilter_rejects(model::NodeId node) const;

  const model::Snapshot& snapshot() const { return m_snap; }
  model::PodId preemptor() const { return m_preemptor; }
  std::int32_t priority() const { return m_priority; }
  // Things about the input the user should know ("namespaceSelector treated as ...").
  const std::vector<std::string>& warnings() const { return m_warnings; }
  // A pod's requests as NodeResourcesFit counts them: the resize-aware ones for a bound pod
  // whose status changes them, else the snapshot's.
  const model::Resources& requests(model::PodId pod) const;
  // Bound pods whose requests differ from their spec under the rules, in id order.
  const model::ResizedRequests& resized() const {
    static const model::ResizedRequests none;
    return m_resized ? *m_resized : none;
  }

 private:
  FilterStatus node_unschedulable(const model::Node& node) const;
  FilterStatus taint_toleration(const model::Node& node) const;
  FilterStatus node_affinity(const model::Node& node) const;
  // The filters that read the node alone, in profile order: NodeUnschedulable, NodeName,
  // TaintToleration, NodeAffinity.
  FilterStatus node_level(const model::Node& node) const;
  FilterStatus node_ports(const NodeView& view) const;
  FilterStatus resources_fit(const NodeView& view) const;
  void compute_prefilter_node_names();

  const model::Snapshot& m_snap;
  model::PodId m_preemptor;
  const model::Pod& m_pod;
  std::int32_t m_priority;
  std::vector<model::HostPort> m_ports;  // the preemptor's host ports
  // node_level() per node, judged once: a dry run filters the same node many times, and
  // only the filters that look at its pods can change their answer.
  std::vector<FilterStatus> m_node_level;
  bool m_prefilter_conflict = false;  // terms name disjoint node sets
  std::optional<std::unordered_set<std::string>> m_prefilter_names;
  std::unique_ptr<TopologySpread> m_spread;
  std::unique_ptr<InterPodAffinity> m_affinity;
  std::vector<std::string> m_warnings;
  std::shared_ptr<const model::ResizedRequests> m_resized;  // null: the snapshot's requests
  std::vector<bool> m_node_resized;  // by node id: a pod of it is in m_resized
};

// Pods of `view`'s node that are present in the simulation, bound pods first (input order).
std::vector<model::PodId> present_pods(const model::Snapshot& snap, const NodeView& view);

}  // namespace kpreempt::policy::common
