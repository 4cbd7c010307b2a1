// SPDX-License-Identifier: Apache-2.0
// `kpreempt advise`: the policy as an oracle. Each knob is a typed edit of one field of one
// object; a search finds the value where the goal starts to hold, and both sides of that
// boundary are run on the edited snapshot. Every suggestion is then checked against every
// other pending preemptor, to count the decisions it changes on the way.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/model/snapshot_edit.h"
#include "kpreempt/policy/lines.h"
#include "kpreempt/policy/policy.h"
#include "kpreempt/render/advice.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::scenario {

enum class AdviseGoal : std::uint8_t {
  save,   // no pending preemptor's decision lists the pod or Workload
  fit,    // the pending pod or Workload gets a node (or quota) without evicting anyone
  place,  // it gets a node, evicting if it must
  admit,  // a Workload is admitted, evicting if it must
};
std::string_view to_string(AdviseGoal g);

// A pending pod or Kueue Workload, by its index in the snapshot. (Not scenario.h's
// Preemptor, which names one in a case file.)
struct PendingRef {
  model::PodId pod = model::k_none;
  std::uint32_t workload = model::k_none;
  friend bool operator==(const PendingRef&, const PendingRef&) = default;
};

// What the goal is about: the victim to save, or the pending preemptor to fit, place or admit.
struct AdviseTarget {
  AdviseGoal goal = AdviseGoal::save;
  PendingRef subject;
  // A workload's pods (a --pod-file Deployment, Job...), in queue order, when it has several:
  // the goal holds when every one is placed (or fits), each decided after the ones before it.
  // `subject` is the first.
  std::vector<PendingRef> group;
  // The target comes from a what-if manifest (--pod-file): changes go to the file, not to the
  // cluster with kubectl.
  bool manifest = false;
  bool member(const PendingRef& p) const {
    return p == subject || std::find(group.begin(), group.end(), p) != group.end();
  }
};

// One policy as `explain` resolves it.
struct AdviseRun {
  const policy::Entry& entry;
  const policy::Args& args;
  policy::LineChoice line;
  model::Instant now;
};

// A typed edit of one field of one object over integer values. A choice among names numbers
// its choices (`choices`); every other knob is a number moved from `from` toward `limit`.
struct Knob {
  model::ObjectRef object;
  std::string field;
  std::int64_t from = 0;
  std::int64_t limit = 0;  // the farthest value worth trying; == from: nothing to try
  // Values worth trying first (class values, preemptor priorities), any order: the search
  // looks among them before it narrows to the exact integer.
  std::vector<std::int64_t> landmarks;
  std::vector<std::string> choices;  // for a choice: the names; `from` is the current index
  std::function<void(model::SnapshotEdit&, std::int64_t)> apply;
  std::function<std::string(std::int64_t)> show;     // as a manifest writes the value
  std::function<std::string(std::int64_t)> command;  // a ready kubectl command, or ""
  // The value a command would rather set than `to` (a PriorityClass that exists, of a value
  // past the boundary), or nullopt. It is run too: the command sets it only if it also
  // reaches the goal.
  std::function<std::optional<std::int64_t>(std::int64_t)> preferred;
  // The sentence's verb and object: "raise PriorityClass research" reads
  // "<verb> <what> from X to Y".
  std::string what;
  // Instead of that sentence, when the change has a name of its own ("uncordon node x").
  std::string sentence;
  std::vector<std::string> notes;
};

// What a knob family sees: the snapshot as it is, the policy, the goal, and for a victim the
// pending preemptors whose decision lists it today.
struct KnobContext {
  const model::Snapshot& snap;
  const policy::Entry& entry;
  AdviseTarget target;
  std::vector<PendingRef> threats;
};

// The knobs that may move the goal under the context's policy, families in order.
std::vector<Knob> knobs_for(const KnobContext& ctx);

// Searches every knob and checks each answer; `pending` are the pending preemptors the policy
// takes (the target's threats among them). The snapshot is edited while it runs and is as
// before when it returns.
render::AdviceResult advise(model::Snapshot& snap, const AdviseRun& run, const AdviseTarget& target,
                            const std::vector<PendingRef>& pending);

// The controller that owns the pod, as a user edits it: a ReplicaSet behind its Deployment
// (named "<deployment>-<pod-template-hash>", or "<deployment>-what-if" for a manifest's);
// nullopt for a pod without one.
std::optional<model::ObjectRef> workload_of(const model::Pod& pod);

// What every answer assumes, said with it.
std::vector<std::string> advise_assumptions();

}  // namespace kpreempt::scenario
