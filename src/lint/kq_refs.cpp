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

// The cohorts that are their own ancestors. Each chain of parents is walked once (a tree may
// be tens of thousands deep): a walk that meets its own path has found a cycle, and only the
// cohorts on that loop are on it, not those leading into it.
std::set<std::string> cohorts_on_cycles(const std::map<std::string, std::string>& parent_of) {
  enum class State : std::uint8_t { on_path, done };
  std::map<std::string, State> state;
  std::set<std::string> cyclic;
  std::vector<std::string> path;
  for (const auto& [start, unused] : parent_of) {
    std::string at = start;
    while (!state.contains(at) && parent_of.contains(at)) {
      state[at] = State::on_path;
      path.push_back(at);
      at = parent_of.at(at);
    }
    if (auto it = state.find(at); it != state.end() && it->second == State::on_path) {
      auto loop = std::find(path.begin(), path.end(), at);
      cyclic.insert(loop, path.end());
    }
    for (const std::string& p : path) {
      state[p] = State::done;
    }
    path.clear();
  }
  return cyclic;
}

void cohort_cycles(const Context& c, Report& r) {
  std::map<std::string, std::string> parent_of;
  for (const Obj* co : kueue_objects(c.corpus(), "Cohort", true)) {
    // Input first: it wins over the baseline.
    parent_of.emplace(co->name, (*co)["spec"]["parentName"].str());
  }
  std::erase_if(parent_of, [](const auto& e) { return e.second.empty(); });
  const std::set<std::string> cyclic = cohorts_on_cycles(parent_of);
  for (const Obj* co : c.corpus().of("Cohort", "kueue.x-k8s.io")) {
    if (cyclic.contains(co->name)) {
      r.add(*co, (*co)["spec"]["parentName"],
            fmt::format("cohort {} is its own ancestor through parentName: the hierarchy is "
                        "unusable",
                        co->name));
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
