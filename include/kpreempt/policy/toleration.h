// SPDX-License-Identifier: Apache-2.0
// scheduler-plugins PreemptionToleration (v0.35): DefaultPreemption where a victim's
// PriorityClass annotations can exempt it from preemption by some preemptors for a while.
#pragma once

#include "kpreempt/model/objects.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/model/time.h"
#include "kpreempt/policy/classes.h"
#include "kpreempt/policy/policy.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kpreempt::policy {

Decision decide_toleration(const Input& in);

// Whether `--policy all` runs it: some class carries its annotations (or the legacy ones,
// which it ignores but which a user expects to matter).
bool toleration_applies(const model::Snapshot& snap, model::PodId preemptor);
extern const ClassRules k_toleration_class_rules;

inline constexpr std::string_view k_toleration_prefix =
    "preemption-toleration.scheduling.x-k8s.io/";
// Read by v0.22.x-v0.24.x only; current releases ignore keys under it.
inline constexpr std::string_view k_toleration_legacy_prefix =
    "preemption-toleration.scheduling.sigs.k8s.io/";
inline constexpr std::string_view k_min_preemptable_priority_key =
    "preemption-toleration.scheduling.x-k8s.io/minimum-preemptable-priority";
inline constexpr std::string_view k_toleration_seconds_key =
    "preemption-toleration.scheduling.x-k8s.io/toleration-seconds";

struct TolerationPolicy {
  std::int32_t minimum_preemptable_priority = 0;
  bool minimum_defaulted = false;  // key absent: class value + 1
  std::int64_t toleration_seconds = 0;
  bool seconds_defaulted = false;  // key absent: 0
};

// The policy of a class, or the first annotation that failed to parse (which voids it all).
struct TolerationPolicyParse {
  std::optional<TolerationPolicy> policy;
  std::string key, value, error;  // set when policy is empty
};
TolerationPolicyParse parse_toleration_policy(const model::PriorityClass& pc);

// lastTransitionTime + seconds, with the window computed as Go's int64 nanosecond Duration
// (wrapping on overflow). `scheduled_at` is truncated to whole seconds first.
model::Instant toleration_expiry(model::Instant scheduled_at, std::int64_t seconds);

// ExemptedFromPreemption for one lower-priority pod against the preemptor.
struct Exemption {
  enum class Kind { not_exempt, exempt, error };
  Kind kind = Kind::not_exempt;
  // not_exempt: no-priority-class, invalid-policy, min-preemptable-priority-reached,
  //   toleration-expired; exempt: exempt:preemptor-never, tolerates:min-preemptable-priority,
  //   tolerates:not-scheduled, tolerates-until:<RFC 3339>; error: error:priority-class-not-found.
  // Empty when the judgement was not worded.
  std::optional<Reason> code;
  std::string detail;  // for people
};
// With `worded` false only an error carries code and detail: for callers that read the kind
// alone, since the words cost more than the judgement.
Exemption evaluate_toleration(const model::Snapshot& snap, model::PodId victim,
                              model::PodId preemptor, model::Instant now, bool worded = true);
// The same judgement for a preemptor known only by its priority and preemptionPolicy, such as
// any pod of a given PriorityClass.
Exemption evaluate_toleration_for(const model::Snapshot& snap, model::PodId victim,
                                  std::int32_t preemptor_priority, bool preemptor_never,
                                  model::Instant now, bool worded = true);

}  // namespace kpreempt::policy
