// SPDX-License-Identifier: Apache-2.0
// DefaultPreemption's class-level rules, which the policies built on it start from, and what
// the class-level answers of every policy share.
#include "kpreempt/policy/classes.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kpreempt::policy {

std::string_view to_string(ClassVerdict v) {
  constexpr std::array<std::string_view, 5> k_words{"yes", "no", "after", "never", "last"};
  return k_words[static_cast<std::size_t>(v)];
}

std::string cell_text(const ClassCell& c) {
  return c.verdict == ClassVerdict::after ? fmt::format("after {}s", c.seconds)
                                          : std::string(to_string(c.verdict));
}

ClassView class_view(const model::PriorityClass& pc) {
  return {pc.name, pc.value, pc.preemption_policy == "Never", &pc};
}

bool has_annotation(const model::PriorityClass* pc, std::string_view prefix) {
  return pc != nullptr && std::any_of(pc->annotations.begin(), pc->annotations.end(),
                                      [&](const auto& kv) { return kv.first.starts_with(prefix); });
}

bool any_annotated(std::span<const ClassView> classes, std::string_view prefix) {
  return std::any_of(classes.begin(), classes.end(),
                     [&](const ClassView& c) { return has_annotation(c.object, prefix); });
}

// SelectVictimsOnNode keeps only pods of strictly lower priority; PodEligibleToPreemptOthers
// stops a Never preemptor before any of it.
ClassCell default_class_cell(const ClassView& preemptor, const ClassView& victim) {
  bool may = !preemptor.never && preemptor.value > victim.value;
  return {may ? ClassVerdict::yes : ClassVerdict::no, 0};
}

std::optional<LevelVerdict> default_level_refusal(std::int32_t victim_priority,
                                                  const ClassView& preemptor_class) {
  if (preemptor_class.value <= victim_priority) {
    return LevelVerdict{LevelVerdict::Kind::no, Reason(Code::not_higher_priority),
                        fmt::format("value {} is not above the pod's priority {}",
                                    preemptor_class.value, victim_priority)};
  }
  if (preemptor_class.never) {
    return LevelVerdict{LevelVerdict::Kind::no, Reason(Code::preemption_policy_never),
                        "pods of this class have preemptionPolicy Never"};
  }
  return std::nullopt;
}

std::string depends_on_quota(const model::Snapshot& /*snap*/) {
  return "depends on quota: see explain --pod";
}

namespace {

bool always_shown(std::span<const ClassView> /*classes*/) {
  return true;
}

LevelVerdict default_level(const model::Snapshot& snap, model::PodId victim,
                           const ClassView& preemptor_class, model::Instant /*now*/) {
  std::int32_t priority = snap.facts(victim).priority;
  if (auto no = default_level_refusal(priority, preemptor_class)) {
    return *no;
  }
  return {LevelVerdict::Kind::can_preempt, std::nullopt,
          fmt::format("value {} is above the pod's priority {}", preemptor_class.value, priority)};
}

}  // namespace

const ClassRules k_default_class_rules{
    .shown = always_shown,
    .cell = default_class_cell,
    .level = default_level,
};

const ClassRules k_quota_class_rules{
    .victim_note = depends_on_quota,
};

}  // namespace kpreempt::policy
