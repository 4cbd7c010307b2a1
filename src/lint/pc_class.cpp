// SPDX-License-Identifier: Apache-2.0
// PriorityClass rules that look at one class at a time. Limits mirror kubernetes/kubernetes
// pkg/apis/scheduling (types.go, v1/helpers.go) and validation/validation.go
// ValidatePriorityClass.
#include "lint/checks.h"

#include <fmt/format.h>

#include <regex>

namespace kpreempt::lint {
namespace {

constexpr std::string_view k_system_prefix = "system-";

std::vector<const Obj*> classes(const Context& c) {
  return c.corpus().of("PriorityClass", "scheduling.k8s.io");
}

// The node to point at when a field is missing: metadata.name, else the object itself.
Node anchor(const Obj& o) {
  Node name = o["metadata"]["name"];
  return name.exists() ? name : o.root();
}

}  // namespace

void check_pc001(const Context& c, Report& r) {
  for (const Obj* o : classes(c)) {
    std::optional<std::int64_t> v = plain_int((*o)["value"]);
    if (!o->name.starts_with(k_system_prefix) && v && *v > k_user_max) {
      r.add(*o, (*o)["value"],
            fmt::format("value {} is above {}, the highest value a user-defined class may have", *v,
                        k_user_max));
    }
  }
}

void check_pc002(const Context& c, Report& r) {
  for (const Obj* o : classes(c)) {
    if (o->name.starts_with(k_system_prefix) && !builtin_value(o->name)) {
      r.add(*o, (*o)["metadata"]["name"],
            fmt::format("name {} uses the reserved prefix \"system-\"; only "
                        "system-cluster-critical and system-node-critical may",
                        quote(o->name)));
    }
  }
}

void check_pc003(const Context& c, Report& r) {
  for (const Obj* o : classes(c)) {
    std::optional<std::int64_t> builtin = builtin_value(o->name);
    if (!builtin) {
      continue;
    }
    std::optional<std::int64_t> v = plain_int((*o)["value"]);
    if (v && *v != *builtin) {
      r.add(*o, (*o)["value"],
            fmt::format("built-in class {} has value {}; the API server defines it as {}", o->name,
                        *v, *builtin));
    }
    if ((*o)["globalDefault"].text() == "true") {
      r.add(*o, (*o)["globalDefault"],
            fmt::format("built-in class {} cannot be the global default", o->name));
    }
  }
}

void check_pc004(const Context& c, Report& r) {
  for (const Obj* o : classes(c)) {
    Node p = (*o)["preemptionPolicy"];
    if (p.null() && !p.quoted()) {
      continue;
    }
    std::string text = p.str();
    if (text == "PreemptLowerPriority" || text == "Never") {
      continue;
    }
    std::string hint = closest(text, {"PreemptLowerPriority", "Never"});
    if (hint.empty()) {
      hint = "PreemptLowerPriority or Never";
    }
    std::string shown =
        p.is_scalar() ? quote(text) : "a " + std::string(p.is_map() ? "map" : "list");
    r.add(*o, p, fmt::format("{} is not a valid preemptionPolicy; use {}", shown, hint));
  }
}

void check_pc006(const Context& c, Report& r) {
  static const std::regex k_subdomain(
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  for (const Obj* o : classes(c)) {
    Node name = (*o)["metadata"]["name"];
    if (o->name.size() > 253 || !std::regex_match(o->name, k_subdomain)) {
      r.add(*o, name.exists() ? name : o->root(),
            fmt::format("name {} is not a lowercase DNS subdomain (a-z, 0-9, '-' and '.', "
                        "starting and ending alphanumeric, at most 253 characters)",
                        quote(o->name)));
    }
  }
}

void check_pc007(const Context& c, Report& r) {
  for (const Obj* o : classes(c)) {
    Node v = (*o)["value"];
    if (v.null()) {
      r.add_at(o->ref(), ".value", anchor(*o).loc(),
               "value is missing: the class would be stored with value 0, the priority of pods "
               "without any class");
      continue;
    }
    if (!v.is_scalar()) {
      r.add(*o, v, "value must be an integer, got a " + std::string(v.is_map() ? "map" : "list"));
    } else if (v.quoted()) {
      r.add(*o, v, fmt::format("value {} is a string; write it without quotes", quote(v.text())));
    } else if (!parse_int(v.text(), 64)) {
      r.add(*o, v, fmt::format("value {} is not an integer", quote(v.text())));
    } else if (!parse_int(v.text(), 32)) {
      r.add(
          *o, v,
          fmt::format("value {} is outside the 32-bit range -2147483648 to 2147483647", v.text()));
    }
  }
}

void check_pc009(const Context& c, Report& r) {
  const auto& kv = c.options().kube_version;
  for (const Obj* o : classes(c)) {
    int removed = o->api_version == "scheduling.k8s.io/v1alpha1"  ? 17
                  : o->api_version == "scheduling.k8s.io/v1beta1" ? 22
                                                                  : 0;
    // A built-in listed in a dump of an old cluster is created by the API server itself, in
    // whatever version it serves: nothing for the user to change.
    if (removed == 0 || builtin_value(o->name)) {
      continue;
    }
    bool still_served = kv && (kv->first < 1 || (kv->first == 1 && kv->second < removed));
    if (still_served) {
      r.add(*o, (*o)["apiVersion"],
            fmt::format("{} is deprecated and no longer served from Kubernetes 1.{}; use "
                        "scheduling.k8s.io/v1",
                        o->api_version, removed),
            Level::warning);
    } else {
      r.add(*o, (*o)["apiVersion"],
            fmt::format("{} is not served since Kubernetes 1.{}; use scheduling.k8s.io/v1",
                        o->api_version, removed));
    }
  }
}

void check_pc013(const Context& c, Report& r) {
  for (const PriorityClassView& v : c.corpus().classes()) {
    if (v.global_default && v.policy == "Never") {
      r.add(*v.obj, (*v.obj)["preemptionPolicy"],
            fmt::format("default class {} has preemptionPolicy Never: every pod created without "
                        "a class can never preempt",
                        v.obj->name));
    }
  }
}

void check_pc017(const Context& c, Report& r) {
  std::int64_t cutoff = c.options().autoscaler_cutoff;
  for (const PriorityClassView& v : c.corpus().classes()) {
    if (v.value && *v.value < cutoff) {
      r.add(*v.obj, (*v.obj)["value"],
            fmt::format("value {} is below the cluster-autoscaler expendable cutoff {}: its pods "
                        "never trigger a scale-up and do not keep a node from being removed",
                        *v.value, cutoff));
    }
  }
}

}  // namespace kpreempt::lint
