// SPDX-License-Identifier: Apache-2.0
// What a policy says from PriorityClasses alone: whether any pod of one class may preempt any
// pod of another (`kpreempt matrix`), and which classes could preempt one running pod
// (`explain --victim`). Each policy answers in its own folder; the CLI only asks.
#pragma once

#include "kpreempt/model/objects.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/model/time.h"
#include "kpreempt/policy/reason.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::policy {

// A PriorityClass as the class-level questions see it.
struct ClassView {
  std::string name;
  std::int32_t value = 0;
  bool never = false;                            // preemptionPolicy: Never
  const model::PriorityClass* object = nullptr;  // null for a built-in the input lacks
};

// A PriorityClass of the input as a ClassView.
ClassView class_view(const model::PriorityClass& pc);

// May a pod of one class preempt a pod of another: yes, no, after N seconds of the victim
// being scheduled, never (tolerated forever), or last (only when no other victim will do).
enum class ClassVerdict : std::uint8_t { yes, no, after, never, last };

struct ClassCell {
  ClassVerdict verdict = ClassVerdict::no;
  std::int64_t seconds = 0;  // after only
};
// "yes", "no", "after", "never", "last".
std::string_view to_string(ClassVerdict v);
// A cell as `matrix` prints it: "yes", "after 600s", ...
std::string cell_text(const ClassCell& c);

// Whether pods of one class could preempt one running pod.
struct LevelVerdict {
  enum class Kind : std::uint8_t { can_preempt, from, no, error };
  Kind kind = Kind::no;
  // no, error: the rule that stops it; from: tolerates-until with the instant as subject;
  // can_preempt: the rule that lets it, when one is worth naming (toleration-expired).
  std::optional<Reason> why;
  std::string detail;  // for people
};

// A policy's class-level rules. Every member may be null: a policy without `cell` has no
// `matrix` table, one without `level` is described per victim by `victim_note` alone.
struct ClassRules {
  // Whether `matrix` prints this policy's table for these classes.
  bool (*shown)(std::span<const ClassView> classes) = nullptr;
  ClassCell (*cell)(const ClassView& preemptor, const ClassView& victim) = nullptr;
  // Lines printed under the table: what the cells leave out, classes whose rules are void.
  std::vector<std::string> (*notes)(std::span<const ClassView> classes) = nullptr;
  LevelVerdict (*level)(const model::Snapshot& snap, model::PodId victim,
                        const ClassView& preemptor_class, model::Instant now) = nullptr;
  // Why a running pod's threats cannot be told per priority level under this policy.
  std::string (*victim_note)(const model::Snapshot& snap) = nullptr;
};

// kube-scheduler DefaultPreemption's class rules: only strictly lower priorities, never for a
// preemptionPolicy Never preemptor. Other policies that build on it start from these.
ClassCell default_class_cell(const ClassView& preemptor, const ClassView& victim);
std::optional<LevelVerdict> default_level_refusal(std::int32_t victim_priority,
                                                  const ClassView& preemptor_class);
extern const ClassRules k_default_class_rules;
// For policies whose answer depends on quota usage: a victim note, no matrix.
extern const ClassRules k_quota_class_rules;
// For policies whose answer depends on quota usage, not on classes.
std::string depends_on_quota(const model::Snapshot& snap);
// Whether some class carries an annotation key starting with `prefix`.
bool any_annotated(std::span<const ClassView> classes, std::string_view prefix);
bool has_annotation(const model::PriorityClass* pc, std::string_view prefix);

}  // namespace kpreempt::policy
