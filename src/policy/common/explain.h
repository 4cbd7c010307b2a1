// SPDX-License-Identifier: Apache-2.0
// Turning the default algorithm's per-node results into a Decision: node and pod verdicts,
// victims with reason codes, and the one-sentence summary.
#pragma once

#include "policy/common/filters.h"
#include "policy/common/select_victims.h"

#include "kpreempt/policy/policy.h"

#include <optional>
#include <string>
#include <vector>

namespace kpreempt::policy::common {

// Everything learnt about one node while deciding.
struct NodeState {
  FilterStatus first;     // the Filter pass, with nominated pods
  bool excluded = false;  // left out by a PreFilter node set
  std::optional<DryRun> dry;
  std::optional<CandidateRank> rank;
  std::string lost;  // criterion a candidate lost on
  bool tied = false;
  bool winner = false;
};

// Node ids sorted by node name.
std::vector<model::NodeId> nodes_by_name(const model::Snapshot& snap);

// Appends the winner's victims, in eviction order, to d.victims.
void add_victims(const Input& in, model::NodeId winner, const DryRun& dry, Decision& d);

// One NodeVerdict per node in name order, each with a verdict for every pod bound to it, the
// nominated pods counted there, and (on the winner) the nominations preemption clears.
void add_node_verdicts(const Filters& f, const std::vector<NodeState>& states, Decision& d);

std::string preempt_summary(const model::Snapshot& snap, const Decision& d,
                            const CandidateRank& rank, const std::string& decided_by);
// For every outcome but preempt, from d.reasons.
std::string other_summary(const model::Snapshot& snap, const std::vector<NodeState>& states,
                          const Decision& d);

}  // namespace kpreempt::policy::common
