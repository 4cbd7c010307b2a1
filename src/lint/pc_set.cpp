// SPDX-License-Identifier: Apache-2.0
// PriorityClass rules over the whole set of classes (defaults, equal values, unused classes)
// and against the baseline (immutable fields, default switches). Pairs are reported on the
// later object in name order, so the result does not depend on input order.
#include "lint/checks.h"

#include <fmt/format.h>

#include <algorithm>

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
  for (std::size_t i = 0; i < vs.size(); ++i) {
    if (vs[i].obj->baseline || !vs[i].value) {
      continue;
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (vs[j].value != vs[i].value || (vs[j].policy == vs[i].policy) != same_policy) {
        continue;
      }
      std::string msg =
          same_policy
              ? fmt::format(
                    "class {} has the same value ({}) and preemptionPolicy as {}: the two "
                    "are aliases, neither orders nor preempts the other",
                    vs[i].obj->name, *vs[i].value, vs[j].obj->name)
              : fmt::format(
                    "class {} ({}) has the same value ({}) as {} ({}): equal priority, so "
                    "neither can preempt the other",
                    vs[i].obj->name, vs[i].policy, *vs[i].value, vs[j].obj->name, vs[j].policy);
      r.add(*vs[i].obj, (*vs[i].obj)["value"], msg);
      break;
    }
  }
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
  std::vector<PriorityClassView> now = c.corpus().classes();
  std::sort(old.begin(), old.end(), earlier);
  const PriorityClassView* before = nullptr;
  for (const PriorityClassView& b : old) {
    if (b.global_default) {
      before = &b;
      break;
    }
  }
  for (const PriorityClassView& v : now) {
    if (v.global_default && before == nullptr) {
      r.add(*v.obj, (*v.obj)["globalDefault"],
            fmt::format("class {} becomes the default (value {}) where the baseline has none: "
                        "pods created from now on get {}, running pods keep 0",
                        v.obj->name, show_value(v), show_value(v)));
    } else if (v.global_default && v.obj->name != before->obj->name) {
      r.add(*v.obj, (*v.obj)["globalDefault"],
            fmt::format("the default class moves from {} (value {}) to {} (value {}): running "
                        "pods keep the old priority until they are recreated",
                        before->obj->name, show_value(*before), v.obj->name, show_value(v)));
    } else if (before != nullptr && v.obj->name == before->obj->name && !v.global_default) {
      r.add(*v.obj, anchor(*v.obj, "globalDefault"),
            fmt::format("class {} stops being the default: pods created without a class get "
                        "priority 0 instead of {}",
                        v.obj->name, show_value(*before)));
    } else if (before != nullptr && v.obj->name == before->obj->name && v.value != before->value) {
      r.add(*v.obj, anchor(*v.obj, "value"),
            fmt::format("the default class {} changes value from {} to {}: running pods keep "
                        "the old priority",
                        v.obj->name, show_value(*before), show_value(v)));
    }
  }
}

void check_pc018(const Context& c, Report& r) {
  std::vector<PodUse> uses = c.corpus().pod_uses();
  if (uses.empty()) {
    return;
  }
  for (const PriorityClassView& v : c.corpus().classes()) {
    bool used = std::any_of(uses.begin(), uses.end(), [&](const PodUse& u) {
      return u.spec["priorityClassName"].text() == v.obj->name;
    });
    if (!used && !v.global_default) {
      r.add(*v.obj, (*v.obj)["metadata"]["name"],
            fmt::format("class {} is not the default and no pod, template or Workload in the "
                        "input uses it",
                        v.obj->name));
    }
  }
}

}  // namespace kpreempt::lint
