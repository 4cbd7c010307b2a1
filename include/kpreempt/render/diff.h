// SPDX-License-Identifier: Apache-2.0
// `kpreempt diff`: what a configuration change does to preemption, as data and in each
// output format (text, json, yaml, markdown, github, sarif, html).
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/policy.h"
#include "kpreempt/render/render.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::render {

enum class ConfigChangeKind : std::uint8_t { added, removed, changed };
std::string_view to_string(ConfigChangeKind k);

// A configuration object that differs between base and head; `loc` is where head holds it
// (where base held it, for a removed one).
struct ConfigChange {
  ConfigChangeKind kind = ConfigChangeKind::changed;
  std::string kind_name;  // "PriorityClass"
  std::string object;     // "PriorityClass/high", "ClusterQueue/team-a", "PodDisruptionBudget/ns/x"
  std::string name;       // "high"
  SourceLoc loc;
};

// One preemptor under one policy whose decision differs.
struct DecisionChange {
  std::string subject;  // "team-a/web-0", or the Workload's "ns/name"
  std::string policy;
  std::optional<policy::Outcome> before, after;  // absent: the policy did not answer there
  std::string node_before, node_after;
  std::vector<std::string> victims_added, victims_removed;  // "Pod/ns/name"
  std::string why;  // the head decision's summary (base's when head has none)
  // Changed configuration objects this decision reads: the PriorityClass of the preemptor or
  // of a victim, and the objects of the policy's own family (queues, quotas, settings).
  std::vector<const ConfigChange*> causes;
};

// A pair of PriorityClasses whose matrix cell differs under one policy ("no" -> "yes",
// "after 600s" -> "after 120s"), or of ClusterQueues whose preemption rules differ ("never"
// -> "reclaim: Any"); "-" where one of the pair is not in that version.
struct EdgeChange {
  std::string policy, preemptor, victim, before, after;
};

struct LintChange {
  std::string rule, level, object, message;
  SourceLoc loc;
};

struct Diff {
  std::size_t subjects = 0;  // preemptors compared (either side)
  std::vector<DecisionChange> decisions;
  std::vector<ConfigChange> config;
  std::vector<EdgeChange> edges;
  std::vector<LintChange> new_findings;
  std::vector<std::string> notes;  // what the reader needs to read the answer right

  std::size_t outcome_changes() const;
  std::size_t victims_added() const;
  std::size_t victims_removed() const;
};

// Fills diff.decisions: base and head explanations matched by preemptor name and policy, in
// head's order (then what only base had). diff.config must be filled first (causes point
// into it).
void compare_decisions(const model::Snapshot& base_snap, const std::vector<Explanation>& base,
                       const model::Snapshot& head_snap, const std::vector<Explanation>& head,
                       Diff& diff);

// Fills diff.edges where base and head differ: which ClusterQueue's Workloads may preempt
// which (within the queue, by reclaim or while borrowing in a cohort tree), then the
// `kpreempt matrix` cells of every policy that judges by class.
void compare_edges(const model::Snapshot& base_snap, const model::Snapshot& head_snap, Diff& diff);

enum class DiffFormat : std::uint8_t { text, json, yaml, markdown, github, sarif, html };
std::optional<DiffFormat> parse_diff_format(std::string_view name);

// "3 of 12 preemptors change: 1 outcome, 5 victims added, ...".
std::string diff_summary(const Diff& diff);
void render_diff(DiffFormat format, const Diff& diff, std::ostream& out);

}  // namespace kpreempt::render
