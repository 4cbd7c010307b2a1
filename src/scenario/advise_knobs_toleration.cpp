// SPDX-License-Identifier: Apache-2.0
// The PreemptionToleration knobs of `advise`: the two annotations of the victim's PriorityClass
// that exempt it from preemptors below a minimum priority, for a while or for good.
#include "scenario/advise_knobs.h"

#include "kpreempt/policy/toleration.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kpreempt::scenario::knobs {
namespace {

// The longest window that does not overflow the plugin's nanosecond Duration: one more second
// wraps it round to about -292 years (already expired).
constexpr std::int64_t k_longest_window = std::numeric_limits<std::int64_t>::max() / 1000000000;
// The seconds knob's far end stands for -1: tolerated for as long as the pod runs, which the
// plugin checks before any clock. Every window the search tries lies below it.
constexpr std::int64_t k_forever = k_longest_window + 1;

// The class the victim names, as an index into the editable classes; the built-in system
// classes a dump may leave out cannot be annotated here.
std::optional<std::uint32_t> class_of(const model::Snapshot& snap, const model::Pod& pod) {
  const auto& classes = snap.priority_classes();
  for (std::uint32_t i = 0; i < classes.size(); ++i) {
    if (!pod.priority_class_name.empty() && classes[i].name == pod.priority_class_name) {
      return i;
    }
  }
  return std::nullopt;
}

// The class's annotations with `key` set to `value`; the map stays sorted by key.
model::StringMap with_annotation(model::StringMap annotations, std::string_view key,
                                 std::string value) {
  const auto it = std::lower_bound(annotations.begin(), annotations.end(), key,
                                   [](const auto& e, std::string_view k) { return e.first < k; });
  if (it != annotations.end() && it->first == key) {
    it->second = std::move(value);
  } else {
    annotations.emplace(it, std::string(key), std::move(value));
  }
  return annotations;
}

// The highest priority of a pending pod: a minimum above it tolerates every preemptor there is.
std::int64_t highest_pending_priority(const model::Snapshot& snap) {
  std::int64_t best = std::numeric_limits<std::int32_t>::min();
  for (model::PodId id = 0; id < snap.pods().size(); ++id) {
    if (snap.pods()[id].pending()) {
      best = std::max<std::int64_t>(best, snap.facts(id).priority);
    }
  }
  return best;
}

// A window of 0 seconds protects a scheduled pod from nobody: a new minimum alone would change
// nothing for it. The plugin reads the first PodScheduled condition only.
bool needs_window(const model::Pod& pod, const policy::TolerationPolicy& p) {
  const auto c = std::find_if(pod.conditions.begin(), pod.conditions.end(),
                              [](const auto& e) { return e.type == "PodScheduled"; });
  return p.toleration_seconds == 0 && c != pod.conditions.end() && c->status == "True";
}

std::string annotate_command(const std::string& cls, std::string_view key, std::int64_t v,
                             bool forever) {
  return fmt::format("kubectl annotate priorityclass {} {}={}{} --overwrite", cls, key, v,
                     forever ? fmt::format(" {}=-1", policy::k_toleration_seconds_key) : "");
}

std::string pods_of_class_note(const model::Snapshot& snap, const std::string& cls) {
  const auto n = std::count_if(snap.pods().begin(), snap.pods().end(), [&](const model::Pod& p) {
    return p.priority_class_name == cls && !p.terminal();
  });
  return fmt::format(
      "the annotation holds for every pod of PriorityClass {} ({} in the input), read at each "
      "preemption: no pod is recreated",
      cls, n);
}

Knob minimum_knob(const KnobContext& ctx, std::uint32_t cls, const policy::TolerationPolicy& p) {
  const model::Pod& pod = ctx.snap.pods()[ctx.target.subject.pod];
  const std::string& name = ctx.snap.priority_classes()[cls].name;
  const bool forever = needs_window(pod, p);
  Knob k;
  k.object = {"PriorityClass", "", name};
  k.field = fmt::format("metadata.annotations[{}]", policy::k_min_preemptable_priority_key);
  k.what = fmt::format("the minimum-preemptable-priority of PriorityClass {}", name);
  k.from = p.minimum_preemptable_priority;
  // A preemptor is tolerated while its priority is below the minimum: one above the highest
  // pending priority tolerates them all, and int32 bounds the value.
  k.limit = std::clamp<std::int64_t>(highest_pending_priority(ctx.snap) + 1, k.from,
                                     std::numeric_limits<std::int32_t>::max());
  for (const PendingRef& t : ctx.threats) {
    if (t.pod != model::k_none) {
      k.landmarks.push_back(std::int64_t{ctx.snap.facts(t.pod).priority} + 1);
    }
  }
  k.apply = [cls, forever](model::SnapshotEdit& e, std::int64_t v) {
    model::PriorityClass& c = e.priority_classes()[cls];
    model::StringMap a =
        with_annotation(c.annotations, policy::k_min_preemptable_priority_key, std::to_string(v));
    if (forever) {
      a = with_annotation(std::move(a), policy::k_toleration_seconds_key, "-1");
    }
    e.assign(c.annotations, std::move(a));
  };
  k.show = [](std::int64_t v) { return std::to_string(v); };
  k.command = [name, forever](std::int64_t v) {
    return annotate_command(name, policy::k_min_preemptable_priority_key, v, forever);
  };
  if (p.minimum_defaulted) {
    k.notes.push_back(fmt::format("the class sets no minimum: it is the class value + 1 ({})",
                                  p.minimum_preemptable_priority));
  }
  if (forever) {
    k.notes.push_back(fmt::format(
        "toleration-seconds is {} here, which protects a scheduled pod from nobody: the change "
        "sets it to -1 as well (tolerated for as long as the pod runs)",
        p.seconds_defaulted ? "absent (0)" : "0"));
  }
  k.notes.push_back(pods_of_class_note(ctx.snap, name));
  return k;
}

Knob seconds_knob(const KnobContext& ctx, std::uint32_t cls, const policy::TolerationPolicy& p) {
  const std::string& name = ctx.snap.priority_classes()[cls].name;
  Knob k;
  k.object = {"PriorityClass", "", name};
  k.field = fmt::format("metadata.annotations[{}]", policy::k_toleration_seconds_key);
  k.what = fmt::format("the toleration-seconds of PriorityClass {}", name);
  // Negative already tolerates for good: there is nothing further.
  k.from = p.toleration_seconds;
  k.limit = p.toleration_seconds < 0 ? p.toleration_seconds : k_forever;
  const auto written = [](std::int64_t v) { return v == k_forever ? std::int64_t{-1} : v; };
  k.apply = [cls, written](model::SnapshotEdit& e, std::int64_t v) {
    model::PriorityClass& c = e.priority_classes()[cls];
    e.assign(c.annotations, with_annotation(c.annotations, policy::k_toleration_seconds_key,
                                            std::to_string(written(v))));
  };
  k.show = [written](std::int64_t v) { return std::to_string(written(v)); };
  k.command = [name, written](std::int64_t v) {
    return fmt::format("kubectl annotate priorityclass {} {}={} --overwrite", name,
                       policy::k_toleration_seconds_key, written(v));
  };
  k.notes.push_back(
      "the window counts from the pod's PodScheduled time: the value is the least that protects "
      "it now, and only until the window ends; add the time it must stay, or use -1 to protect "
      "it for as long as it runs (from preemptors below minimum-preemptable-priority only)");
  k.notes.push_back(pods_of_class_note(ctx.snap, name));
  return k;
}

}  // namespace

void toleration(const KnobContext& ctx, std::vector<Knob>& out) {
  if (ctx.target.goal != AdviseGoal::save || ctx.target.subject.pod == model::k_none) {
    return;
  }
  const model::Pod& pod = ctx.snap.pods()[ctx.target.subject.pod];
  const std::optional<std::uint32_t> cls = class_of(ctx.snap, pod);
  if (!cls) {
    return;  // no class, or one the dump lacks: no annotation protects the pod
  }
  // An annotation that does not parse voids the class's whole policy; a knob on the other
  // one would search in vain.
  const policy::TolerationPolicyParse parsed =
      policy::parse_toleration_policy(ctx.snap.priority_classes()[*cls]);
  if (!parsed.policy) {
    return;
  }
  out.push_back(minimum_knob(ctx, *cls, *parsed.policy));
  out.push_back(seconds_knob(ctx, *cls, *parsed.policy));
}

}  // namespace kpreempt::scenario::knobs
