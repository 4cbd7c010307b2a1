// SPDX-License-Identifier: Apache-2.0
// Kueue's quota arithmetic over cohort trees: ClusterQueues are the leaves, cohorts (named by
// a ClusterQueue or a Cohort object, with quota of their own) the inner nodes; the usage of
// admitted Workloads, and what a ClusterQueue may take (kubernetes-sigs/kueue v0.14.8 and
// v0.19.2 pkg/cache/scheduler/resource_node.go available, potentialAvailable, addUsage,
// removeUsage, QuantitiesFitInQuota; preemption/classical FindHeightOfLowestSubtreeThatFits).
#pragma once

#include "kpreempt/model/kueue.h"
#include "kpreempt/model/time.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace kpreempt::policy::kueue {

// A (flavor, resource) pair, Kueue's FlavorResource.
struct FR {
  std::string flavor, resource;
  friend auto operator<=>(const FR&, const FR&) = default;
};
using FRAmounts = std::map<FR, std::int64_t>;
using FRSet = std::set<FR>;

// A node's own quota for a pair. On a cohort the limits apply towards its parent.
struct Quota {
  std::int64_t nominal = 0;
  std::optional<std::int64_t> borrowing_limit, lending_limit;
};

// An admitted Workload (holds quota): its ClusterQueue and what it uses.
struct Admitted {
  std::uint32_t workload = 0;  // index into KueueObjects::workloads
  std::size_t cq = 0;
  FRAmounts usage;
  FRSet uses;  // pairs named by its podSetAssignments' flavors
};

// How high up the tree a request has to go (FindHeightOfLowestSubtreeThatFits): the height of
// the lowest subtree holding it (0: the ClusterQueue itself), and whether that subtree is
// smaller than the whole tree, which lets a request above nominal look for workloads to
// reclaim (mayReclaimInHierarchy).
struct SubtreeFit {
  int level = 0;
  bool may_reclaim = false;
};

// Nodes are numbered ClusterQueues first (0 .. cq_count()-1, in input order, so a
// ClusterQueue's index is its node), then cohorts. A cohort whose chain of parents reaches a
// cycle is cut off, and the ClusterQueues below it are inactive, as upstream leaves both out
// of its snapshot.
class QuotaModel {
 public:
  explicit QuotaModel(const model::KueueObjects& k);

  std::size_t cq_count() const { return m_cqs.size(); }
  std::size_t node_count() const { return m_nodes.size(); }
  std::optional<std::size_t> find_cq(std::string_view name) const;
  const model::ClusterQueue& cq(std::size_t i) const { return *m_cqs[i]; }
  const std::string& name(std::size_t node) const { return m_nodes[node].name; }
  bool is_cq(std::size_t node) const { return node < m_cqs.size(); }
  bool has_parent(std::size_t node) const { return m_nodes[node].parent.has_value(); }
  std::optional<std::size_t> parent(std::size_t node) const { return m_nodes[node].parent; }
  // The cohorts above the node, from its parent to the root.
  std::vector<std::size_t> ancestors(std::size_t node) const;
  // Every ClusterQueue of i's cohort tree, i included, in input order (only i without one).
  std::vector<std::size_t> tree_cqs(std::size_t i) const;
  // The cohorts of i's tree in input order, the ones on i's path to the root first.
  std::vector<std::size_t> tree_cohorts(std::size_t i) const;
  // Whether i's tree has more than one cohort or a cohort with quota of its own: a flat
  // cohort's explanation needs only its ClusterQueues.
  bool hierarchical(std::size_t i) const;
  // stopPolicy, a missing ResourceFlavor or a cycle above make a ClusterQueue inactive.
  bool active(std::size_t i) const { return m_active[i]; }
  const std::string& inactive_reason(std::size_t i) const { return m_inactive_reason[i]; }

  Quota quota(std::size_t node, const FR& fr) const;  // own quota; unlisted pair: nominal 0
  // The node's nominal plus what its children lend it (a ClusterQueue's is its nominal).
  std::int64_t subtree_quota(std::size_t node, const FR& fr) const;
  // The part of the subtree quota its lending limit keeps from the parent.
  std::int64_t local_quota(std::size_t node, const FR& fr) const;
  // A ClusterQueue's usage, or what a cohort's children use beyond their local quota.
  std::int64_t usage(std::size_t node, const FR& fr) const;
  std::int64_t local_available(std::size_t node, const FR& fr) const;
  // What the ClusterQueue may still take, 0 when the tree is over-admitted.
  std::int64_t available(std::size_t i, const FR& fr) const;
  // The most the ClusterQueue (or cohort) could take with no usage anywhere
  // (potentialAvailable).
  std::int64_t potential_max(std::size_t i, const FR& fr) const;
  bool borrows_with(std::size_t node, const FR& fr, std::int64_t v) const;
  // IsWithinNominalInResources: usage within the subtree quota in every pair of `frs`.
  bool within_nominal(std::size_t node, const FRSet& frs) const;
  bool over_nominal(std::size_t node, const FRSet& frs) const { return !within_nominal(node, frs); }
  // QuantitiesFitInQuota: whether the requests fit the node's subtree quota; `remaining`
  // becomes what is left of them for the parent once the node's local quota is used.
  bool fits_in_quota(std::size_t node, const FRAmounts& requests, FRAmounts& remaining) const;
  SubtreeFit lowest_subtree_that_fits(std::size_t i, const FR& fr, std::int64_t v) const;

  const std::vector<Admitted>& admitted() const { return m_admitted; }
  void remove(const Admitted& a);
  void add(const Admitted& a);
  // The pairs of the node's subtree quota (SubtreeQuota's keys): every pair a node below lists,
  // zeros included.
  std::vector<FR> subtree_pairs(std::size_t node) const;
  // The active ClusterQueues and the cohorts directly below a cohort, in input order.
  const std::vector<std::size_t>& child_cqs(std::size_t node) const {
    return m_nodes[node].child_cqs;
  }
  const std::vector<std::size_t>& child_cohorts(std::size_t node) const {
    return m_nodes[node].child_cohorts;
  }
  // Every pair the ClusterQueue lists, in resource-group order.
  std::vector<FR> listed_pairs(std::size_t i) const;

 private:
  struct Node {
    std::string name;
    std::optional<std::size_t> parent;
    std::vector<std::size_t> child_cqs, child_cohorts;
    std::map<FR, Quota> quotas;
    FRAmounts subtree, usage;
    int height = 0;  // of a cohort: distance to its farthest leaf
  };
  void add_cluster_queues(const model::KueueObjects& k);
  void add_cohorts(const model::KueueObjects& k);
  std::size_t cohort_node(const std::string& name);
  void cut_cycles();
  void link_children();
  void sum_subtrees();
  void find_roots();
  void add_admitted(const model::KueueObjects& k, std::uint32_t index);
  void add_usage(std::size_t node, const FR& fr, std::int64_t v);
  void remove_usage(std::size_t node, const FR& fr, std::int64_t v);
  std::size_t root(std::size_t node) const { return m_root[node]; }

  std::vector<const model::ClusterQueue*> m_cqs;
  std::vector<Node> m_nodes;
  std::unordered_map<std::string, std::size_t> m_cohort_index;  // cohort name -> node
  std::vector<bool> m_active;
  std::vector<std::string> m_inactive_reason;
  std::vector<Admitted> m_admitted;
  std::vector<std::size_t> m_root;  // each node's tree root (itself at the top)
};

// Whether the Workload holds quota: QuotaReserved=True, not Finished, with an admission
// naming an existing ClusterQueue.
bool holds_quota(const model::Workload& w);
// QuotaReserved lastTransitionTime when true, else `now` (candidate ordering).
model::Instant quota_reserved_time(const model::Workload& w, model::Instant now);

}  // namespace kpreempt::policy::kueue
