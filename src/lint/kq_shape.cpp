// SPDX-License-Identifier: Apache-2.0
// KQ004: the shape of spec.resourceGroups. Mirrors kubernetes-sigs/kueue v0.14
// apis/kueue/v1beta1/clusterqueue_types.go (MaxItems and x-kubernetes-validations on
// ResourceGroup / FlavorQuotas) and the webhook's validateResourceGroups.
#include "lint/checks.h"

#include <fmt/format.h>

#include <map>

namespace kpreempt::lint {
namespace {

constexpr std::size_t k_max_groups = 16;
constexpr std::size_t k_max_covered = 64;
constexpr std::size_t k_max_flavors = 64;
constexpr std::size_t k_max_total = 256;
constexpr std::size_t k_max_entries = 512;

void check_flavor(const Obj& o, const Node& covered, const Node& flavor, Report& r) {
  std::vector<Node> want = covered.children();
  std::vector<Node> got = flavor["resources"].children();
  for (std::size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    std::string_view w = i < want.size() ? want[i].text() : std::string_view();
    std::string_view g = i < got.size() ? got[i]["name"].text() : std::string_view();
    if (w == g) {
      continue;
    }
    Node at = i < got.size()                 ? got[i]["name"]
              : flavor["resources"].exists() ? flavor["resources"]
                                             : flavor["name"];
    std::string what =
        i >= got.size() ? fmt::format("is missing {}", quote(w))
        : i >= want.size()
            ? fmt::format("lists {}, which is not in coveredResources", quote(g))
            : fmt::format("lists {} where coveredResources has {}", quote(g), quote(w));
    r.add(o, at,
          fmt::format("flavor {} {}: each flavor must list exactly the group's "
                      "coveredResources, in the same order",
                      quote(flavor["name"].text()), what));
    return;
  }
}

void check_limits(const Obj& o, const Node& groups, Report& r) {
  std::size_t total_flavors = 0, total_covered = 0;
  if (groups.size() > k_max_groups) {
    r.add(o, groups,
          fmt::format("{} resource groups, at most {} are allowed", groups.size(), k_max_groups));
  }
  for (const Node& g : groups.children()) {
    std::size_t covered = g["coveredResources"].size(), flavors = g["flavors"].size();
    total_flavors += flavors;
    total_covered += covered;
    if (covered > k_max_covered) {
      r.add(o, g["coveredResources"],
            fmt::format("{} covered resources, at most {} per group", covered, k_max_covered));
    }
    if (flavors > k_max_flavors) {
      r.add(o, g["flavors"],
            fmt::format("{} flavors, at most {} per group", flavors, k_max_flavors));
    }
    if (covered * flavors > k_max_entries) {
      r.add(o, g["flavors"],
            fmt::format("{} flavor×resource entries, at most {} per group", covered * flavors,
                        k_max_entries));
    }
  }
  if (total_flavors > k_max_total || total_covered > k_max_total) {
    r.add(o, groups,
          fmt::format("{} flavors and {} covered resources in total, at most {} of each",
                      total_flavors, total_covered, k_max_total));
  }
}

void check_object(const Obj& o, Report& r) {
  Node groups = o["spec"]["resourceGroups"];
  std::map<std::string, std::size_t> resource_group, flavor_group;
  std::size_t index = 0;
  for (const Node& g : groups.children()) {
    for (const Node& res : g["coveredResources"].children()) {
      auto [it, fresh] = resource_group.emplace(res.str(), index);
      if (!fresh) {
        r.add(o, res,
              fmt::format("resource {} is covered by resource group {} already; a resource may "
                          "appear in one group only",
                          quote(res.text()), it->second));
      }
    }
    for (const Node& flavor : g["flavors"].children()) {
      auto [it, fresh] = flavor_group.emplace(flavor["name"].str(), index);
      if (!fresh) {
        r.add(o, flavor["name"],
              fmt::format("flavor {} appears already in resource group {}; a flavor may appear "
                          "once",
                          quote(flavor["name"].text()), it->second));
      }
      check_flavor(o, g["coveredResources"], flavor, r);
    }
    ++index;
  }
  check_limits(o, groups, r);
}

}  // namespace

void check_kq004(const Context& c, Report& r) {
  for (const Obj* cq : c.corpus().of("ClusterQueue", "kueue.x-k8s.io")) {
    check_object(*cq, r);
  }
  for (const Obj* co : c.corpus().of("Cohort", "kueue.x-k8s.io")) {
    check_object(*co, r);
  }
}

}  // namespace kpreempt::lint
