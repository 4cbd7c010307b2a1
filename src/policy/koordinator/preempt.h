// SPDX-License-Identifier: Apache-2.0
// What the koordinator policy's steps share: the evaluation context, quota admission, the
// pod-level ElasticQuota preemption and the job-level Coscheduling preemption.
#pragma once

#include "policy/common/filters.h"
#include "policy/common/node_pick.h"
#include "policy/koordinator/quota.h"

#include "kpreempt/policy/policy.h"

#include <optional>
#include <string>
#include <vector>

namespace kpreempt::policy::koordinator {

// Everything computed once for the preemptor.
struct Context {
  Context(const Input& input, KoordArgs a);

  const Input& in;
  const model::Snapshot& snap;
  KoordArgs args;
  QuotaModel quotas;
  common::Filters filters;
  const QuotaNode& quota;       // the preemptor's quota
  std::optional<ResVec> limit;  // its limit as PreFilter captured it; nullopt = unlimited
  ResVec request;               // the preemptor's request, unmasked
  std::vector<common::FilterStatus> first;  // per node: the Filter pass with nominated pods
};

// ElasticQuota PreFilter: runtime (or max), non-preemptible min, parents when enabled.
struct Admission {
  bool ok = true;
  std::optional<Code> code;  // quota-runtime-exceeded | non-preemptible-min-exceeded | ...
  std::string detail;
};
Admission admit(const Context& ctx);

// One examined node of the pod-level dry run.
struct NodeRun {
  enum class Result { candidate, no_victims, does_not_fit, error };
  model::NodeId node = model::k_none;
  Result result = Result::no_victims;
  Reason code;
  std::string detail;
  std::vector<model::PodId> victims;  // in the order upstream appends them
  std::vector<Code> victim_codes;     // victim:node-fit / victim:quota, parallel
  std::int64_t pdb_violations = 0;
  std::vector<PodVerdict> pods;  // every pod bound to the node
  std::optional<CandidateRank> rank;
};

struct PodLevel {
  std::optional<Code> ineligible;  // preemptor-level code
  std::string ineligible_detail;
  std::vector<NodeRun> runs;          // examined nodes, by node name
  std::optional<std::size_t> winner;  // index into runs
  common::Pick pick;
};
// ElasticQuota PostFilter. `potential[n]`: node n's status is Unschedulable.
PodLevel run_pod_level(const Context& ctx, const std::vector<bool>& potential);

// A gang as the Coscheduling plugin sees it.
struct Gang {
  std::string id;  // namespace/name
  std::string name;
  std::int32_t min_member = 0;
  bool initialised = false;
  std::vector<model::PodId> members;  // non-terminal pods of the gang, input order
  std::vector<model::PodId> pending;  // members without spec.nodeName, by name
  std::int64_t bound = 0;
};
std::optional<Gang> gang_of(const model::Snapshot& snap, model::PodId pod);

struct Placement {
  model::PodId pod = model::k_none;
  model::NodeId node = model::k_none;
};

struct JobLevel {
  bool ok = false;
  std::optional<Code>
      code;  // when !ok: cannot-trigger-preemption, terminating-victim-on-nominated-node,
             // no-potential-victims, member-unplaceable
  std::string detail;
  std::vector<model::PodId> pending;  // the members placed, in placement order
  std::vector<Placement> placements;
  std::vector<std::int64_t> cost;                  // per node id
  std::vector<std::vector<model::PodId>> victims;  // per node id
  std::vector<std::vector<PodVerdict>> pods;       // per node id, examined nodes only
  std::vector<std::optional<Code>> node_code;      // per node id; none: not examined
  std::vector<std::string> warnings;               // upstream quirks that shaped the answer
};
// Coscheduling PostFilter with enablePreemption: the gang (or the pod alone) as one preemptor.
JobLevel run_job_level(const Context& ctx, const std::vector<bool>& potential,
                       const std::optional<Gang>& gang);

// Renders the decision parts specific to this policy.
void add_quota_table(const Context& ctx, const Admission& adm, Decision& d);
nlohmann::json details(const Context& ctx, const Admission& adm, const std::optional<Gang>& gang,
                       const JobLevel* job, const Decision& d);

PodVerdict verdict(const model::Snapshot& snap, model::PodId id, Reason code, std::string detail);

}  // namespace kpreempt::policy::koordinator
