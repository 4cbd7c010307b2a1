// SPDX-License-Identifier: Apache-2.0
// PriorityClass rules over the whole set of classes (defaults, equal values, unused classes)
// and against the baseline (immutable fields, default switches). Pairs are reported on the
// later object in name order, so the result does not depend on input order.
#include "lint/checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace kpreempt::lint {
namespace {

std::string show_value(const PriorityClassView& v) {
  return v.value ? std::to_string(*v.value) : std::string("unset");
}

Node anchor(const Obj& o, std::string_view field) {
  Node n = o[field];
  return n.exists() ? n : o["metadata"]["name"];
}

// Baseline-only classes first (they exist already), then by name.
bool earlier(const PriorityClassView& a, const PriorityClassView& b) {
  if (a.obj->baseline != b.obj->baseline) {
    return a.obj->baseline;
  }
  return a.obj->name < b.obj->name;
}

const PriorityClassView* find(const std::vector<PriorityClassView>& vs, std::string_view name) {
  for (const PriorityClassView& v : vs) {
    if (v.obj->name == name) {
      return &v;
    }
  }
  return nullptr;
}

// For PC014 and PC016: each input class against the earliest class sharing its value whose
// policy equals (same_policy) or differs from its own.
void equal_values(const Context& c, Report& r, bool same_policy) {
  std::vector<PriorityClassView> vs = c.corpus().effective_classes();
  std::sort(vs.begin(), vs.end(), earlier);
  // Earlier classes by value: only those can pair with a class, and values rarely repeat.
  std::unordered_map<std::int64_t, std::vector<std::size_t>> earlier_with;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    if (!vs[i].value) {
      continue;
    }
    std::vector<std::size_t>& same_value = earlier_with[*vs[i].value];
    const auto twin = std::find_if(same_value.begin(), same_value.end(), [&](std::size_t j) {
      // The same class declared twice is not two classes (PC019 compares the declarations).
      return vs[j].obj->name != vs[i].obj->name && (vs[j].policy == vs[i].policy) == same_policy;
    });
    const std::size_t other_at = twin == same_value.end() ? vs.size() : *twin;
    same_value.push_back(i);
    if (vs[i].obj->baseline || other_at == vs.size()) {
      continue;
    }
    const PriorityClassView& other = vs[other_at];
    std::string msg =
        same_policy
            ? fmt::format(
                  "class {} has the same value ({}) and preemptionPolicy as {}: the two "
                  "are aliases, neither orders nor preempts the other",
                  vs[i].obj->name, *vs[i].value, other.obj->name)
            : fmt::format(
                  "class {} ({}) has the same value ({}) as {} ({}): pods of both queue at "
                  "the same priority and neither preempts the other; fine for a "
                  "non-preempting twin of a class, a slip if the Never class was meant to "
                  "rank lower",
                  vs[i].obj->name, vs[i].policy, *vs[i].value, other.obj->name, other.policy);
    r.add(*vs[i].obj, (*vs[i].obj)["value"], msg);
  }
}

// A class next to Helm templates that were not read may well be used by them.
bool beside_templates(const Context& c, const Obj& o) {
  std::string folder = std::filesystem::path(o.tree->file.str()).parent_path().string();
  const auto& tf = c.options().template_folders;
  return std::find(tf.begin(), tf.end(), folder) != tf.end();
}

// What the Priority admission plugin gives a pod that names no class (kubernetes
// plugin/pkg/admission/priority/admission.go getDefaultPriority): the globalDefault class
// with the lowest value when several exist, else priority 0 and PreemptLowerPriority.
struct Default {
  const PriorityClassView* cls = nullptr;
  std::string name;
  std::int64_t value = 0;
  std::string policy = "PreemptLowerPriority";
  std::string from() const { return cls == nullptr ? "no default class" : "default class " + name; }
};

Default default_of(const std::vector<PriorityClassView>& classes) {
  Default d;
  for (const PriorityClassView& v : classes) {
    std::int64_t value = v.value.value_or(0);
    if (v.global_default &&
        (d.cls == nullptr || value < d.value || (value == d.value && v.obj->name < d.name))) {
      d = Default{&v, v.obj->name, value, v.policy};
    }
  }
  return d;
}

}  // namespace

void check_pc005(const Context& c, Report& r) {
  std::vector<PriorityClassView> defaults;
  for (const PriorityClassView& v : c.corpus().effective_classes()) {
    if (v.global_default) {
      defaults.push_back(v);
    }
  }
  std::sort(defaults.begin(), defaults.end(), earlier);
  if (defaults.size() < 2) {
    return;
  }
  std::int64_t lowest = INT64_MAX;
  for (const PriorityClassView& v : defaults) {
    lowest = std::min(lowest, v.value.value_or(0));
  }
  const PriorityClassView& first = defaults.front();
  for (std::size_t i = 1; i < defaults.size(); ++i) {
    const PriorityClassView& v = defaults[i];
    if (v.obj->baseline) {
      continue;
    }
    r.add(*v.obj, (*v.obj)["globalDefault"],
          fmt::format("class {} is a second globalDefault class besides {}{}; admission refuses "
                      "it, and where both exist pods without a class get the lowest default "
                      "value ({})",
                      v.obj->name, first.obj->name, first.obj->baseline ? " (baseline)" : "",
                      lowest));
  }
}

void check_pc008(const Context& c, Report& r) {
  std::vector<PriorityClassView> old = c.corpus().baseline_classes();
  for (const PriorityClassView& v : c.corpus().classes()) {
    const PriorityClassView* b = find(old, v.obj->name);
    if (b == nullptr) {
      continue;
    }
    if (v.value != b->value) {
      r.add(*v.obj, anchor(*v.obj, "value"),
            fmt::format("value changes from {} to {}, but value is immutable: the update is "
                        "refused; delete and recreate the class (running pods keep {})",
                        show_value(*b), show_value(v), show_value(*b)));
    }
    if (v.policy != b->policy) {
      r.add(*v.obj, anchor(*v.obj, "preemptionPolicy"),
            fmt::format("preemptionPolicy changes from {} to {}, but it is immutable: the update "
                        "is refused",
                        b->policy, v.policy));
    }
  }
}

void check_pc014(const Context& c, Report& r) {
  equal_values(c, r, false);
}

void check_pc016(const Context& c, Report& r) {
  equal_values(c, r, true);
}

void check_pc015(const Context& c, Report& r) {
  if (!c.corpus().has_baseline()) {
    return;
  }
  std::vector<PriorityClassView> old = c.corpus().baseline_classes();
  std::vector<PriorityClassView> now = c.corpus().effective_classes();
  Default before = default_of(old);
  Default after = default_of(now);
  if (before.value == after.value && before.policy == after.policy) {
    return;  // another class name, the same priority: nothing changes for pods
  }
  // Point at the input class that makes the difference: the new default, else the class
  // that stopped being it.
  const Obj* at = after.cls != nullptr && !after.cls->obj->baseline ? after.cls->obj : nullptr;
  for (const PriorityClassView& v : c.corpus().classes()) {
    if (at == nullptr && before.cls != nullptr && v.obj->name == before.name) {
      at = v.obj;
    }
  }
  if (at == nullptr) {
    return;
  }
  std::string policy =
      before.policy == after.policy
          ? ""
          : fmt::format(" and preemptionPolicy {} instead of {}", after.policy, before.policy);
  r.add(*at, anchor(*at, "globalDefault"),
        fmt::format("pods created without a class get priority {} ({}) instead of {} ({}){}; "
                    "running pods keep {} until they are recreated",
                    after.value, after.from(), before.value, before.from(), policy, before.value));
}

void check_pc018(const Context& c, Report& r) {
  std::vector<PodUse> uses = c.corpus().pod_uses();
  if (uses.empty()) {
    return;
  }
  std::set<std::string> seen;  // a class declared twice is one class
  std::unordered_set<std::string> used_names;
  for (const PodUse& u : uses) {
    used_names.insert(std::string(u.spec["priorityClassName"].text()));
  }
  for (const PriorityClassView& v : c.corpus().classes()) {
    if (!seen.insert(v.obj->name).second || beside_templates(c, *v.obj)) {
      continue;
    }
    bool used = used_names.contains(v.obj->name);
    // Built-ins exist in every cluster whether or not a dump lists them.
    if (!used && !v.global_default && !builtin_value(v.obj->name)) {
      r.add(*v.obj, (*v.obj)["metadata"]["name"],
            fmt::format("class {} is not the default and no pod, template or Workload in the "
                        "input uses it",
                        v.obj->name));
    }
  }
}

// Points at the second object and names where the first starts, as the loader's duplicate
// object error does, so lint and the other subcommands agree on the place.
void check_pc019(const Context& c, Report& r) {
  std::vector<PriorityClassView> vs = c.corpus().classes();
  std::unordered_map<std::string_view, std::size_t> first_of;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    const PriorityClassView& b = vs[i];
    auto [it, inserted] = first_of.try_emplace(b.obj->name, i);
    if (inserted) {
      continue;
    }
    const PriorityClassView& a = vs[it->second];
    if (a.value == b.value && a.policy == b.policy && a.global_default == b.global_default) {
      continue;  // the same declaration twice: harmless
    }
    SourceLoc first = a.obj->root().loc();
    r.add(*b.obj, b.obj->root(),
          fmt::format("class {} is declared again with value {}, preemptionPolicy {}, "
                      "globalDefault {}; {}:{}:{} declares value {}, preemptionPolicy {}, "
                      "globalDefault {}: whichever is applied first wins, and applying the "
                      "other then fails (value and preemptionPolicy are immutable)",
                      b.obj->name, show_value(b), b.policy, b.global_default, first.file,
                      first.line, first.column, show_value(a), a.policy, a.global_default));
  }
}

}  // namespace kpreempt::lint
