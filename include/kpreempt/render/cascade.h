// SPDX-License-Identifier: Apache-2.0
// A preemption cascade: rounds of every pending preemptor decided in queue order, the
// victims' owners bringing them back between rounds, until nothing more is evicted, a state
// repeats or the rounds run out.
#pragma once

#include "kpreempt/policy/policy.h"
#include "kpreempt/render/render.h"

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace kpreempt::render {

// One preemptor's decision in a round: "ns/name" (or "Workload ns/name"), the policy of its
// scheduler, where it went and whom it evicted ("ns/name" or "Workload ns/name").
struct CascadeDecision {
  std::string preemptor;
  std::string policy;
  policy::Outcome outcome = policy::Outcome::unschedulable;
  std::string node;
  std::vector<std::string> victims;
  // What makes the eviction possible (scenario::eviction_cause); empty when it evicts nobody.
  std::string because;
};

struct CascadeRound {
  std::size_t round = 0;  // from 1
  std::vector<CascadeDecision> decisions;
  // Victims their owner made again (pending in the next round): "ns/name (ReplicaSet web-5d8)";
  // evicted Workloads requeued: "Workload ns/name (requeued)".
  std::vector<std::string> recreated;
  // Victims nobody brings back: bare pods, a Job's past its backoff limit.
  std::vector<std::string> gone;
  std::size_t admitted = 0;  // decisions that placed (or admitted) their preemptor
  std::size_t evicted = 0;
  std::size_t pending = 0;  // preemptors pending once the round and its recreations are done
};

struct Cascade {
  std::vector<CascadeRound> rounds;
  std::size_t admitted = 0;
  std::size_t evictions = 0;
  std::size_t evicted_more_than_once = 0;  // distinct victims evicted at least twice
  // Nothing was evicted in the last round: the next would change nothing.
  bool settled = false;
  // A state (pods bound per node, pending preemptors, admitted Workloads) repeated: the
  // preempting decisions from the round after the first occurrence to the repeat.
  std::optional<std::vector<CascadeDecision>> loop;
  std::size_t loop_from = 0;  // the round whose end state repeated (0: the dump itself)
  std::vector<std::string> not_modelled;

  double amplification() const {
    return admitted == 0 ? 0.0 : static_cast<double>(evictions) / static_cast<double>(admitted);
  }
};

// Text: per round a timeline, recreated and gone pods, then the summary and the loop.
// json/yaml: a `kind: Cascade` document.
void render_cascade(Format format, const Cascade& c, std::ostream& out);

}  // namespace kpreempt::render
