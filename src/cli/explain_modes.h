// SPDX-License-Identifier: Apache-2.0
// What the modes of `kpreempt explain` share: the options, the choice of policies and the
// runner that explains many preemptors against one snapshot.
#pragma once

#include "cli/context.h"

#include "kpreempt/policy/policy.h"
#include "kpreempt/render/render.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace kpreempt::cli {

struct ExplainOptions {
  Inputs inputs;
  std::string pod;
  std::string workload;
  bool all_pending = false;
  bool sequential = false;  // --sequential: --all-pending in queue order, each applied
  std::string victim;
  std::vector<std::string> policies;
  std::string now;
  std::vector<std::string> sets;
  std::vector<std::string> upstream;  // --upstream POLICY=VERSION, in order
  std::string output = "text";
  std::string color = "auto";
  bool verbose = false;  // -v: also say what the dump held that no policy reads
  bool codes = false;    // --codes: print the reason vocabulary instead
};

// Who is explained: a pod or a Kueue Workload.
struct Subject {
  model::PodId pod = model::k_none;
  std::uint32_t workload = model::k_none;
};

// Every policy's name and "all", for --policy.
std::vector<std::string> policy_names();

// --now, or the current time when empty; throws UsageError.
model::Instant parse_now(const std::string& text);

// --set KEY=VALUE pairs; a bare key belongs to `plugin`. Throws UsageError.
policy::Args parse_sets(const std::vector<std::string>& sets, std::string_view plugin);

// --upstream and --set featureGates.* checked before the load: throws UsageError; prints a
// warning for each version resolved to another line.
void check_upstream(const ExplainOptions& o, const Streams& io);

// Adds --upstream to an explain-like subcommand.
void add_upstream_option(CLI::App& cmd, std::vector<std::string>& upstream);

// The policies --policy names (or all that apply) for one subject. `lenient`: a named policy
// that does not fit the subject is left out instead of being a usage error.
std::vector<const policy::Entry*> chosen_policies(const ExplainOptions& o,
                                                  const model::Snapshot& snap,
                                                  const Subject& subject, bool lenient);

// Every pending pod (unbound, not finished, not terminating) and every active Workload not
// admitted, pods first, each in input order.
std::vector<Subject> pending_subjects(const model::Snapshot& snap);

// What explaining many subjects produced: one Explanation per subject at least one chosen
// policy fits, in input order, and how many subjects none fitted.
struct Batch {
  std::vector<render::Explanation> explanations;
  std::size_t skipped = 0;
};

// Runs every subject's policies against the same snapshot on a small thread pool. The
// decisions drop their per-node verdicts (most of the memory and output on a big cluster);
// without `keep_verdicts` also their tables and details, which a summary does not need. `progress`
// receives a
// "\r[i/n] explaining ns/name..." line while it runs (nullptr: none). Rethrows the first (by
// subject order) error a policy raised.
Batch explain_subjects(const ExplainOptions& o, const model::Snapshot& snap,
                       const std::vector<Subject>& subjects, model::Instant now, bool keep_verdicts,
                       std::ostream* progress);

// Decides `items` in queue order (sorted in place), policy by policy, each after the decisions
// before it took effect; appends the decisions to the items. `lenient` as chosen_policies;
// without `node_verdicts` the decisions drop their per-node verdicts (a batch over a big
// cluster), without `keep_details` their tables and details.
render::Sequence explain_in_sequence(const ExplainOptions& o, model::Snapshot& snap,
                                     std::vector<render::Explanation>& items, bool lenient,
                                     bool node_verdicts, bool keep_details);

// Policy warnings to stderr, each once.
void print_warnings(const std::vector<render::Explanation>& explanations, const Streams& io);

// The --all-pending and --victim modes; `now` is the parsed --now.
int run_all_pending(const ExplainOptions& o, model::Instant now, const Streams& io);
int run_victim(const ExplainOptions& o, model::Instant now, const Streams& io);

}  // namespace kpreempt::cli
