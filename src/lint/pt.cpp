// SPDX-License-Identifier: Apache-2.0
// PreemptionToleration annotations on PriorityClasses. Mirrors kubernetes-sigs/scheduler-plugins
// pkg/preemptiontoleration/preemption_toleration.go (v0.31) parseExemptionPolicy: both values
// go through strconv.ParseInt (bit sizes 32 and 64); any parse error drops the whole policy.
#include "lint/checks.h"

#include <fmt/format.h>

namespace kpreempt::lint {
namespace {

constexpr std::string_view k_prefix = "preemption-toleration.scheduling.x-k8s.io/";
constexpr std::string_view k_legacy_prefix = "preemption-toleration.scheduling.sigs.k8s.io/";
const std::string k_min = std::string(k_prefix) + "minimum-preemptable-priority";
const std::string k_seconds = std::string(k_prefix) + "toleration-seconds";
// Seconds beyond this overflow when converted to a time.Duration (nanoseconds in int64).
constexpr std::int64_t k_max_seconds = 9223372036;

struct Toleration {
  const Obj* obj = nullptr;
  std::optional<std::int64_t> value;  // class value
  Node min_node, seconds_node;
  std::optional<std::int64_t> min, seconds;  // parsed, when they parse
  bool min_bad = false, seconds_bad = false;
};

std::vector<Toleration> tolerations(const Context& c) {
  std::vector<Toleration> out;
  for (const PriorityClassView& v : c.corpus().classes()) {
    Toleration t;
    t.obj = v.obj;
    t.value = v.value;
    t.min_node = v.obj->annotation(k_min);
    t.seconds_node = v.obj->annotation(k_seconds);
    if (t.min_node.exists()) {
      t.min = t.min_node.non_string() ? std::nullopt : parse_int(t.min_node.text(), 32);
      t.min_bad = !t.min;
    }
    if (t.seconds_node.exists()) {
      auto s = t.seconds_node.non_string() ? std::nullopt : parse_int(t.seconds_node.text(), 64);
      t.seconds_bad = !s || *s > k_max_seconds;
      t.seconds = s;
    }
    out.push_back(t);
  }
  return out;
}

bool usable(const Toleration& t) {
  return !t.min_bad && !t.seconds_bad && t.value.has_value();
}

std::string unquoted(const Node& n) {
  return fmt::format(
      "annotation value {} is not a string: write it quoted; the API server "
      "rejects the whole PriorityClass",
      n.text());
}

}  // namespace

void check_pt001(const Context& c, Report& r) {
  for (const Toleration& t : tolerations(c)) {
    if (!t.min_bad) {
      continue;
    }
    r.add(*t.obj, t.min_node,
          t.min_node.non_string()
              ? unquoted(t.min_node)
              : fmt::format("minimum-preemptable-priority {} is not a base-10 32-bit integer: "
                            "the class tolerates nothing",
                            quote(t.min_node.text())));
  }
}

void check_pt002(const Context& c, Report& r) {
  for (const Toleration& t : tolerations(c)) {
    if (!t.seconds_bad) {
      continue;
    }
    std::string msg;
    if (t.seconds_node.non_string()) {
      msg = unquoted(t.seconds_node);
    } else if (t.seconds) {
      msg = fmt::format(
          "toleration-seconds {} overflows the duration arithmetic (at most {}): "
          "the window ends before it starts",
          *t.seconds, k_max_seconds);
    } else {
      msg = fmt::format(
          "toleration-seconds {} is not a base-10 integer number of seconds: the "
          "class tolerates nothing",
          quote(t.seconds_node.text()));
    }
    r.add(*t.obj, t.seconds_node, msg);
  }
}

void check_pt003(const Context& c, Report& r) {
  for (const Obj* o : c.corpus().of("PriorityClass", "scheduling.k8s.io")) {
    for (const Node& a : (*o)["metadata"]["annotations"].children()) {
      std::string_view key = a.key();
      if (key.starts_with(k_legacy_prefix)) {
        r.add(
            *o, a,
            fmt::format("annotation {} uses the prefix scheduling.sigs.k8s.io of scheduler-plugins "
                        "before v0.25, which current releases ignore; use {}{}",
                        quote(key), k_prefix, key.substr(k_legacy_prefix.size())));
      } else if (key.starts_with(k_prefix) && key != k_min && key != k_seconds) {
        std::string hint = closest(key.substr(k_prefix.size()),
                                   {"minimum-preemptable-priority", "toleration-seconds"});
        r.add(*o, a,
              fmt::format(
                  "unknown PreemptionToleration annotation {}{}", quote(key),
                  hint.empty() ? "" : "; did you mean " + std::string(k_prefix) + hint + "?"));
      }
    }
    for (const Node& a : (*o)["metadata"]["annotation"].children()) {
      if (a.key().find("preemption-toleration") != std::string_view::npos) {
        r.add(*o, a,
              fmt::format("{} is under metadata.annotation, which is not a field: move it to "
                          "metadata.annotations",
                          quote(a.key())));
      }
    }
  }
}

void check_pt004(const Context& c, Report& r) {
  for (const Toleration& t : tolerations(c)) {
    if (usable(t) && t.min && *t.min <= *t.value + 1) {
      r.add(*t.obj, t.min_node,
            fmt::format("minimum-preemptable-priority {} is not above the default (value + 1 = "
                        "{}): every pod able to preempt this class already reaches it",
                        *t.min, *t.value + 1));
    }
  }
}

void check_pt005(const Context& c, Report& r) {
  for (const Toleration& t : tolerations(c)) {
    if (!usable(t)) {
      continue;
    }
    bool min_effective = t.min && *t.min > *t.value + 1;
    if (t.seconds && !min_effective) {
      r.add(*t.obj, t.seconds_node,
            fmt::format("toleration-seconds is set but the minimum preemptable priority is {} "
                        "(the default, value + 1): no preemptor is ever below it, so nothing "
                        "is tolerated",
                        t.min ? *t.min : *t.value + 1));
    } else if (min_effective && (!t.seconds || *t.seconds == 0)) {
      r.add(*t.obj, t.min_node,
            fmt::format("minimum-preemptable-priority {} is set but toleration-seconds is {}: "
                        "the toleration window is zero, so nothing is tolerated",
                        *t.min, t.seconds ? "\"0\"" : "absent"));
    }
  }
}

void check_pt006(const Context& c, Report& r) {
  for (const Toleration& t : tolerations(c)) {
    if (!usable(t) || !t.min || *t.min <= k_user_max || !t.seconds || *t.seconds == 0) {
      continue;
    }
    std::string who = *t.min > k_node_critical ? "nothing at all can preempt its pods"
                      : *t.min > k_cluster_critical
                          ? "only system-node-critical pods can preempt its pods"
                          : "only the two system classes can preempt its pods";
    std::string when =
        *t.seconds < 0 ? "forever" : fmt::format("for {} seconds after scheduling", *t.seconds);
    r.add(*t.obj, t.min_node,
          fmt::format("minimum-preemptable-priority {} is above {}: {} {}", *t.min, k_user_max, who,
                      when));
  }
}

}  // namespace kpreempt::lint
