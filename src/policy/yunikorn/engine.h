// SPDX-License-Identifier: Apache-2.0
// The YuniKorn preemption run for one pending pod, recorded step by step so that the Decision
// can explain every pod and node (apache/yunikorn-core v1.7.0 pkg/scheduler/objects
// preemption.go, queue.go FindEligiblePreemptionVictims, required_node_preemptor.go).
#pragma once

#include "policy/yunikorn/cluster.h"
#include "policy/yunikorn/guarantee.h"

#include "kpreempt/policy/policy.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kpreempt::policy::yunikorn {

inline constexpr std::uint64_t k_score_originator = 1ULL << 33;
inline constexpr std::uint64_t k_score_no_preempt = 1ULL << 34;
inline constexpr std::uint64_t k_score_unfit = 1ULL << 35;
inline constexpr std::uint64_t k_score_fit_max = 1ULL << 32;

struct PodNote {
  std::optional<Code> code;  // reason code of the spec; none: not looked at
  std::string detail;
};

struct NodeTrace {
  bool too_small = false;
  std::vector<model::PodId> sorted;  // its candidates, in upstream's victim order
  bool solution = false;
  int index = -1;  // -1 with a solution: fits without evictions
  std::vector<model::PodId> results;
  bool checked = false;  // went through the predicate checks
  bool passed = false;
  int success_at = -1;
  std::uint64_t score = 0;
  std::string filter_detail;  // why the filters refused the node
};

struct QueueTrace {
  bool visited = false;           // below the fence root
  bool fenced = false;            // priority ignored in this subtree
  bool skipped = false;           // priority-fenced subtree
  std::int64_t ask_priority = 0;  // the ask's effective priority against this queue's pods
};

struct Trace {
  Outcome outcome = Outcome::unschedulable;
  std::optional<Code> reason;  // outcome reason code
  std::string detail;          // one sentence
  std::uint32_t ask_queue = k_no_queue;
  bool required_path = false;
  bool nodes_tried = false;
  bool attempted = false;  // reached the preemption steps
  ORes headroom;
  std::uint32_t fence = k_no_queue;
  std::string fence_why;  // root, preemption.policy, usage==max
  std::vector<QueueTrace> queues;
  std::vector<PodNote> pods;     // by PodId
  std::vector<NodeTrace> nodes;  // by NodeId
  model::NodeId chosen = model::k_none;
  std::vector<model::NodeId> tied;
  std::vector<model::PodId> candidates;
  std::vector<model::PodId> node_victims, additional, selected;
};

// Runs the whole flow of the spec's §5 (or §12 for a DaemonSet pod) for `preemptor`.
Trace run_preemption(const Cluster& c, model::PodId preemptor, model::Instant now);

// Step-level pieces, shared by the flow and the tests.
void find_candidates(const Cluster& c, model::PodId ask, const QueueSnapshots& base, Trace& t);
std::uint64_t flag_score(const YkPod& p);  // 2^33 originator | 2^34 opted out

}  // namespace kpreempt::policy::yunikorn
