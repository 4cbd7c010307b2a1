// SPDX-License-Identifier: Apache-2.0
// `kpreempt diff`: matching base and head decisions, and who may preempt whom on each side.
#include "kpreempt/policy/classes.h"
#include "kpreempt/render/diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace kpreempt::render {
namespace {

// The kinds each policy reads besides PriorityClasses (which count only where the preemptor
// or a victim names them).
bool read_by_policy(std::string_view policy, std::string_view kind) {
  const bool kube = policy == "default" || policy == "toleration" || policy == "capacity";
  if (kind == "PodDisruptionBudget") {
    return kube || policy == "koordinator";
  }
  if (kind == "KubeSchedulerConfiguration") {
    return kube;
  }
  if (kind == "ConfigMap") {  // scheduler settings and YuniKorn's queue configuration
    return kube || policy == "yunikorn";
  }
  if (kind == "queues.yaml") {
    return policy == "yunikorn";
  }
  if (kind == "ElasticQuota" || kind == "PodGroup") {
    return policy == "capacity" || policy == "koordinator";
  }
  static constexpr std::string_view k_kueue[] = {
      "ClusterQueue",          "LocalQueue",     "Cohort",  "ResourceFlavor", "Namespace",
      "WorkloadPriorityClass", "AdmissionCheck", "Workload"};
  return policy == "kueue" &&
         std::find(std::begin(k_kueue), std::end(k_kueue), kind) != std::end(k_kueue);
}

// The PriorityClass names a decision depends on: the preemptor's and each victim's.
void add_classes(const model::Snapshot& snap, const Explanation& e, const policy::Decision& d,
                 std::set<std::string>& out) {
  const auto& workloads = snap.kueue().workloads;
  if (e.preemptor != model::k_none) {
    out.insert(snap.pods()[e.preemptor].priority_class_name);
  } else if (e.workload != model::k_none) {
    out.insert(workloads[e.workload].priority_class_name);
  }
  for (const policy::Victim& v : d.victims) {
    if (v.ref.kind == "Pod") {
      if (auto id = snap.find_pod(v.ref.namespace_, v.ref.name)) {
        out.insert(snap.pods()[*id].priority_class_name);
      }
    } else if (auto id = model::find_workload(snap.kueue(), v.ref.namespace_, v.ref.name)) {
      out.insert(workloads[*id].priority_class_name);
    }
  }
}

struct Side {
  const model::Snapshot* snap = nullptr;
  const Explanation* e = nullptr;
  const policy::Decision* d = nullptr;
};

std::set<std::string> victim_set(const policy::Decision* d) {
  std::set<std::string> out;
  if (d != nullptr) {
    for (const policy::Victim& v : d->victims) {
      out.insert(model::to_string(v.ref));
    }
  }
  return out;
}

std::optional<DecisionChange> change_of(const std::string& subject, const std::string& policy,
                                        const Side& base, const Side& head,
                                        const std::vector<ConfigChange>& config) {
  DecisionChange c;
  c.subject = subject;
  c.policy = policy;
  if (base.d != nullptr) {
    c.before = base.d->outcome;
    c.node_before = base.d->node;
  }
  if (head.d != nullptr) {
    c.after = head.d->outcome;
    c.node_after = head.d->node;
  }
  const std::set<std::string> before = victim_set(base.d);
  const std::set<std::string> after = victim_set(head.d);
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                      std::back_inserter(c.victims_added));
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(),
                      std::back_inserter(c.victims_removed));
  if (c.before == c.after && c.node_before == c.node_after && c.victims_added.empty() &&
      c.victims_removed.empty()) {
    return std::nullopt;
  }
  c.why = head.d != nullptr ? head.d->summary : base.d->summary;
  std::set<std::string> classes;
  for (const Side* s : {&base, &head}) {
    if (s->d != nullptr) {
      add_classes(*s->snap, *s->e, *s->d, classes);
    }
  }
  for (const ConfigChange& cc : config) {
    if (cc.kind_name == "PriorityClass" ? classes.contains(cc.name)
                                        : read_by_policy(policy, cc.kind_name)) {
      c.causes.push_back(&cc);
    }
  }
  return c;
}

std::map<std::string, policy::ClassView> class_views(const model::Snapshot& snap) {
  std::map<std::string, policy::ClassView> out;
  for (const model::PriorityClass& pc : snap.priority_classes()) {
    out.emplace(pc.name, policy::class_view(pc));
  }
  return out;
}

std::vector<policy::ClassView> values_of(const std::map<std::string, policy::ClassView>& m) {
  std::vector<policy::ClassView> out;
  for (const auto& [name, v] : m) {
    out.push_back(v);
  }
  return out;
}

std::string cell_in(const policy::ClassRules& rules,
                    const std::map<std::string, policy::ClassView>& classes,
                    const std::string& preemptor, const std::string& victim) {
  auto p = classes.find(preemptor);
  auto v = classes.find(victim);
  if (p == classes.end() || v == classes.end()) {
    return "-";
  }
  return policy::cell_text(rules.cell(p->second, v->second));
}

// Each ClusterQueue's cohort tree, by the root of its cohort's chain of parents ("" without a
// cohort); a loop of parents stops where it closes, which is enough to tell trees apart.
std::map<std::string, std::string> cohort_trees(const model::KueueObjects& k) {
  std::map<std::string, std::string> parent;
  for (const model::KueueCohort& c : k.cohorts) {
    parent.emplace(c.name, c.parent);
  }
  std::map<std::string, std::string> out;
  for (const model::ClusterQueue& cq : k.cluster_queues) {
    std::string at = cq.cohort;
    std::set<std::string> seen{at};
    while (!at.empty()) {
      auto it = parent.find(at);
      if (it == parent.end() || it->second.empty() || !seen.insert(it->second).second) {
        break;
      }
      at = it->second;
    }
    out.emplace(cq.name, at);
  }
  return out;
}

// Whether Workloads of ClusterQueue `from` may preempt those of `to`, by the preemption
// policies of `from` (Kueue's preemption.go candidate rules), as one word or phrase.
std::string queue_edge(const model::ClusterQueue& from, const model::ClusterQueue& to,
                       const std::map<std::string, std::string>& trees) {
  if (from.name == to.name) {
    return from.within_cluster_queue == "Never" ? "never" : "within: " + from.within_cluster_queue;
  }
  if (from.cohort.empty() || to.cohort.empty() || trees.at(from.name) != trees.at(to.name)) {
    return "never";
  }
  std::vector<std::string> ways;
  if (from.reclaim_within_cohort != "Never") {
    ways.push_back("reclaim: " + from.reclaim_within_cohort);
  }
  if (from.borrow_within_cohort != "Never") {
    ways.push_back(from.max_priority_threshold
                       ? fmt::format("while borrowing: {} up to {}", from.borrow_within_cohort,
                                     *from.max_priority_threshold)
                       : "while borrowing: " + from.borrow_within_cohort);
  }
  return ways.empty() ? "never" : fmt::format("{}", fmt::join(ways, ", "));
}

// A pair per two ClusterQueues: real clusters have tens to hundreds.
constexpr std::size_t k_max_queues = 500;

void compare_queue_edges(const model::KueueObjects& base, const model::KueueObjects& head,
                         Diff& diff) {
  std::map<std::string, std::pair<const model::ClusterQueue*, const model::ClusterQueue*>> cqs;
  for (const model::ClusterQueue& cq : base.cluster_queues) {
    cqs[cq.name].first = &cq;
  }
  for (const model::ClusterQueue& cq : head.cluster_queues) {
    cqs[cq.name].second = &cq;
  }
  if (cqs.size() > k_max_queues) {
    diff.notes.push_back(
        fmt::format("who may preempt whom by ClusterQueue is not compared: {} "
                    "ClusterQueues, more than {}",
                    cqs.size(), k_max_queues));
    return;
  }
  const auto base_trees = cohort_trees(base);
  const auto head_trees = cohort_trees(head);
  for (const auto& [from, f] : cqs) {
    for (const auto& [to, t] : cqs) {
      std::string before = f.first && t.first ? queue_edge(*f.first, *t.first, base_trees) : "-";
      std::string after = f.second && t.second ? queue_edge(*f.second, *t.second, head_trees) : "-";
      const bool unseen =
          (before == "-" || before == "never") && (after == "-" || after == "never");
      if (before != after && !unseen) {
        diff.edges.push_back({"kueue", "ClusterQueue/" + from, "ClusterQueue/" + to,
                              std::move(before), std::move(after)});
      }
    }
  }
}

}  // namespace

std::size_t Diff::outcome_changes() const {
  return static_cast<std::size_t>(
      std::count_if(decisions.begin(), decisions.end(), [](const DecisionChange& c) {
        return c.before != c.after || c.node_before != c.node_after;
      }));
}

std::size_t Diff::victims_added() const {
  std::size_t n = 0;
  for (const DecisionChange& c : decisions) {
    n += c.victims_added.size();
  }
  return n;
}

std::size_t Diff::victims_removed() const {
  std::size_t n = 0;
  for (const DecisionChange& c : decisions) {
    n += c.victims_removed.size();
  }
  return n;
}

void compare_decisions(const model::Snapshot& base_snap, const std::vector<Explanation>& base,
                       const model::Snapshot& head_snap, const std::vector<Explanation>& head,
                       Diff& diff) {
  using Key = std::pair<std::string, std::string>;  // preemptor, policy
  std::map<Key, Side> base_sides;
  std::set<std::string> subjects;
  for (const Explanation& e : base) {
    const std::string name = preemptor_name(base_snap, e.preemptor, e.workload);
    subjects.insert(name);
    for (const policy::Decision& d : e.decisions) {
      base_sides[{name, d.policy}] = Side{&base_snap, &e, &d};
    }
  }
  std::set<Key> seen;
  for (const Explanation& e : head) {
    const std::string name = preemptor_name(head_snap, e.preemptor, e.workload);
    subjects.insert(name);
    for (const policy::Decision& d : e.decisions) {
      const Key key{name, d.policy};
      seen.insert(key);
      auto it = base_sides.find(key);
      const Side b = it == base_sides.end() ? Side{} : it->second;
      if (auto c = change_of(name, d.policy, b, Side{&head_snap, &e, &d}, diff.config)) {
        diff.decisions.push_back(std::move(*c));
      }
    }
  }
  for (const auto& [key, side] : base_sides) {
    if (!seen.contains(key)) {
      if (auto c = change_of(key.first, key.second, side, Side{}, diff.config)) {
        diff.decisions.push_back(std::move(*c));
      }
    }
  }
  diff.subjects = subjects.size();
}

void compare_edges(const model::Snapshot& base_snap, const model::Snapshot& head_snap, Diff& diff) {
  const auto base = class_views(base_snap);
  const auto head = class_views(head_snap);
  std::set<std::string> names;
  for (const auto* m : {&base, &head}) {
    for (const auto& [name, v] : *m) {
      names.insert(name);
    }
  }
  compare_queue_edges(base_snap.kueue(), head_snap.kueue(), diff);
  // The matrix has a cell per pair of classes; real clusters have tens of classes.
  constexpr std::size_t k_max_classes = 500;
  if (names.size() > k_max_classes) {
    diff.notes.push_back(
        fmt::format("who may preempt whom by PriorityClass is not compared: {} "
                    "classes, more than {}",
                    names.size(), k_max_classes));
    return;
  }
  const std::vector<policy::ClassView> base_list = values_of(base);
  const std::vector<policy::ClassView> head_list = values_of(head);
  for (const policy::Entry& e : policy::all()) {
    const policy::ClassRules& rules = *e.classes;
    if (rules.cell == nullptr || rules.shown == nullptr ||
        (!rules.shown(base_list) && !rules.shown(head_list))) {
      continue;
    }
    for (const std::string& p : names) {
      for (const std::string& v : names) {
        std::string before = cell_in(rules, base, p, v);
        std::string after = cell_in(rules, head, p, v);
        // A class new or gone on one side shows only where it may preempt or be preempted.
        const bool unseen = (before == "-" || before == "no") && (after == "-" || after == "no");
        if (before != after && !unseen) {
          diff.edges.push_back({std::string(e.name), p, v, std::move(before), std::move(after)});
        }
      }
    }
  }
}

}  // namespace kpreempt::render
