// SPDX-License-Identifier: Apache-2.0
// PodDisruptionBudget split of potential victims. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
// filterPodsWithPDBViolation, release v1.34.
#include "policy/common/pdb.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace kpreempt::policy::common {

std::string PdbMatch::pdb() const {
  return budget == nullptr ? std::string() : fmt::format("{}/{}", budget->namespace_, budget->name);
}

PdbSplit split_by_pdbs(const model::Snapshot& snap, const std::vector<model::PodId>& sorted) {
  PdbSplit out;
  out.matches.resize(sorted.size());
  // The budgets touched so far, with what they still allow: a node's pods touch few.
  std::vector<std::pair<std::uint32_t, std::int64_t>> allowed;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const model::Pod& pod = snap.pods()[sorted[i]];
    PdbMatch& m = out.matches[i];
    for (std::uint32_t b : snap.pdbs_of(sorted[i])) {
      const model::PodDisruptionBudget& pdb = snap.pdbs()[b];
      // Already processed by the eviction API: it does not consume the budget again.
      if (std::binary_search(pdb.disrupted_pods.begin(), pdb.disrupted_pods.end(), pod.name)) {
        if (m.kind == PdbMatch::Kind::none) {
          m = {PdbMatch::Kind::disrupted, &pdb};
        }
        continue;
      }
      auto counter = std::find_if(allowed.begin(), allowed.end(),
                                  [&](const auto& entry) { return entry.first == b; });
      if (counter == allowed.end()) {
        counter = allowed.insert(allowed.end(), {b, pdb.disruptions_allowed});
      }
      if (--counter->second < 0) {
        if (m.kind != PdbMatch::Kind::violation) {
          m = {PdbMatch::Kind::violation, &pdb};
        }
      } else if (m.kind == PdbMatch::Kind::none || m.kind == PdbMatch::Kind::disrupted) {
        m = {PdbMatch::Kind::within_budget, &pdb};
      }
    }
    (m.kind == PdbMatch::Kind::violation ? out.violating : out.non_violating).push_back(sorted[i]);
  }
  return out;
}

}  // namespace kpreempt::policy::common
