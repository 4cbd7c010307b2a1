// SPDX-License-Identifier: Apache-2.0
// Splitting potential victims by PodDisruptionBudget. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
// filterPodsWithPDBViolation, release v1.34.
#pragma once

#include "kpreempt/model/snapshot.h"

#include <cstddef>
#include <string>
#include <vector>

namespace kpreempt::policy::common {

// What the budgets said about one pod.
struct PdbMatch {
  enum class Kind { none, within_budget, violation, disrupted };
  Kind kind = Kind::none;
  const model::PodDisruptionBudget* budget = nullptr;  // the one that decided `kind`

  std::string pdb() const;  // "ns/name" of `budget`
};

struct PdbSplit {
  std::vector<model::PodId> violating, non_violating;  // both keep the input order
  std::vector<PdbMatch> matches;                       // parallel to the input
};

// Walks `sorted` (most important first) with one counter per budget, starting at
// status.disruptionsAllowed; a pod whose decrement takes some counter below zero violates.
PdbSplit split_by_pdbs(const model::Snapshot& snap, const std::vector<model::PodId>& sorted);

}  // namespace kpreempt::policy::common
