// SPDX-License-Identifier: Apache-2.0
// PreemptionToleration: the default algorithm with a victim check that exempts pods whose
// PriorityClass tolerates the preemptor. Mirrors kubernetes-sigs/scheduler-plugins
// pkg/preemptiontoleration/preemption_toleration.go ExemptedFromPreemption and SelectVictimsOnNode,
// and preemption_toleration_policy.go parsePreemptionTolerationPolicy (v0.35, commit 903da7df82cb).
#include "kpreempt/policy/toleration.h"

#include "kpreempt/diag.h"
#include "kpreempt/model/go_parse.h"
#include "kpreempt/policy/default.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kpreempt::policy {
namespace {

using model::Instant;
using model::PodId;
using model::go::quote;

constexpr std::int64_t k_nanos_per_second = 1'000'000'000;
// Go's zero time.Time, 0001-01-01T00:00:00Z: what a null lastTransitionTime decodes to.
constexpr Instant k_go_zero_time{-62'135'596'800, 0};

struct Words {
  Reason code;
  std::string detail;
};

// The judgement, worded only when someone reads the words: a dry run over a big cluster judges
// every lower-priority pod of every potential node. An error is always worded, since it becomes
// the node's own code.
template <class Wording>
Exemption judged(Exemption::Kind kind, bool worded, Wording wording) {
  if (!worded && kind != Exemption::Kind::error) {
    return Exemption{kind, std::nullopt, {}};
  }
  Words w = wording();
  return Exemption{kind, std::move(w.code), std::move(w.detail)};
}

// podutil.GetPodCondition: the first condition of the type.
const model::PodCondition* pod_scheduled(const model::Pod& pod) {
  for (const auto& c : pod.conditions) {
    if (c.type == "PodScheduled") {
      return &c;
    }
  }
  return nullptr;
}

std::string minimum_text(const TolerationPolicy& p, const model::PriorityClass& pc) {
  if (!p.minimum_defaulted) {
    return std::to_string(p.minimum_preemptable_priority);
  }
  return fmt::format("{} (default: class value {} + 1{})", p.minimum_preemptable_priority, pc.value,
                     p.seconds_defaulted ? "; the class sets no toleration" : "");
}

std::string seconds_text(const TolerationPolicy& p) {
  if (p.seconds_defaulted) {
    return "toleration-seconds=0 by default";
  }
  return fmt::format("toleration-seconds {}", p.toleration_seconds);
}

// Rows 6-9 of the decision table: the preemptor is below the minimum, so the time window
// decides. Negative seconds and a pod not (yet) scheduled are judged before the clock.
Exemption judge_window(const model::Pod& pod, const TolerationPolicy& p, Instant now, bool worded) {
  const std::int32_t min = p.minimum_preemptable_priority;
  if (p.toleration_seconds < 0) {
    return judged(Exemption::Kind::exempt, worded, [&] {
      return Words{Code::tolerates_min_preemptable_priority,
                   fmt::format("protected while priority < {} (toleration forever)", min)};
    });
  }
  const model::PodCondition* cond = pod_scheduled(pod);
  if (cond == nullptr || cond->status != "True") {
    return judged(Exemption::Kind::exempt, worded, [&] {
      const std::string why = cond == nullptr
                                  ? "no PodScheduled condition"
                                  : fmt::format("PodScheduled is {}", quote(cond->status));
      return Words{Code::tolerates_not_scheduled,
                   fmt::format("protected from priority < {}: {}, so the toleration window has "
                               "not started ({})",
                               min, why, seconds_text(p))};
    });
  }
  const bool null_time = !cond->last_transition_time.has_value();
  const Instant scheduled = cond->last_transition_time.value_or(k_go_zero_time);
  const Instant expiry = toleration_expiry(scheduled, p.toleration_seconds);
  if (expiry > now) {
    return judged(Exemption::Kind::exempt, worded, [&] {
      return Words{Reason(Code::tolerates_until, model::to_string(expiry)),
                   fmt::format("protected from priority < {} until {} ({})", min,
                               model::to_string(expiry), seconds_text(p))};
    });
  }
  return judged(Exemption::Kind::not_exempt, worded, [&] {
    return Words{
        Code::toleration_expired,
        fmt::format("toleration expired at {} (scheduled at {}{}, {})", model::to_string(expiry),
                    model::to_string(Instant{scheduled.seconds, 0}),
                    null_time ? ": lastTransitionTime null" : "", seconds_text(p))};
  });
}

// A dump may carry the annotation prefix of v0.22-v0.24, which current releases ignore.
std::string legacy_prefix_warning(const model::Snapshot& snap) {
  std::vector<std::string> names;
  for (const auto& pc : snap.priority_classes()) {
    for (const auto& [key, value] : pc.annotations) {
      if (key.starts_with(k_toleration_legacy_prefix)) {
        names.push_back(quote(pc.name));
        break;
      }
    }
  }
  if (names.empty()) {
    return {};
  }
  const bool one = names.size() == 1;
  return fmt::format(
      "PriorityClass{} {} use{} the legacy annotation prefix {}, which scheduler-plugins "
      "ignores since v0.25; {} pods get no toleration",
      one ? "" : "es", fmt::join(names, ", "), one ? "s" : "", k_toleration_legacy_prefix,
      one ? "its" : "their");
}

struct WindowField {
  std::string_view name;
  std::int64_t fallback;
};

// PreemptionTolerationArgs is an alias of DefaultPreemptionArgs, read under this plugin's name
// (--set first, then the dump's scheduler configuration). The inner algorithm reads
// DefaultPreemption.* keys, so it gets every field explicitly: DefaultPreemption's own args
// belong to another plugin and do not apply to a profile running this one.
Args toleration_args(const Input& in) {
  const Args config(in.snapshot.scheduler_config().plugin_args);
  model::StringMap inner;  // sorted by key: Absolute < Percentage
  for (const WindowField& f : {WindowField{"minCandidateNodesAbsolute", 100},
                               WindowField{"minCandidateNodesPercentage", 10}}) {
    const std::string own = fmt::format("PreemptionToleration.{}", f.name);
    std::int64_t value = f.fallback;
    bool found = false;
    for (const Args* a : {&in.args, &config}) {
      for (std::string_view key : {std::string_view(own), f.name}) {
        if (!found && a->find(key) != nullptr) {
          value = a->get_int(key, f.fallback);
          found = true;
        }
      }
    }
    inner.emplace_back(fmt::format("DefaultPreemption.{}", f.name), std::to_string(value));
  }
  // ValidateDefaultPreemptionArgs, with this plugin's names in the messages.
  const std::int64_t absolute = std::stoll(inner[0].second);
  const std::int64_t percentage = std::stoll(inner[1].second);
  if (percentage < 0 || percentage > 100) {
    throw UsageError(fmt::format(
        "PreemptionToleration.minCandidateNodesPercentage: {} is not in the range [0, 100]",
        percentage));
  }
  if (absolute < 0) {
    throw UsageError(fmt::format(
        "PreemptionToleration.minCandidateNodesAbsolute: {} is not in the range [0, inf)",
        absolute));
  }
  if (percentage == 0 && absolute == 0) {
    throw UsageError(
        "PreemptionToleration: minCandidateNodesPercentage and minCandidateNodesAbsolute cannot "
        "both be zero");
  }
  return Args(std::move(inner));
}

// Keyed by the pod's namespace and name as the snapshot holds them, so that a verdict finds
// its note without building a key: a dry run over a big cluster makes one verdict per pod.
using PodName = std::pair<std::string_view, std::string_view>;
struct PodNameHash {
  std::size_t operator()(const PodName& p) const {
    const std::hash<std::string_view> h;
    return h(p.first) * 31 + h(p.second);
  }
};
using Notes = std::unordered_map<PodName, std::string, PodNameHash>;

// The codes of an exempt judgement, which keep a pod on its node.
bool exempts(Code code) {
  switch (code) {
    case Code::exempt_preemptor_never:
    case Code::tolerates_min_preemptable_priority:
    case Code::tolerates_not_scheduled:
    case Code::tolerates_until:
      return true;
    default:
      return false;
  }
}

// Pods that stay preemptable keep the default verdict code; the reason their class did not
// protect them goes first in the detail. Returns how many pods of the node are exempt.
std::int64_t annotate_pods(NodeVerdict& nv, const Notes& notes) {
  std::int64_t exempt = 0;
  for (PodVerdict& pv : nv.pods) {
    exempt += exempts(pv.code.code) ? 1 : 0;
    const auto it = notes.find({pv.pod.namespace_, pv.pod.name});
    if (it != notes.end()) {
      pv.detail = pv.detail.empty() ? it->second : it->second + "; " + pv.detail;
    }
  }
  return exempt;
}

// Where the default algorithm's wording does not fit this plugin: its own no-victims message,
// exempt pods that keep a node full, a node error that ends the whole attempt, and the
// nominated-node wait that any terminating pod triggers here.
void retell(Decision& d, const Input& in, const Notes& notes) {
  std::vector<const NodeVerdict*> errors;
  for (NodeVerdict& nv : d.nodes) {
    const std::int64_t exempt = annotate_pods(nv, notes);
    if (nv.code == Code::no_victims) {
      nv.detail = fmt::format("No victims found on node {} for preemptor pod {}", nv.node,
                              in.snapshot.pods()[in.preemptor].name);
    }
    if (exempt > 0 && (nv.code == Code::no_victims || nv.code.code == Code::still_unschedulable)) {
      nv.detail +=
          fmt::format("; {} lower-priority pod(s) tolerate the preemptor and stay", exempt);
    }
    if (is_error(nv.code.code)) {
      errors.push_back(&nv);
    }
  }
  const Reason* first = d.reasons.empty() ? nullptr : &d.reasons.front();
  const auto first_is = [&](Code c) { return first != nullptr && first->code == c; };
  if (first_is(Code::no_candidates) && !errors.empty()) {
    // DryRunPreemption's error wins when no node produced a candidate: nothing is evicted.
    d.reasons.insert(d.reasons.begin() + 1, Code::error_);
    d.summary = fmt::format(
        "cannot preempt: the dry run failed on {} ({}) and no node produced a candidate, so the "
        "attempt ends with that error",
        errors.front()->node, errors.front()->detail);
  } else if (first_is(Code::waiting_for_victims)) {
    d.summary = fmt::format(
        "cannot preempt yet: a lower-priority pod on its nominated node {} is terminating",
        fmt::join(first->subject, ","));
  }
}

// An unworded judgement leaves the check without a code; the dry run reads one only for the
// pod verdicts, which it then does not build.
VictimCheck to_victim_check(Exemption e) {
  Reason code = e.code ? std::move(*e.code) : Reason();
  switch (e.kind) {
    case Exemption::Kind::exempt:
      return {VictimCheck::Kind::exempt, std::move(code), std::move(e.detail)};
    case Exemption::Kind::error:
      return {VictimCheck::Kind::node_error, std::move(code), std::move(e.detail)};
    case Exemption::Kind::not_exempt:
      break;
  }
  return {VictimCheck::Kind::eligible, std::move(code), std::move(e.detail)};
}

}  // namespace

TolerationPolicyParse parse_toleration_policy(const model::PriorityClass& pc) {
  TolerationPolicy p;
  if (const std::string* v = model::find(pc.annotations, k_min_preemptable_priority_key)) {
    const auto r = model::go::parse_int(*v, 32);
    if (!r) {
      return {std::nullopt, std::string(k_min_preemptable_priority_key), *v,
              model::go::int_error(*v, r.error)};
    }
    p.minimum_preemptable_priority = static_cast<std::int32_t>(r.value);
  } else {
    // int32 arithmetic: a class of value 2147483647 wraps, as Go does.
    p.minimum_preemptable_priority =
        static_cast<std::int32_t>(static_cast<std::uint32_t>(pc.value) + 1U);
    p.minimum_defaulted = true;
  }
  if (const std::string* v = model::find(pc.annotations, k_toleration_seconds_key)) {
    const auto r = model::go::parse_int(*v, 64);
    if (!r) {
      return {std::nullopt, std::string(k_toleration_seconds_key), *v,
              model::go::int_error(*v, r.error)};
    }
    p.toleration_seconds = r.value;
  } else {
    p.seconds_defaulted = true;
  }
  return {p, {}, {}, {}};
}

model::Instant toleration_expiry(model::Instant scheduled_at, std::int64_t seconds) {
  // time.Duration(seconds) * time.Second overflows int64 silently in Go; C++20 defines the
  // unsigned-to-signed conversion as the same two's complement wrap.
  const auto window =
      static_cast<std::int64_t>(static_cast<std::uint64_t>(seconds) * k_nanos_per_second);
  // Time.Add: whole seconds truncated toward zero, then the remainder normalised.
  std::int64_t secs = scheduled_at.seconds + window / k_nanos_per_second;
  std::int64_t nanos = window % k_nanos_per_second;
  if (nanos < 0) {
    secs -= 1;
    nanos += k_nanos_per_second;
  }
  return Instant{secs, static_cast<std::int32_t>(nanos)};
}

namespace {

// A victim's PriorityClass, found, and its toleration policy, parsed.
struct ClassPolicy {
  const model::PriorityClass* pc = nullptr;  // nullptr: not found
  TolerationPolicyParse parsed;
};

// The snapshot resolves the API server's built-in classes even when the dump lacks them.
ClassPolicy class_policy(const model::Snapshot& snap, std::string_view name) {
  ClassPolicy cls;
  cls.pc = snap.find_priority_class(name);
  if (cls.pc != nullptr) {
    cls.parsed = parse_toleration_policy(*cls.pc);
  }
  return cls;
}

// ExemptedFromPreemption once the victim's class is looked up and its policy parsed.
Exemption judge(const model::Pod& pod, const ClassPolicy& cls, std::int32_t preemptor_priority,
                bool preemptor_never, model::Instant now, bool worded) {
  if (pod.priority_class_name.empty()) {
    return judged(Exemption::Kind::not_exempt, worded, [&] {
      return Words{Code::no_priority_class,
                   "no priorityClassName, so no toleration policy applies"};
    });
  }
  const model::PriorityClass* pc = cls.pc;
  if (pc == nullptr) {
    return judged(Exemption::Kind::error, worded, [&] {
      return Words{Code::error_priority_class_not_found,
                   fmt::format("priorityclass.scheduling.k8s.io {} not found",
                               quote(pod.priority_class_name))};
    });
  }
  if (preemptor_never) {
    return judged(Exemption::Kind::exempt, worded, [&] {
      return Words{Code::exempt_preemptor_never, "the preemptor's preemptionPolicy is Never"};
    });
  }
  const TolerationPolicyParse& parsed = cls.parsed;
  if (!parsed.policy) {
    return judged(Exemption::Kind::not_exempt, worded, [&] {
      return Words{Code::invalid_policy,
                   fmt::format("PriorityClass {} annotation {}={}: {}; its whole toleration policy "
                               "is ignored",
                               quote(pc->name), parsed.key, quote(parsed.value), parsed.error)};
    });
  }
  const TolerationPolicy& p = *parsed.policy;
  if (preemptor_priority >= p.minimum_preemptable_priority) {
    return judged(Exemption::Kind::not_exempt, worded, [&] {
      return Words{Code::min_preemptable_priority_reached,
                   fmt::format("preemptor priority {} reaches minimum-preemptable-priority {}",
                               preemptor_priority, minimum_text(p, *pc))};
    });
  }
  return judge_window(pod, p, now, worded);
}

// The dump's classes, each looked up and parsed once rather than once per judged pod: a dry
// run over a big cluster judges every lower-priority pod of every potential node.
class ClassPolicies {
 public:
  explicit ClassPolicies(const model::Snapshot& snap) {
    for (const model::PriorityClass& pc : snap.priority_classes()) {
      m_by_name.emplace(pc.name, class_policy(snap, pc.name));
    }
  }
  // What class_policy() gives for one of the dump's classes, or nullptr for another name (a
  // built-in class the dump lacks, or a missing one), which the caller looks up itself.
  const ClassPolicy* find(const std::string& name) const {
    const auto it = m_by_name.find(name);
    return it != m_by_name.end() ? &it->second : nullptr;
  }

 private:
  std::unordered_map<std::string_view, ClassPolicy> m_by_name;  // views of the dump's names
};

}  // namespace

Exemption evaluate_toleration(const model::Snapshot& snap, model::PodId victim,
                              model::PodId preemptor, model::Instant now, bool worded) {
  const model::PodFacts& pre = snap.facts(preemptor);
  return evaluate_toleration_for(snap, victim, pre.priority, pre.preempt_never, now, worded);
}

Exemption evaluate_toleration_for(const model::Snapshot& snap, model::PodId victim,
                                  std::int32_t preemptor_priority, bool preemptor_never,
                                  model::Instant now, bool worded) {
  const model::Pod& pod = snap.pods()[victim];
  return judge(pod, class_policy(snap, pod.priority_class_name), preemptor_priority,
               preemptor_never, now, worded);
}

Decision decide_toleration(const Input& in) {
  const Args args = toleration_args(in);
  const Input inner{in.snapshot, in.preemptor, in.now, args, model::k_none, in.pod_verdicts};
  // Why pods that stay preemptable got no toleration. Guarded: the dry run may check nodes
  // in parallel.
  Notes notes;
  std::mutex notes_mutex;
  Variant variant;
  variant.policy_name = "toleration";
  variant.any_terminating_blocks = true;
  const ClassPolicies classes(in.snapshot);
  const model::PodFacts& preemptor = in.snapshot.facts(in.preemptor);
  variant.victim_check = [&](const model::Pod& pod, PodId /*id*/) {
    const ClassPolicy* cls = classes.find(pod.priority_class_name);
    ClassPolicy looked_up;  // filled, and used, only for a class the dump lacks
    if (cls == nullptr) {
      looked_up = class_policy(in.snapshot, pod.priority_class_name);
      cls = &looked_up;
    }
    Exemption e =
        judge(pod, *cls, preemptor.priority, preemptor.preempt_never, in.now, in.pod_verdicts);
    if (e.kind == Exemption::Kind::not_exempt && in.pod_verdicts) {
      const std::lock_guard lock(notes_mutex);
      // A pod that stays preemptable was judged by a code with no subject.
      notes[{pod.namespace_, pod.name}] = fmt::format("{}: {}", name(e.code->code), e.detail);
    }
    return to_victim_check(std::move(e));
  };
  Decision d = run_default_preemption(inner, variant);
  retell(d, in, notes);
  if (std::string w = legacy_prefix_warning(in.snapshot); !w.empty()) {
    d.warnings.push_back(std::move(w));
  }
  return d;
}

}  // namespace kpreempt::policy
