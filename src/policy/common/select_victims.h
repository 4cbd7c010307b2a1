// SPDX-License-Identifier: Apache-2.0
// The preemption dry run on one node. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go SelectVictimsOnNode,
// release v1.34.
#pragma once

#include "policy/common/filters.h"
#include "policy/common/pdb.h"

#include "kpreempt/policy/default.h"
#include "kpreempt/policy/policy.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kpreempt::policy::common {

struct DryRun {
  enum class Result { candidate, no_victims, still_unschedulable, error };
  Result result = Result::no_victims;
  Reason code;                        // node verdict code for every result but `candidate`
  std::string detail;                 // for people
  std::vector<model::PodId> victims;  // eviction order: most important first
  std::int64_t pdb_violations = 0;
  // Every pod bound to the node, in input order; empty when the caller wants no pod verdicts.
  std::vector<PodVerdict> pods;
  // Each victim's Victim::reason: pdb-violation:<pdb>, already-terminating or victim.
  std::vector<std::pair<model::PodId, Reason>> victim_reasons;
};

// Removes every eligible lower-priority pod, checks the preemptor then fits, and puts pods back
// most important first (PDB-violating ones before the others) while it still fits.
DryRun select_victims_on_node(const Filters& filters, const Variant& variant, model::NodeId node,
                              model::Instant now, bool pod_verdicts);

// The verdict for a bound pod of a node that was not dry-run.
PodVerdict plain_verdict(const model::Snapshot& snap, model::PodId pod, std::int32_t priority,
                         std::string_view why_not_examined);

}  // namespace kpreempt::policy::common
