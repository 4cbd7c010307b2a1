// SPDX-License-Identifier: Apache-2.0
// Scenario files: a case.yaml (preemptor, policy, clock, expectations) over one or more
// cluster dumps, and how to find them in a folder tree. The format is the one of the
// conformance cases plus notVictims, maxVictims, podFile and the cluster key.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/objects.h"
#include "kpreempt/model/time.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kpreempt::scenario {

// Who arrives: a pending Pod or Kueue Workload of the cluster files, or a what-if manifest.
struct Preemptor {
  std::string kind;  // "Pod" or "Workload"; empty when pod_file is set
  std::string namespace_, name;
  std::string pod_file;  // preemptor.podFile resolved against the case file's folder
  SourceLoc loc;         // of the preemptor key's value, for messages
};

// expect: what must hold of the decision. Every field but outcome is optional. For a podFile
// with several pods (a workload placed in sequence) the decision is the workload's: outcome
// fits when every pod fits, preempt when every pod is placed and some preempt, unschedulable
// when any stays pending; victims are those of all its pods.
// expect.cascade: what must hold of the cascade (`kpreempt cascade`) run on the scenario's
// cluster, its podFile's pods pending, with its policy deciding kube-scheduler pods.
struct CascadeExpect {
  // No state repeats within this many rounds (the cascade runs them); absent: 20 rounds.
  std::optional<std::int64_t> no_loop_within;
  std::optional<std::int64_t> max_evictions;  // at most this many evictions in all rounds
};

struct Expect {
  std::string outcome;                              // fits | preempt | unschedulable
  std::optional<std::string> node;                  // exact nominated node
  std::vector<std::string> node_one_of;             // empty: not asserted
  std::optional<std::vector<std::string>> victims;  // exact set, "Pod/ns/name"
  std::vector<std::string> not_victims;             // none of these may be evicted
  std::optional<std::int64_t> max_victims;          // at most this many victims
  // A podFile workload's pods placed (fit or preempt) and left pending, exact.
  std::optional<std::int64_t> placed = std::nullopt, pending = std::nullopt;
  std::optional<CascadeExpect> cascade = std::nullopt;
};

struct Scenario {
  std::string name;       // path of the case folder relative to the folder searched
  std::string case_file;  // path as found, for messages and reports
  std::vector<std::string> cluster_files;  // resolved, in the order written
  SourceLoc cluster_loc;                   // of the cluster key, or the case file
  std::string policy;
  Preemptor preemptor;
  std::optional<model::Instant> now;  // absent: the caller's clock
  model::StringMap args;              // as written; bare keys are qualified by the runner
  SourceLoc args_loc;
  std::string upstream;  // the release line to mirror ("v1.35"); empty: the policy's newest
  Expect expect;
  std::string source, note;
};

// Where a scenario's paths (cluster, podFile) may lead: a scenario is input like a dump, and
// one naming /etc/passwd must not get it read. Paths resolve against the case file's folder
// and must stay inside `root` (symlinks followed) unless `allow_outside`.
struct PathRules {
  std::string root;  // empty: the case file's folder
  bool allow_outside = false;
};

// Parses one case file. `name` is the scenario name to report. Problems (YAML syntax, missing
// or mistyped keys, unknown keys, unknown policy) are appended to `diags` with 1-based
// positions; returns nullopt when any of them is an error.
std::optional<Scenario> parse_case(const std::string& case_file, std::string name,
                                   std::vector<Diagnostic>& diags, const PathRules& paths = {});

// Same, from memory (tests). `case_file` names the text in messages and anchors relative
// cluster and podFile paths.
std::optional<Scenario> parse_case_text(const std::string& text, const std::string& case_file,
                                        std::string name, std::vector<Diagnostic>& diags,
                                        const PathRules& paths = {});

// The scenarios a `check` argument stands for: a case file, a folder holding case.yaml, or a
// folder tree searched recursively for case.yaml files (sorted by path). A path that does not
// exist, or a folder without any case.yaml, is an error in `diags`. Paths stay inside the
// folder searched; for a single case (a case file, or a folder holding case.yaml) inside the
// folder holding its case folder, where cases keep a shared cluster.yaml.
std::vector<Scenario> discover(const std::string& path, std::vector<Diagnostic>& diags,
                               bool allow_outside = false);

}  // namespace kpreempt::scenario
