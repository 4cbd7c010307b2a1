// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread's DoNotSchedule filter over a simulated node. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/podtopologyspread/filtering.go and common.go, release v1.34.
#include "policy/common/topology_spread.h"

#include "kpreempt/model/match.h"

#include <algorithm>

namespace kpreempt::policy::common {
namespace {

// matchLabelKeys: each key the pod carries becomes `key In (value)` in the selector.
model::LabelSelector merged_selector(const model::TopologySpreadConstraint& c,
                                     const model::Pod& pod) {
  model::LabelSelector sel = c.label_selector;
  if (!sel.present) {
    return sel;
  }
  for (const std::string& key : c.match_label_keys) {
    if (const std::string* v = model::find(pod.labels, key)) {
      sel.match_expressions.push_back(model::Requirement{key, "In", {*v}});
    }
  }
  return sel;
}

}  // namespace

TopologySpread::TopologySpread(const model::Snapshot& snap, const model::Pod& preemptor)
    : m_snap(snap), m_pod(preemptor) {
  for (const model::TopologySpreadConstraint& c : preemptor.topology_spread) {
    if (c.when_unsatisfiable != "DoNotSchedule") {
      continue;
    }
    Constraint k;
    k.max_skew = c.max_skew;
    k.key = c.topology_key;
    k.selector = merged_selector(c, preemptor);
    k.min_domains = c.min_domains.value_or(1);
    k.honor_affinity = c.node_affinity_policy != "Ignore";
    k.honor_taints = c.node_taints_policy == "Honor";
    k.self_match = model::matches(k.selector, preemptor.labels);
    m_constraints.push_back(std::move(k));
  }
  if (m_constraints.empty()) {
    return;
  }
  for (model::NodeId id = 0; id < snap.nodes().size(); ++id) {
    count_node(id);
  }
  for (Constraint& c : m_constraints) {
    for (const auto& [value, count] : c.counts) {
      if (count < c.min_count) {
        c.second_count = c.min_count;
        c.min_count = count;
        c.min_value = value;
      } else if (count < c.second_count) {
        c.second_count = count;
      }
    }
  }
}

bool TopologySpread::has_all_keys(const model::Node& node) const {
  return std::all_of(m_constraints.begin(), m_constraints.end(), [&](const Constraint& c) {
    return model::find(node.labels, c.key) != nullptr;
  });
}

// Node inclusion policies (v1.33+ always on): nodeAffinityPolicy Honor counts only nodes the
// pod's nodeSelector / required affinity accept, nodeTaintsPolicy Honor only tolerated nodes.
bool TopologySpread::included(const Constraint& c, const model::Node& node) const {
  if (c.honor_affinity && !model::matches_node_affinity(m_pod, node)) {
    return false;
  }
  return !c.honor_taints || model::first_untolerated(m_pod.tolerations, node.taints) == nullptr;
}

bool TopologySpread::counts_for(const Constraint& c, const model::Pod& pod) const {
  return pod.namespace_ == m_pod.namespace_ && model::matches(c.selector, pod.labels);
}

void TopologySpread::count_node(model::NodeId id) {
  const model::Node& node = m_snap.nodes()[id];
  if (!has_all_keys(node)) {
    return;
  }
  for (Constraint& c : m_constraints) {
    if (!included(c, node)) {
      continue;
    }
    std::int64_t& count = c.counts[*model::find(node.labels, c.key)];
    for (model::PodId p : m_snap.pods_on(id)) {
      const model::Pod& pod = m_snap.pods()[p];
      // PreFilter skips terminating pods ...
      if (!pod.terminating() && counts_for(c, pod)) {
        ++count;
      }
    }
  }
}

FilterStatus TopologySpread::filter(const NodeView& view) const {
  const model::Node& node = m_snap.nodes()[view.node];
  const bool all_keys = has_all_keys(node);
  for (const Constraint& c : m_constraints) {
    const std::string* value = model::find(node.labels, c.key);
    if (value == nullptr) {
      return {Code::unresolvable, "PodTopologySpread",
              "node(s) didn't match pod topology spread constraints (missing required label)"};
    }
    auto it = c.counts.find(*value);
    std::int64_t match = it == c.counts.end() ? 0 : it->second;
    std::int64_t min = c.min_count;
    if (all_keys && included(c, node)) {
      // ... but RemovePod/AddPod do not: removing a terminating victim still lowers the count.
      for (model::PodId p : view.removed) {
        match -= counts_for(c, m_snap.pods()[p]) ? 1 : 0;
      }
      for (model::PodId p : view.added) {
        match += counts_for(c, m_snap.pods()[p]) ? 1 : 0;
      }
      // criticalPaths always keep the smallest other domain, so only this one can move.
      const std::int64_t others = *value == c.min_value ? c.second_count : c.min_count;
      min = std::min(others, match);
    }
    if (static_cast<std::int64_t>(c.counts.size()) < c.min_domains) {
      min = 0;  // fewer eligible domains than minDomains: the global minimum is 0
    }
    const std::int64_t skew = match + (c.self_match ? 1 : 0) - min;
    if (skew > c.max_skew) {
      return {Code::unschedulable, "PodTopologySpread",
              "node(s) didn't match pod topology spread constraints"};
    }
  }
  return {};
}

}  // namespace kpreempt::policy::common
