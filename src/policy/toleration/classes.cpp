// SPDX-License-Identifier: Apache-2.0
// PreemptionToleration's class-level rules: DefaultPreemption's, where a victim's class may
// tolerate preemptors below its minimum-preemptable-priority for toleration-seconds after the
// victim is scheduled, or forever.
#include "kpreempt/policy/classes.h"

#include "kpreempt/policy/toleration.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy {
namespace {

constexpr std::string_view k_any_prefix = "preemption-toleration.";

bool shown(std::span<const ClassView> classes) {
  return any_annotated(classes, k_any_prefix);
}

// ExemptedFromPreemption for a victim that has been scheduled; a victim not yet scheduled (no
// PodScheduled=True) is protected even with 0 seconds.
ClassCell cell(const ClassView& preemptor, const ClassView& victim) {
  ClassCell base = default_class_cell(preemptor, victim);
  if (base.verdict == ClassVerdict::no || victim.object == nullptr) {
    return base;
  }
  auto parsed = parse_toleration_policy(*victim.object);
  if (!parsed.policy || preemptor.value >= parsed.policy->minimum_preemptable_priority) {
    return base;  // a parse error voids the whole policy
  }
  std::int64_t seconds = parsed.policy->toleration_seconds;
  if (seconds < 0) {
    return {ClassVerdict::never, 0};
  }
  return seconds == 0 ? base : ClassCell{ClassVerdict::after, seconds};
}

std::vector<std::string> notes(std::span<const ClassView> classes) {
  std::vector<std::string> out;
  for (const ClassView& c : classes) {
    if (has_annotation(c.object, k_toleration_legacy_prefix)) {
      out.push_back(fmt::format("{}: keys under {} are ignored since scheduler-plugins v0.25.7",
                                c.name, k_toleration_legacy_prefix));
    }
    if (!has_annotation(c.object, k_toleration_prefix)) {
      continue;
    }
    auto parsed = parse_toleration_policy(*c.object);
    if (!parsed.policy) {
      out.push_back(fmt::format("{}: toleration ignored, {} \"{}\": {}", c.name, parsed.key,
                                parsed.value, parsed.error));
    }
  }
  out.emplace_back(
      "after and never protect only from preemptors below the class's "
      "minimum-preemptable-priority; the window starts at the victim's "
      "PodScheduled time");
  return out;
}

LevelVerdict level(const model::Snapshot& snap, model::PodId victim,
                   const ClassView& preemptor_class, model::Instant now) {
  if (auto no = default_level_refusal(snap.facts(victim).priority, preemptor_class)) {
    return *no;
  }
  Exemption e =
      evaluate_toleration_for(snap, victim, preemptor_class.value, preemptor_class.never, now);
  switch (e.kind) {
    case Exemption::Kind::not_exempt:
      return {LevelVerdict::Kind::can_preempt, e.code, e.detail};
    case Exemption::Kind::error:
      return {LevelVerdict::Kind::error, e.code, e.detail};
    case Exemption::Kind::exempt:
      break;
  }
  bool until = e.code && e.code->code == Code::tolerates_until;
  return {until ? LevelVerdict::Kind::from : LevelVerdict::Kind::no, e.code, e.detail};
}

}  // namespace

bool toleration_applies(const model::Snapshot& snap, model::PodId /*preemptor*/) {
  return std::any_of(
      snap.priority_classes().begin(), snap.priority_classes().end(),
      [](const model::PriorityClass& c) { return has_annotation(&c, k_any_prefix); });
}

const ClassRules k_toleration_class_rules{
    .shown = shown,
    .cell = cell,
    .notes = notes,
    .level = level,
};

}  // namespace kpreempt::policy
