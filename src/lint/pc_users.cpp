// SPDX-License-Identifier: Apache-2.0
// Rules about the pods, pod templates and Workloads that use PriorityClasses. Mirrors the
// Priority admission plugin (kubernetes plugin/pkg/admission/priority/admission.go): the class
// fills spec.priority and spec.preemptionPolicy, and a differing value is refused.
#include "lint/checks.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <unordered_map>

namespace kpreempt::lint {
namespace {

struct Resolved {
  bool known = false;
  std::optional<std::int64_t> value;
  std::string policy = "PreemptLowerPriority";
  std::string from;  // "class web", "default class normal", "no class"
};

// The classes admission sees, looked up by name in constant time: a repository or dump may
// hold tens of thousands of pods and classes.
class Classes {
 public:
  explicit Classes(std::vector<PriorityClassView> all) : m_all(std::move(all)) {
    for (const PriorityClassView& v : m_all) {
      m_by_name.try_emplace(v.obj->name, &v);  // the first declaration, as a scan would find
      // With several defaults admission picks the lowest value.
      if (v.global_default &&
          (m_default == nullptr || v.value.value_or(0) < m_default->value.value_or(0))) {
        m_default = &v;
      }
    }
  }
  Classes(const Classes&) = delete;
  Classes& operator=(const Classes&) = delete;

  const std::vector<PriorityClassView>& all() const { return m_all; }

  // What admission would put into the pod for class `name` ("" = none named).
  Resolved resolve(std::string_view name) const {
    if (name.empty()) {
      if (m_default == nullptr) {
        return Resolved{true, 0, "PreemptLowerPriority", "no class and no default class"};
      }
      return Resolved{true, m_default->value.value_or(0), m_default->policy,
                      "default class " + m_default->obj->name};
    }
    if (std::optional<std::int64_t> b = builtin_value(name)) {
      return Resolved{true, b, "PreemptLowerPriority", "class " + std::string(name)};
    }
    auto it = m_by_name.find(name);
    if (it == m_by_name.end()) {
      return Resolved{};
    }
    return Resolved{true, it->second->value, it->second->policy, "class " + std::string(name)};
  }

 private:
  std::vector<PriorityClassView> m_all;
  std::unordered_map<std::string_view, const PriorityClassView*> m_by_name;
  const PriorityClassView* m_default = nullptr;
};

bool any_class(const Context& c) {
  return !c.corpus().of("PriorityClass", "scheduling.k8s.io").empty() ||
         !c.corpus().baseline_of("PriorityClass", "scheduling.k8s.io").empty();
}

std::vector<std::string_view> names(const std::vector<PriorityClassView>& classes) {
  std::vector<std::string_view> out = {"system-cluster-critical", "system-node-critical"};
  for (const PriorityClassView& v : classes) {
    out.push_back(v.obj->name);
  }
  return out;
}

// The controller a Pod belongs to ("DaemonSet/ns/name"), or its own ref: a DaemonSet's pods
// in a dump repeat its template, so they make one finding, not one per node.
std::string owner_of(const PodUse& u) {
  for (const Node& ref : u.metadata["ownerReferences"].children()) {
    if (ref["controller"].text() == "true") {
      return ref["kind"].str() + "/" + u.obj->ns + "/" + ref["name"].str();
    }
  }
  return u.obj->ref();
}

std::string what(const PodUse& u) {
  return u.workload ? "Workload" : u.obj->kind == "Pod" ? "pod" : "pod template";
}

}  // namespace

void check_pc010(const Context& c, Report& r) {
  if (!any_class(c)) {
    return;
  }
  const Classes classes(c.corpus().effective_classes());
  const std::vector<std::string_view> known_names = names(classes.all());
  for (const PodUse& u : c.corpus().pod_uses()) {
    Node name = u.spec["priorityClassName"];
    if (name.null() || classes.resolve(name.text()).known) {
      continue;
    }
    if (u.running) {
      r.add(*u.obj, name,
            fmt::format("running pod uses PriorityClass {}, which no longer exists: it keeps its "
                        "priority, but PreemptionToleration cannot evaluate it",
                        quote(name.text())),
            Level::warning);
    } else {
      std::string hint = closest(name.text(), known_names);
      r.add(
          *u.obj, name,
          fmt::format("{} names PriorityClass {}, which {}: admission refuses its pods{}", what(u),
                      quote(name.text()),
                      c.corpus().has_baseline() ? "neither the inputs nor the baseline define"
                                                : "no input defines (and no --baseline was given)",
                      hint.empty() ? "" : "; did you mean " + hint + "?"));
    }
  }
}

void check_pc011(const Context& c, Report& r) {
  if (!any_class(c)) {
    return;
  }
  const Classes classes(c.corpus().effective_classes());
  for (const PodUse& u : c.corpus().pod_uses()) {
    if (u.workload) {
      continue;
    }
    Resolved want = classes.resolve(u.spec["priorityClassName"].text());
    if (!want.known) {
      continue;  // PC010
    }
    std::optional<Level> level;
    std::string tail = "; admission refuses it";
    if (u.running) {
      level = Level::info;
      tail = ": stale priority, the class was recreated after the pod was admitted";
    }
    Node prio = u.spec["priority"];
    std::optional<std::int64_t> p = plain_int(prio);
    if (p && want.value && *p != *want.value) {
      r.add(*u.obj, prio,
            fmt::format("{} sets priority {} but {} gives {}{}", what(u), *p, want.from,
                        *want.value, tail),
            level);
    }
    Node policy = u.spec["preemptionPolicy"];
    if (!policy.null() && policy.text() != want.policy) {
      r.add(*u.obj, policy,
            fmt::format("{} sets preemptionPolicy {} but {} gives {}{}", what(u),
                        quote(policy.text()), want.from, want.policy, tail),
            level);
    }
  }
}

void check_pc012(const Context& c, Report& r) {
  std::set<std::string> reported;
  for (const PodUse& u : c.corpus().pod_uses()) {
    Node name = u.spec["priorityClassName"];
    if (!builtin_value(name.text()) || u.obj->ns == "kube-system" ||
        !reported.insert(owner_of(u)).second) {
      continue;
    }
    r.add(*u.obj, name,
          fmt::format("{} in namespace {} uses {}, which outranks every user class and can "
                      "preempt any workload",
                      what(u), u.obj->ns, name.text()));
  }
}

// PC010 needs classes to check names against. Without any, one finding says so instead of
// a silent pass: the classes usually live in another repository or only in the cluster.
void check_pc020(const Context& c, Report& r) {
  if (any_class(c)) {
    return;
  }
  std::set<std::string> named;
  const PodUse* first = nullptr;
  std::vector<PodUse> uses = c.corpus().pod_uses();
  for (const PodUse& u : uses) {
    Node name = u.spec["priorityClassName"];
    if (name.null() || builtin_value(name.text())) {
      continue;
    }
    named.insert(name.str());
    first = first != nullptr ? first : &u;
  }
  if (first == nullptr) {
    return;
  }
  r.add(*first->obj, first->spec["priorityClassName"],
        fmt::format("pods and templates name {} PriorityClass{} ({}) but no input defines any "
                    "PriorityClass, so these names are not checked; pass the cluster's classes "
                    "with --baseline (kubectl get priorityclasses -o yaml)",
                    named.size(), named.size() == 1 ? "" : "es", fmt::join(named, ", ")));
}

}  // namespace kpreempt::lint
