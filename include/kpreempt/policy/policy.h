// SPDX-License-Identifier: Apache-2.0
// What every policy takes and returns. A policy is a pure function of the snapshot, the
// preemptor, the clock and its args: same input, same Decision.
#pragma once

#include "kpreempt/model/objects.h"
#include "kpreempt/model/scheduler_image.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/model/time.h"
#include "kpreempt/policy/classes.h"
#include "kpreempt/policy/reason.h"
#include "kpreempt/policy/upstream.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::policy {

enum class Outcome { fits, preempt, unschedulable };
std::string_view to_string(Outcome o);

// Policy args as --set KEY=VALUE pairs over upstream defaults. Keys are "Plugin.field"; the
// CLI qualifies a bare "field" with the policy's own plugin (Entry::plugin). A policy reads
// only keys of its plugins and rejects bad values with UsageError.
class Args {
 public:
  Args() = default;
  explicit Args(model::StringMap values) : m_values(std::move(values)) {}
  const std::string* find(std::string_view key) const { return model::find(m_values, key); }
  // Parses an integer arg; throws UsageError naming the key when it is not one.
  std::int64_t get_int(std::string_view key, std::int64_t fallback) const;
  const model::StringMap& values() const { return m_values; }

 private:
  model::StringMap m_values;
};

struct Input {
  const model::Snapshot& snapshot;
  model::PodId preemptor;  // a pending pod of the snapshot; k_none when `workload` is set
  model::Instant now;      // the only clock a policy may read
  const Args& args;
  // Index into snapshot.kueue() workloads when the preemptor is a Kueue Workload
  // (--workload); k_none otherwise.
  std::uint32_t workload = model::k_none;
  // False when the caller drops Decision::nodes[].pods (a batch over every pending pod of a
  // big cluster): a policy may then leave them out and save building one verdict per pod.
  bool pod_verdicts = true;
  // The upstream release line to mirror, one of Entry::lines; unset = the newest.
  ReleaseLine line{};
};

// One judgement about one pod on a node: why it is or is not a victim.
struct PodVerdict {
  model::ObjectRef pod;
  std::int32_t priority = 0;
  bool victim = false;
  Reason code;         // victim, reprieved, higher-or-equal-priority, pdb-violation:<pdb>...
  std::string detail;  // for people: "priority 1000 is not below the preemptor's 1000"
};

// The numbers pickOneNodeForPreemption compares, for a candidate node.
struct CandidateRank {
  std::int64_t pdb_violations = 0;
  std::int32_t highest_victim_priority = 0;
  std::int64_t sum_adjusted = 0;  // sum of (priority + 2^31)
  std::int64_t victim_count = 0;
  model::Instant earliest_start;  // of the victims with the highest priority
};

struct NodeVerdict {
  std::string node;
  Reason code;         // passes-filters, node-unresolvable:<plugin>, candidate, lost:<crit>...
  std::string detail;  // "node(s) had untolerated taint {gpu: true}"
  std::optional<CandidateRank> rank;  // candidates only
  std::vector<PodVerdict> pods;       // every pod on the node that was considered
};

struct Victim {
  model::ObjectRef ref;
  std::string node;  // empty for quota-level victims (Kueue workloads)
  std::int32_t priority = 0;
  Reason reason;            // victim, pdb-violation:<pdb>, InCohortReclamation...
  std::string queue;        // ClusterQueue, YuniKorn queue or ElasticQuota, when relevant
  std::string application;  // YuniKorn application / gang, when relevant
};

// A policy-specific table for the text renderer (quota per ClusterQueue, queue tree...).
struct Table {
  std::string title;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

struct Decision {
  std::string policy;
  Outcome outcome = Outcome::unschedulable;
  std::string node;             // nominated node (node-level policies), empty otherwise
  std::vector<Victim> victims;  // in the order upstream would evict them
  // Preemptor-level reasons, most important first: preempt, tie (subject: the tied nodes),
  // upstream-window, no-candidates, preemption-policy-never, ...
  std::vector<Reason> reasons;
  std::string summary;                  // one sentence for the text renderer
  std::vector<std::string> tied_nodes;  // all nodes equal on every criterion (incl. node)
  std::vector<NodeVerdict> nodes;       // every node, in name order
  VerdictUnit verdict_unit = VerdictUnit::node;
  std::vector<std::string> warnings;  // things about the input a user should know
  std::vector<Table> tables;          // policy-specific, printed after the victims
  // Policy-specific structured data for JSON/YAML, printed under "details" (flavor assignment,
  // quota usage before/after, queue tree), keys in the order they print. Null: none.
  nlohmann::ordered_json details;
  // The release line it mirrored ("v1.37") and the feature gates set away from that line's
  // defaults (name -> "true"/"false"), filled in by run().
  std::string line;
  model::StringMap feature_gates;
  // Where the line came from when it is not the newest by default: "--upstream
  // kueue=v0.14", "image registry.k8s.io/kueue/kueue:v0.14.3 (Deployment ...)" (lines.h).
  std::string line_from;
};

// The scheduler a policy runs in, which decides the pods it ever sees (spec.schedulerName).
enum class Scheduler : std::uint8_t {
  kube,         // kube-scheduler or a second one built from it (scheduler-plugins)
  yunikorn,     // schedulerName yunikorn
  koordinator,  // schedulerName koord-scheduler
  kueue,        // admits Workloads whatever scheduler places their pods
};

struct Entry {
  std::string_view name;
  std::string_view summary;
  // The release lines it models, oldest first; the last one is the default.
  std::span<const LineInfo> lines;
  std::string_view plugin;  // owner of unqualified --set keys: "DefaultPreemption"
  Decision (*decide)(const Input&);
  // Whether `--policy all` runs it for this pod preemptor and dump.
  bool (*applies)(const model::Snapshot&, model::PodId preemptor);
  bool takes_workloads;  // explains a Kueue Workload preemptor (--workload)
  // Every args key it reads, qualified; ".*" at the end stands for any further name. --set and
  // a scenario's args: accept only these.
  std::span<const std::string_view> arg_keys;
  // What it says from PriorityClasses alone (`matrix`, `explain --victim`).
  const ClassRules* classes;
  // The scheduler whose pods it answers for (spec.schedulerName, scheduling gates).
  Scheduler scheduler = Scheduler::kube;
  // The feature gates it reads (--set featureGates.NAME=true|false).
  std::span<const GateInfo> gates;
  // The image of the scheduler it mirrors, whose tag in a dump names the line it runs at
  // (lines.h).
  model::SchedulerImageKind image = model::SchedulerImageKind::kube_scheduler;

  const LineInfo& newest() const { return lines.back(); }
  // The line of `lines` a request resolves to: exact, else the nearest (ties to the newer).
  const LineInfo& nearest(ReleaseLine wanted) const;
};

// Entry::decide behind the scheduler's own checks: a pod its scheduler never takes (another
// spec.schedulerName, or one still held by scheduling gates) gets a decision saying so instead
// of a victim list. run() below adds the release line; callers use run().
Decision decide(const Entry& e, const Input& in);
// Whether `--policy all` runs the policy for the pod: its scheduler takes the pod and
// Entry::applies holds.
bool applies(const Entry& e, const model::Snapshot& snap, model::PodId preemptor);

// Every policy, in the order --policy all runs and prints them.
std::span<const Entry> all();
const Entry* find(std::string_view name);

// decide(entry, input) on the release line the input asks for (the nearest one modelled), with
// Decision::line and Decision::feature_gates filled in: the one way to run a policy.
Decision run(const Entry& entry, const Input& input);

}  // namespace kpreempt::policy
