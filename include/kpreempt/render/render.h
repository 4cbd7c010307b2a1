// SPDX-License-Identifier: Apache-2.0
// Renderers turn decisions into text for people or JSON/YAML for programs. They read
// decisions and the snapshot; they decide nothing.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/policy.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::render {

// html: one self-contained page that pictures the decision (render/html.h).
enum class Format { text, wide, json, yaml, html };
std::optional<Format> parse_format(std::string_view name);

// A preemptor as tables and progress lines name it: "ns/name" for a pod, "Workload ns/name"
// for a Kueue Workload (when `pod` is k_none).
std::string preemptor_name(const model::Snapshot& snap, model::PodId pod, std::uint32_t workload);

// A reason as the JSON contract and the tables print it: its stable name, then a colon and its
// subject's names joined by commas when it has a subject ("tie:n1,n2", "pdb-violation:ns/pdb").
std::string reason_text(const policy::Reason& reason);
// What the reason's code means, in one sentence (the code table's; "reasonText" in JSON).
std::string reason_sentence(const policy::Reason& reason);

// `explain --codes`: every reason code with the placeholder for its subject and its meaning,
// then the node-pick criteria; json/yaml print a `kind: ReasonCodes` document.
void render_codes(Format format, std::ostream& out);

// Everything one `explain` of one preemptor produced.
struct Explanation {
  model::PodId preemptor;  // k_none when the preemptor is a Kueue Workload
  std::uint32_t workload;  // index into snapshot.kueue().workloads, or k_none
  model::Instant now;
  std::vector<policy::Decision> decisions;  // one per policy run, in registry order
};

struct Style {
  bool color = false;     // ANSI colours in text output
  std::size_t width = 0;  // terminal columns text tables fit; 0: unlimited (not a terminal)
};

// The versioned output document (apiVersion kpreempt/v1alpha1); json/yaml print this.
// Keys follow shared/conformance/FORMAT.md: results[].{policy,outcome,node,victims[]}.
void render(Format format, const model::Snapshot& snap, const std::vector<Explanation>& all,
            const Style& style, std::ostream& out);

// Where one preemptor of a sequence went under one policy.
struct SequenceStep {
  std::size_t item = 0;  // index of its Explanation
  policy::Outcome outcome = policy::Outcome::unschedulable;
  // The node it runs on (fits) or was nominated to (preempt); empty while pending, and for
  // quota-level decisions (Kueue admits to a ClusterQueue, not a node).
  std::string node;
  // The policy said it fits but not where: the node is kpreempt's stand-in for scoring.
  bool node_by_score = false;
};

// One policy's run through a sequence of preemptors, each decided after the earlier ones'
// decisions took effect.
struct SequenceSummary {
  std::string policy;
  std::vector<SequenceStep> steps;  // in placement order
  // Every victim of the run, node by node in the order nodes first lost one (quota-level
  // victims under node "").
  std::vector<std::pair<std::string, std::vector<model::ObjectRef>>> victims_by_node;
};

// Several preemptors placed one after another: a workload's pods, or every pending pod.
struct Sequence {
  std::string order;                      // how the preemptors were ordered, for people
  std::vector<SequenceSummary> policies;  // in registry order
  std::vector<std::string> not_modelled;  // what the sequence assumes, said with the answer
};

// `explain --pod-file` with several pods: the sequence's summary, then every explanation in
// placement order; json/yaml print an ExplanationList with a `summary` object.
void render_sequence(Format format, const model::Snapshot& snap,
                     const std::vector<Explanation>& all, const Sequence& seq, const Style& style,
                     std::ostream& out);

// `explain --all-pending`: a table with one row per preemptor and policy, then totals;
// json/yaml print a List of the Explanation documents plus a summary. `skipped` counts the
// pending preemptors no chosen policy applies to. With `seq` (--sequential) the rows follow
// the queue order and each policy's sequence summary follows.
void render_batch(Format format, const model::Snapshot& snap, const std::vector<Explanation>& all,
                  std::size_t skipped, std::ostream& out, const Sequence* seq = nullptr);

// `explain --victim`: who could evict one running pod, and which priority levels could.
struct VictimThreat {
  model::PodId preemptor = model::k_none;  // k_none for a Kueue Workload preemptor
  std::uint32_t workload = model::k_none;
  std::string policy;
  std::string node;       // empty for quota-level victims
  policy::Reason reason;  // the victim's reason in that decision
};

// Printed with the code can-preempt, from:<RFC 3339>, no:<reason> or the error's reason.
struct PolicyLevelVerdict {
  std::string policy;
  policy::LevelVerdict verdict;
};

struct PriorityLevel {
  std::string priority_class;
  std::int32_t value = 0;
  bool preempt_never = false;
  std::vector<PolicyLevelVerdict> verdicts;  // one per characterised policy, in registry order
};

// A condition of the victim that says its eviction is under way, quoted as written.
struct QuotedCondition {
  std::string type, status, reason;
  std::string message;               // Kueue conditions only; empty for a pod's
  std::optional<model::Instant> at;  // lastTransitionTime
};

// Where one policy's decision for an explaining preemptor stands towards the victim: it
// lists the victim, it waits for the victim to leave, or neither.
enum class Stance : std::uint8_t { lists, waits, neither };

struct PolicyStance {
  std::string policy;
  Stance stance = Stance::neither;
  // lists: the victim's reason in the decision; waits: the reason it waits (e.g.
  // waiting-for-victims:NODE); neither: the decision's first reason, if any.
  std::optional<policy::Reason> reason;
  policy::Outcome outcome = policy::Outcome::unschedulable;
};

// A preemptor whose decision accounts for an eviction under way.
struct Explainer {
  model::PodId pod = model::k_none;  // k_none for a Kueue Workload
  std::uint32_t workload = model::k_none;
  enum class State : std::uint8_t { pending, admitted, finished, bound } state = State::pending;
  // Found by node, priority and time alone (a bound pod that started after the eviction, a
  // Workload that reserved quota after it), not by a nomination or a UID the victim names.
  bool inferred = false;
  std::vector<PolicyStance> stances;       // pending preemptors: one per policy run
  std::optional<Explanation> explanation;  // pending preemptors: their decisions
};

// An eviction already under way: a terminating pod, a pod the scheduler marked with
// DisruptionTarget/PreemptionByScheduler, or a Kueue Workload evicted or preempted.
struct EvictionUnderWay {
  std::optional<model::Instant> deletion_timestamp;  // pods only
  std::vector<QuotedCondition> conditions;           // DisruptionTarget; or Evicted and Preempted
  std::string preemptor_uid, preemptor_job_uid;      // as a Kueue preemption message names them
  std::vector<Explainer> explained_by;               // empty: no preemptor explains it
  // When no preemptor explains it, what was checked, one clause each.
  std::vector<std::string> checked;
  // Then, found by time: who probably preempted it (each Explainer::inferred), and what
  // that search looked at.
  std::vector<Explainer> likely;
  std::string likely_search;
};

struct VictimReport {
  model::PodId victim = model::k_none;  // k_none when the victim is a Kueue Workload
  std::uint32_t victim_workload = model::k_none;
  std::vector<std::string> notes;  // about the choice of victim (a Workload of the same name)
  std::optional<EvictionUnderWay> under_way;
  model::Instant now;
  std::size_t pending = 0;            // pending preemptors explained
  std::vector<VictimThreat> threats;  // in input order of the preemptors, then policy order
  std::vector<PriorityLevel> levels;  // PriorityClasses of the dump, highest value first
  // Policies that cannot be judged per priority level: name -> why ("depends on quota").
  model::StringMap uncharacterised;
};

void render_victim_report(Format format, const model::Snapshot& snap, const VictimReport& r,
                          std::ostream& out);

}  // namespace kpreempt::render
