// SPDX-License-Identifier: Apache-2.0
// Runs scenarios in-process (load -> snapshot -> policy, as `explain` does) and compares the
// decision with the scenario's expectations.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/policy.h"
#include "kpreempt/render/cascade.h"
#include "kpreempt/scenario/scenario.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::scenario {

enum class Status { passed, failed, error };

// How many preemptors of a scenario were placed (fit or preempt) and left pending.
struct Placements {
  std::int64_t placed = 0, pending = 0;
};

struct Result {
  std::string name, case_file, policy;
  Status status = Status::error;
  // failed: one entry per unmet expectation ("outcome preempt, expected unschedulable");
  // error: why the scenario could not be evaluated.
  std::vector<std::string> problems;
  std::optional<policy::Decision> decision;  // absent on error
  std::optional<Placements> placements;      // a podFile workload's, placed in sequence
  std::optional<render::Cascade> cascade;    // run when the scenario expects of one
};

// What the expectations say about a decision; empty when all hold. `placements` is the
// workload's when the podFile held several pods; else the one decision counts.
std::vector<std::string> compare(const Expect& expect, const policy::Decision& decision,
                                 const std::optional<Placements>& placements = std::nullopt);

// What expect.cascade says about a cascade; empty when all holds.
std::vector<std::string> compare_cascade(const CascadeExpect& expect, const render::Cascade& c);

// One line per preempting decision of a loop: "a evicts b, b evicts a".
std::string loop_text(const render::Cascade& c);

// Runs scenarios, loading each distinct set of cluster files once.
class Runner {
 public:
  // `fallback_now` is used by scenarios without `now`.
  explicit Runner(model::Instant fallback_now) : m_now(fallback_now) {}

  // Input problems (cluster files that fail to load, a preemptor that is missing or not
  // pending, args the policy rejects) give Status::error and go to `diags`; errors of a
  // cluster shared by several scenarios are reported once.
  Result run(const Scenario& s, std::vector<Diagnostic>& diags);

 private:
  struct Cluster;
  std::shared_ptr<Cluster> cluster_for(const Scenario& s, std::vector<Diagnostic>& diags);

  model::Instant m_now;
  // A workload's sequence changes a cluster's snapshot while it runs and restores it after.
  std::map<std::vector<std::string>, std::shared_ptr<Cluster>> m_clusters;
};

}  // namespace kpreempt::scenario
