// SPDX-License-Identifier: Apache-2.0
// PodDisruptionBudget split of potential victims. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
// filterPodsWithPDBViolation, release v1.34.
#include "policy/common/pdb.h"

#include "kpreempt/model/match.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::common {

PdbIndex::PdbIndex(const model::Snapshot& snap) : m_snap(snap) {
  for (std::size_t i = 0; i < snap.pdbs().size(); ++i) {
    const model::PodDisruptionBudget& b = snap.pdbs()[i];
    // An unparsable selector is skipped upstream; a nil or empty one matches nothing here
    // (although the eviction API reads `{}` as "every pod").
    if (b.selector_valid && b.selector.present && !model::empty(b.selector)) {
      m_by_namespace[b.namespace_].push_back(i);
    }
  }
}

PdbSplit PdbIndex::split(const std::vector<model::PodId>& sorted) const {
  PdbSplit out;
  out.matches.resize(sorted.size());
  std::unordered_map<std::size_t, std::int64_t> allowed;  // only the budgets touched
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const model::Pod& pod = m_snap.pods()[sorted[i]];
    PdbMatch& m = out.matches[i];
    auto it = m_by_namespace.find(pod.namespace_);
    // A pod without labels never matches a budget.
    if (!pod.labels.empty() && it != m_by_namespace.end()) {
      for (std::size_t b : it->second) {
        const model::PodDisruptionBudget& pdb = m_snap.pdbs()[b];
        if (!model::matches(pdb.selector, pod.labels)) {
          continue;
        }
        const std::string name = fmt::format("{}/{}", pdb.namespace_, pdb.name);
        // Already processed by the eviction API: it does not consume the budget again.
        if (std::binary_search(pdb.disrupted_pods.begin(), pdb.disrupted_pods.end(), pod.name)) {
          if (m.kind == PdbMatch::Kind::none) {
            m = {PdbMatch::Kind::disrupted, name};
          }
          continue;
        }
        auto [counter, inserted] = allowed.try_emplace(b, pdb.disruptions_allowed);
        if (--counter->second < 0) {
          if (m.kind != PdbMatch::Kind::violation) {
            m = {PdbMatch::Kind::violation, name};
          }
        } else if (m.kind == PdbMatch::Kind::none || m.kind == PdbMatch::Kind::disrupted) {
          m = {PdbMatch::Kind::within_budget, name};
        }
      }
    }
    (m.kind == PdbMatch::Kind::violation ? out.violating : out.non_violating).push_back(sorted[i]);
  }
  return out;
}

}  // namespace kpreempt::policy::common
