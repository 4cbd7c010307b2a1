// SPDX-License-Identifier: Apache-2.0
// The default profile's Filter plugins in order, and RunFilterPluginsWithNominatedPods. Mirrors
// kubernetes/kubernetes pkg/scheduler/framework/plugins/{nodeunschedulable,nodename,
// tainttoleration,nodeaffinity,nodeports,noderesources/fit.go} and
// pkg/scheduler/framework/runtime/framework.go, release v1.34.
#include "policy/common/filters.h"

#include "policy/common/inter_pod_affinity.h"
#include "policy/common/topology_spread.h"

#include "kpreempt/model/match.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::common {
namespace {

std::string_view or_default(std::string_view s, std::string_view fallback) {
  return s.empty() ? fallback : s;
}

// HostPortInfo.CheckConflict: 0.0.0.0 conflicts with every address.
bool ports_conflict(const model::HostPort& a, const model::HostPort& b) {
  if (a.port != b.port || or_default(a.protocol, "TCP") != or_default(b.protocol, "TCP")) {
    return false;
  }
  const std::string_view ip_a = or_default(a.host_ip, "0.0.0.0");
  const std::string_view ip_b = or_default(b.host_ip, "0.0.0.0");
  return ip_a == "0.0.0.0" || ip_b == "0.0.0.0" || ip_a == ip_b;
}

std::vector<model::HostPort> host_ports(const model::Pod& pod) {
  std::vector<model::HostPort> out;
  for (const model::Container& c : pod.containers) {
    for (const model::HostPort& p : c.host_ports) {
      if (p.port > 0) {
        out.push_back(p);
      }
    }
  }
  return out;
}

}  // namespace

bool NodeView::is_removed(model::PodId id) const {
  return std::find(removed.begin(), removed.end(), id) != removed.end();
}

std::vector<model::PodId> present_pods(const model::Snapshot& snap, const NodeView& view) {
  std::vector<model::PodId> out;
  for (model::PodId p : snap.pods_on(view.node)) {
    if (!view.is_removed(p)) {
      out.push_back(p);
    }
  }
  out.insert(out.end(), view.added.begin(), view.added.end());
  return out;
}

Filters::Filters(const model::Snapshot& snap, model::PodId preemptor,
                 const model::RequestRules& rules)
    : m_snap(snap),
      m_preemptor(preemptor),
      m_pod(snap.pods()[preemptor]),
      m_priority(snap.facts(preemptor).priority),
      m_node_resized(snap.nodes().size(), false) {
  if (!(rules == model::RequestRules{})) {
    m_resized = snap.resized_requests(rules);
    for (const auto& [p, requests] : *m_resized) {
      m_node_resized[snap.facts(p).node] = true;
    }
  }
  m_ports = host_ports(m_pod);
  m_node_level.reserve(snap.nodes().size());
  for (const model::Node& n : snap.nodes()) {
    m_node_level.push_back(node_level(n));
  }
  compute_prefilter_node_names();
  m_spread = std::make_unique<TopologySpread>(snap, m_pod);
  m_affinity = std::make_unique<InterPodAffinity>(snap, m_pod, m_warnings);
}

Filters::~Filters() = default;

const model::Resources& Filters::requests(model::PodId pod) const {
  if (!m_resized) {
    return m_snap.facts(pod).requests;
  }
  const auto it = std::lower_bound(m_resized->begin(), m_resized->end(), pod,
                                   [](const auto& e, model::PodId p) { return e.first < p; });
  return it != m_resized->end() && it->first == pod ? it->second : m_snap.facts(pod).requests;
}

// NodeAffinity PreFilter: when every required term names nodes with `metadata.name In`, only
// the union of those names is filtered at all.
void Filters::compute_prefilter_node_names() {
  if (!m_pod.has_required_node_affinity) {
    return;
  }
  std::unordered_set<std::string> names;
  for (const model::NodeSelectorTerm& term : m_pod.required_node_affinity) {
    std::optional<std::unordered_set<std::string>> term_names;
    for (const model::Requirement& r : term.match_fields) {
      if (r.key != "metadata.name" || r.op != "In") {
        continue;
      }
      std::unordered_set<std::string> values(r.values.begin(), r.values.end());
      if (term_names) {
        std::erase_if(*term_names, [&](const std::string& n) { return !values.count(n); });
      } else {
        term_names = std::move(values);
      }
    }
    if (!term_names) {
      return;  // this term accepts nodes by other means: no narrowing
    }
    names.insert(term_names->begin(), term_names->end());
  }
  if (m_pod.required_node_affinity.empty()) {
    return;
  }
  m_prefilter_conflict = names.empty();
  m_prefilter_names = std::move(names);
}

std::optional<FilterStatus> Filters::prefilter_rejects(model::NodeId node) const {
  if (m_prefilter_conflict) {
    return FilterStatus{Code::unresolvable, "NodeAffinity",
                        "node(s) didn't match Pod's node affinity/selector"};
  }
  if (m_prefilter_names && !m_prefilter_names->count(m_snap.nodes()[node].name)) {
    return FilterStatus{Code::unresolvable, "NodeAffinity",
                        "node(s) didn't satisfy plugin(s) [NodeAffinity]"};
  }
  return std::nullopt;
}

FilterStatus Filters::node_unschedulable(const model::Node& node) const {
  static const model::Taint k_unschedulable{"node.kubernetes.io/unschedulable", "", "NoSchedule"};
  if (!node.unschedulable) {
    return {};
  }
  const bool tolerated =
      std::any_of(m_pod.tolerations.begin(), m_pod.tolerations.end(),
                  [](const model::Toleration& t) { return model::tolerates(t, k_unschedulable); });
  if (tolerated) {
    return {};
  }
  return {Code::unresolvable, "NodeUnschedulable", "node(s) were unschedulable"};
}

FilterStatus Filters::taint_toleration(const model::Node& node) const {
  const model::Taint* t = model::first_untolerated(m_pod.tolerations, node.taints);
  if (t == nullptr) {
    return {};
  }
  return {Code::unresolvable, "TaintToleration",
          fmt::format("node(s) had untolerated taint {{{}: {}}}", t->key, t->value)};
}

FilterStatus Filters::node_affinity(const model::Node& node) const {
  if (model::matches_node_affinity(m_pod, node)) {
    return {};
  }
  return {Code::unresolvable, "NodeAffinity", "node(s) didn't match Pod's node affinity/selector"};
}

FilterStatus Filters::node_ports(const NodeView& view) const {
  if (m_ports.empty()) {
    return {};  // PreFilter Skip
  }
  for (model::PodId p : present_pods(m_snap, view)) {
    for (const model::HostPort& used : host_ports(m_snap.pods()[p])) {
      for (const model::HostPort& want : m_ports) {
        if (ports_conflict(used, want)) {
          return {Code::unschedulable, "NodePorts",
                  "node(s) didn't have free ports for the requested pod ports"};
        }
      }
    }
  }
  return {};
}

FilterStatus Filters::node_level(const model::Node& node) const {
  if (FilterStatus s = node_unschedulable(node); !s.ok()) {
    return s;
  }
  if (!m_pod.node_name.empty() && m_pod.node_name != node.name) {
    return {Code::unresolvable, "NodeName", "node(s) didn't match the requested node name"};
  }
  if (FilterStatus s = taint_toleration(node); !s.ok()) {
    return s;
  }
  return node_affinity(node);
}

FilterStatus Filters::run(const NodeView& view) const {
  if (const FilterStatus& s = m_node_level[view.node]; !s.ok()) {
    return s;
  }
  if (FilterStatus s = node_ports(view); !s.ok()) {
    return s;
  }
  if (FilterStatus s = resources_fit(view); !s.ok()) {
    return s;
  }
  if (!m_spread->skipped()) {
    if (FilterStatus s = m_spread->filter(view); !s.ok()) {
      return s;
    }
  }
  if (!m_affinity->skipped()) {
    return m_affinity->filter(view);
  }
  return {};
}

std::vector<model::PodId> Filters::nominated_counted(model::NodeId node) const {
  std::vector<model::PodId> out;
  for (model::PodId p : m_snap.nominated_to(node)) {
    if (p != m_preemptor && m_snap.facts(p).priority >= m_priority) {
      out.push_back(p);
    }
  }
  return out;
}

FilterStatus Filters::run_with_nominated(NodeView view) const {
  const std::size_t before = view.added.size();
  for (model::PodId p : nominated_counted(view.node)) {
    view.added.push_back(p);
  }
  FilterStatus first = run(view);
  if (view.added.size() == before || !first.ok()) {
    return first;
  }
  view.added.resize(before);
  return run(view);
}

}  // namespace kpreempt::policy::common
