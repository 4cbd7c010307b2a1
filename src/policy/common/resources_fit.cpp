// SPDX-License-Identifier: Apache-2.0
// NodeResourcesFit's Filter on a simulated node. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest, releases v1.34-v1.37 (including
// PR #131345: a request above the node's allocatable is UnschedulableAndUnresolvable).
#include "policy/common/filters.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace kpreempt::policy::common {
namespace {

struct Shortfall {
  std::vector<std::string> reasons;
  bool unresolvable = false;

  void check(std::string_view name, std::int64_t want, std::int64_t allocatable,
             std::int64_t used) {
    // v1.27+: a resource the pod asks none of is never checked, even on an overcommitted node.
    if (want <= 0 || want <= allocatable - used) {
      return;
    }
    reasons.push_back(fmt::format("Insufficient {}", name));
    // Evicting pods cannot help when the pod is larger than the whole node.
    unresolvable = unresolvable || want > allocatable;
  }
};

// The removed pods that are the node's own, each once: what NodeInfo.RemovePod would take off.
// A pod is in pods_on(node) exactly when it is bound there and not terminal.
std::vector<model::PodId> taken_off(const model::Snapshot& snap, const NodeView& view) {
  std::vector<model::PodId> out;
  out.reserve(view.removed.size());
  for (model::PodId p : view.removed) {
    if (snap.facts(p).node == view.node && !snap.pods()[p].terminal() &&
        std::find(out.begin(), out.end(), p) == out.end()) {
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace

// The hottest filter of a dry run. Like NodeInfo, it starts from the node's summed requests
// and takes the removed pods off, rather than adding up the node's pods again; a sum that is
// not exact (a negative request, a saturated total) falls back to walking the present pods.
FilterStatus Filters::resources_fit(const NodeView& view) const {
  const model::NodeFacts& node = m_snap.node_facts(view.node);
  const model::Resources& alloc = node.allocatable;
  const model::Resources& want = m_snap.facts(m_preemptor).requests;
  // A node with a resized pod sums its pods again: node.requested holds spec requests.
  const bool exact = node.requested_exact && !m_node_resized[view.node];
  const std::vector<model::PodId> pods =
      exact ? taken_off(m_snap, view) : present_pods(m_snap, NodeView{view.node, view.removed, {}});
  auto used = [&](auto amount) {
    std::int64_t v = exact ? amount(node.requested) : 0;
    for (model::PodId p : pods) {
      const std::int64_t a = amount(requests(p));
      v = exact ? v - a : model::saturating_add(v, a);
    }
    for (model::PodId p : view.added) {
      v = model::saturating_add(v, amount(requests(p)));
    }
    return v;
  };
  const auto bound = static_cast<std::int64_t>(m_snap.pods_on(view.node).size());
  const auto listed = static_cast<std::int64_t>(pods.size());
  const std::int64_t pod_count =
      (exact ? bound - listed : listed) + static_cast<std::int64_t>(view.added.size());
  Shortfall s;
  if (pod_count + 1 > alloc.pods) {
    s.reasons.emplace_back("Too many pods");
  }
  s.check("cpu", want.cpu_milli, alloc.cpu_milli,
          used([](const model::Resources& r) { return r.cpu_milli; }));
  s.check("memory", want.memory, alloc.memory,
          used([](const model::Resources& r) { return r.memory; }));
  s.check("ephemeral-storage", want.ephemeral_storage, alloc.ephemeral_storage,
          used([](const model::Resources& r) { return r.ephemeral_storage; }));
  for (const auto& [name, amount] : want.scalar) {
    s.check(name, amount, alloc.get(name),
            used([&](const model::Resources& r) { return r.get(name); }));
  }
  if (s.reasons.empty()) {
    return {};
  }
  return {s.unresolvable ? Code::unresolvable : Code::unschedulable, "NodeResourcesFit",
          fmt::format("{}", fmt::join(s.reasons, ", "))};
}

}  // namespace kpreempt::policy::common
