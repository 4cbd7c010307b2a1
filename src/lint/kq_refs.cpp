// SPDX-License-Identifier: Apache-2.0
// Kueue rules across objects: dangling references and cohort cycles (KQ006), cohort
// preemption without peers (KQ008), WorkloadPriorityClass vs PriorityClass (KQ009). Only
// kinds present in the input (or baseline) are checked, so a partial manifest set is quiet.
#include "lint/checks.h"
#include "lint/kueue_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace kpreempt::lint {
namespace {

constexpr std::string_view k_priority_label = "kueue.x-k8s.io/priority-class";

std::set<std::string> names(const std::vector<const Obj*>& objs) {
  std::set<std::string> out;
  for (const Obj* o : objs) {
    out.insert(o->name);
  }
  return out;
}

void dangling_flavors(const Context& c, Report& r) {
  std::vector<const Obj*> flavors = kueue_objects(c.corpus(), "ResourceFlavor", true);
  if (flavors.empty()) {
    return;
  }
  std::set<std::string> known = names(flavors);
  for (const char* kind : {"ClusterQueue", "Cohort"}) {
    for (const Obj* o : c.corpus().of(kind, "kueue.x-k8s.io")) {
      for (const Node& g : (*o)["spec"]["resourceGroups"].children()) {
        for (const Node& f : g["flavors"].children()) {
          if (!known.contains(f["name"].str())) {
            r.add(*o, f["name"],
                  fmt::format("no ResourceFlavor named {}: the {} is inactive (FlavorNotFound) "
                              "and admits nothing",
                              quote(f["name"].text()), kind));
          }
        }
      }
    }
  }
}

void dangling_queues(const Context& c, Report& r) {
  std::vector<const Obj*> cqs = kueue_objects(c.corpus(), "ClusterQueue", true);
  if (cqs.empty()) {
    return;
  }
  std::set<std::string> known = names(cqs);
  for (const Obj* lq : c.corpus().of("LocalQueue", "kueue.x-k8s.io")) {
    Node cq = (*lq)["spec"]["clusterQueue"];
    if (!known.contains(cq.str())) {
      r.add(*lq, cq.exists() ? cq : (*lq)["metadata"]["name"],
            fmt::format("no ClusterQueue named {}: workloads in this LocalQueue stay pending",
                        quote(cq.text())));
    }
  }
}

void dangling_priorities(const Context& c, Report& r) {
  std::vector<const Obj*> wpcs = kueue_objects(c.corpus(), "WorkloadPriorityClass", true);
  if (wpcs.empty()) {
    return;
  }
  std::set<std::string> known = names(wpcs);
  for (const Obj& o : c.corpus().input()) {
    Node label = o.label(k_priority_label);
    if (label.exists() && !known.contains(label.str())) {
      r.add(o, label,
            fmt::format("no WorkloadPriorityClass named {}: Kueue does not create the Workload",
                        quote(label.text())));
    }
  }
}

void cohort_cycles(const Context& c, Report& r) {
  std::map<std::string, const Obj*> parent_of;
  for (const Obj* co : kueue_objects(c.corpus(), "Cohort", true)) {
    parent_of.emplace(co->name, co);  // input first: it wins over the baseline
  }
  for (const Obj* co : c.corpus().of("Cohort", "kueue.x-k8s.io")) {
    std::string at = co->name;
    for (std::size_t steps = 0; steps <= parent_of.size(); ++steps) {
      auto it = parent_of.find(at);
      if (it == parent_of.end()) {
        break;
      }
      at = (*it->second)["spec"]["parentName"].str();
      if (at == co->name) {
        r.add(*co, (*co)["spec"]["parentName"],
              fmt::format("cohort {} is its own ancestor through parentName: the hierarchy is "
                          "unusable",
                          co->name));
        break;
      }
    }
  }
}

}  // namespace

void check_kq006(const Context& c, Report& r) {
  dangling_flavors(c, r);
  dangling_queues(c, r);
  dangling_priorities(c, r);
  cohort_cycles(c, r);
}

void check_kq008(const Context& c, Report& r) {
  std::vector<const Obj*> cqs = kueue_objects(c.corpus(), "ClusterQueue", true);
  std::set<std::string> cohorts = names(kueue_objects(c.corpus(), "Cohort", true));
  for (const Obj* cq : c.corpus().of("ClusterQueue", "kueue.x-k8s.io")) {
    Node pre = (*cq)["spec"]["preemption"];
    Node at;
    for (Node n : {pre["reclaimWithinCohort"], pre["borrowWithinCohort"]["policy"]}) {
      if (!at.exists() && !n.null() && n.text() != "Never") {
        at = n;
      }
    }
    if (!at.exists()) {
      continue;
    }
    std::string cohort = cohort_of(*cq);
    bool peers = std::any_of(cqs.begin(), cqs.end(), [&](const Obj* o) {
      return o->name != cq->name && !cohort.empty() && cohort_of(*o) == cohort;
    });
    if (cohort.empty()) {
      r.add(
          *cq, at,
          fmt::format("{}: {} has no effect: the ClusterQueue has no cohort", at.key(), at.text()));
    } else if (!peers && !cohorts.contains(cohort)) {
      r.add(*cq, at,
            fmt::format("{}: {} has no effect: cohort {} has no other ClusterQueue and no Cohort "
                        "object in the input",
                        at.key(), at.text(), quote(cohort)));
    }
  }
}

void check_kq009(const Context& c, Report& r) {
  std::vector<PriorityClassView> classes = c.corpus().effective_classes();
  for (const Obj* w : c.corpus().of("WorkloadPriorityClass", "kueue.x-k8s.io")) {
    std::optional<std::int64_t> value = plain_int((*w)["value"]);
    for (const PriorityClassView& pc : classes) {
      if (pc.obj->name == w->name && value && pc.value && *pc.value != *value) {
        r.add(*w, (*w)["value"],
              fmt::format("WorkloadPriorityClass {} has value {} but PriorityClass {} has {}: "
                          "Kueue and kube-scheduler disagree about who outranks whom",
                          w->name, *value, pc.obj->name, *pc.value));
      }
    }
  }
}

}  // namespace kpreempt::lint
