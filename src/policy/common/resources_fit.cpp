// SPDX-License-Identifier: Apache-2.0
// NodeResourcesFit's Filter on a simulated node. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest, release v1.34 (including
// PR #131345: a request above the node's allocatable is UnschedulableAndUnresolvable).
#include "policy/common/filters.h"

#include <fmt/format.h>

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

}  // namespace

FilterStatus Filters::resources_fit(const NodeView& view) const {
  const model::Resources& alloc = m_allocatable[view.node];
  const model::Resources& want = m_snap.facts(m_preemptor).requests;
  model::Resources used;
  std::int64_t pod_count = 0;
  auto count = [&](model::PodId p) {
    used.add(m_snap.facts(p).requests);
    ++pod_count;
  };
  // The hottest loop of a dry run: walk the node's pods in place rather than collect them.
  for (model::PodId p : m_snap.pods_on(view.node)) {
    if (!view.is_removed(p)) {
      count(p);
    }
  }
  for (model::PodId p : view.added) {
    count(p);
  }
  Shortfall s;
  if (pod_count + 1 > alloc.pods) {
    s.reasons.emplace_back("Too many pods");
  }
  s.check("cpu", want.cpu_milli, alloc.cpu_milli, used.cpu_milli);
  s.check("memory", want.memory, alloc.memory, used.memory);
  s.check("ephemeral-storage", want.ephemeral_storage, alloc.ephemeral_storage,
          used.ephemeral_storage);
  for (const auto& [name, amount] : want.scalar) {
    s.check(name, amount, alloc.get(name), used.get(name));
  }
  if (s.reasons.empty()) {
    return {};
  }
  return {s.unresolvable ? Code::unresolvable : Code::unschedulable, "NodeResourcesFit",
          fmt::format("{}", fmt::join(s.reasons, ", "))};
}

}  // namespace kpreempt::policy::common
