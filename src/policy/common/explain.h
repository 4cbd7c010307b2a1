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
  std::optional<Criterion> lost;  // criterion a candidate lost on
  bool tied = false;
  bool winner = false;
};

// The candidate pickOneNodeForPreemption chooses.
struct Winner {
  model::NodeId node;
  CandidateRank rank;
  std::optional<Criterion> decided_by;  // the criterion that left one candidate; none when tied
  std::optional<Reason> tie;            // tie with the tied nodes when candidates stayed equal
  // Decided by the sum of priorities: the best of the nodes that lost on it, and its rank, whose
  // numbers the summary compares.
  std::string runner_up;
  std::optional<CandidateRank> runner_up_rank;
};

// Ranks the candidates (in node-name order), records rank, lost criterion, tie and win on
// their NodeStates, and sets d.outcome, d.node and d.tied_nodes. Where the "preempt" and tie
// reason codes go in d.reasons is the caller's choice. `candidates` must not be empty.
Winner choose_winner(const Input& in, const std::vector<model::NodeId>& candidates,
                     std::vector<NodeState>& states, Decision& d);

// Appends the winner's victims, in eviction order, to d.victims.
void add_victims(const Input& in, model::NodeId winner, const DryRun& dry, Decision& d);

// One NodeVerdict per node in name order, each with a verdict for every pod bound to it, the
// nominated pods counted there, and (on the winner) the nominations preemption clears. The
// dry runs' pod verdicts are moved out of `states`.
void add_node_verdicts(const Filters& f, std::vector<NodeState>& states, Decision& d);

std::string preempt_summary(const Decision& d, const Winner& w);
// For every outcome but preempt, from d.reasons.
std::string other_summary(const model::Snapshot& snap, const std::vector<NodeState>& states,
                          const Decision& d);

}  // namespace kpreempt::policy::common
