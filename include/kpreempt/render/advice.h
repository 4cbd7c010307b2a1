// SPDX-License-Identifier: Apache-2.0
// `kpreempt advise`: the smallest changes that reach a goal (save a victim, let a pending pod
// fit, place it, admit a Workload), each found by search and checked by running the policy on
// the edited cluster, as data and as text, JSON or YAML (kind: Advice).
#pragma once

#include "kpreempt/model/objects.h"
#include "kpreempt/policy/policy.h"
#include "kpreempt/render/render.h"

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kpreempt::render {

// One change that reaches the goal: one field of one object, from one value to another.
struct Suggestion {
  model::ObjectRef object;  // what to change: PriorityClass/x, Pod/ns/name, ClusterQueue/q...
  std::string field;        // its path: "value", "spec.minAvailable", "spec.nominalQuota[cpu]"
  std::string from, to;     // as written in a manifest ("5000", "31500m", "Never")
  std::string sentence;     // "raise PriorityClass research from 5000 to 50000"
  std::string effect;       // "saves research/notebook-alice and research/notebook-bob"
  // For a victim: what each pending preemptor that evicted it decides instead
  // ("ml/trainer-0: preempt 2 pods on gpu-a100-2 (...)").
  std::vector<std::string> instead;
  // The value next to `to` that does not reach the goal ("" for a choice among names): the
  // boundary's other side, also run.
  std::string next;
  bool verified = false;           // the goal was checked on the edited cluster, both sides
  std::string command;             // a ready kubectl command, or "" when none applies
  std::vector<std::string> notes;  // what the change needs beyond the field (recreated pods...)
  // Other pending preemptors whose decision changes with it, and the first few of them.
  std::size_t changed_decisions = 0;
  std::vector<std::string> changed;
  double size = 0;  // relative size of the change, for ranking: |to - from| / max(|from|, 1)
};

// A knob that was tried and cannot reach the goal within its range.
struct NoEffect {
  model::ObjectRef object;
  std::string field;
  std::string why;  // "raising it up to 1000000000 does not save the pod"
};

// One policy's answer.
struct AdviceResult {
  std::string policy;
  std::string line;  // the upstream release line it mirrored
  // The goal already holds without a change (nothing to advise), or the policy cannot judge.
  bool already = false;
  std::string baseline;                 // what the policy decides today, in one sentence
  std::vector<Suggestion> suggestions;  // best first: fewest side effects, then smallest
  std::vector<NoEffect> no_effect;
  std::size_t probes = 0;  // policy runs on edited clusters
  std::vector<std::string> warnings;
};

struct Advice {
  std::string goal;    // save, fit, place, admit
  std::string target;  // "research/notebook-alice", "Workload team-a/job-7"
  model::Instant now;
  std::size_t pending = 0;  // pending preemptors the side effects were counted over
  std::vector<AdviceResult> results;
  std::vector<std::string> notes;  // what every answer assumes
  std::size_t limit = 3;           // suggestions per policy the text prints
};

void render_advice(Format format, const Advice& a, std::ostream& out);

}  // namespace kpreempt::render
