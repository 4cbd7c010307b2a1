// SPDX-License-Identifier: Apache-2.0
// Freezing decoded objects into a Snapshot: duplicate checks, the Priority admission plugin's
// resolution of pod priorities, and the per-node indexes policies walk.

#include "kpreempt/model/snapshot.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <unordered_set>

namespace kpreempt::model {
namespace {

constexpr std::int32_t k_highest_user_priority = 1000000000;
constexpr std::string_view k_preempt_lower = "PreemptLowerPriority";

// The classes the API server creates at start-up; they resolve even when the dump lacks them.
const std::array<PriorityClass, 2>& builtin_classes() {
  static const std::array<PriorityClass, 2> k_builtin{
      PriorityClass{"system-cluster-critical", k_system_cluster_critical, false, "", {}, {}},
      PriorityClass{"system-node-critical", k_system_node_critical, false, "", {}, {}},
  };
  return k_builtin;
}

std::string where(const SourceLoc& loc) {
  if (loc.file.empty()) {
    return "<unknown>";
  }
  if (loc.line == 0) {
    return loc.file;
  }
  if (loc.column == 0) {
    return fmt::format("{}:{}", loc.file, loc.line);
  }
  return fmt::format("{}:{}:{}", loc.file, loc.line, loc.column);
}

std::string pod_key(std::string_view ns, std::string_view name) {
  std::string key;
  key.reserve(ns.size() + 1 + name.size());
  return key.append(ns).append(1, '/').append(name);
}

template <typename Pairs>
void sort_by_key(Pairs& m) {
  const auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (!std::is_sorted(m.begin(), m.end(), by_key)) {
    std::stable_sort(m.begin(), m.end(), by_key);
  }
}

void sort_containers(std::vector<Container>& cs) {
  for (Container& c : cs) {
    sort_by_key(c.requests);
  }
}

// The decoder sorts maps already; this keeps lookups correct for objects built by hand.
void normalize(Pod& p) {
  sort_by_key(p.labels);
  sort_by_key(p.annotations);
  sort_by_key(p.node_selector);
  sort_by_key(p.overhead);
  sort_by_key(p.pod_level_requests);
  sort_containers(p.containers);
  sort_containers(p.init_containers);
}

void normalize(Node& n) {
  sort_by_key(n.labels);
  sort_by_key(n.allocatable);
}

void normalize(PodDisruptionBudget& b) {
  sort_by_key(b.selector.match_labels);
  std::sort(b.disrupted_pods.begin(), b.disrupted_pods.end());
}

// Keeps the first object of each key and reports the others where they were written. The
// vector is compacted in place: a copy of 150,000 pods would double their memory for a moment.
// `first`, empty, ends up mapping each key to its object's index once kept.
template <typename T, typename KeyFn, typename LabelFn, typename Index>
void drop_duplicates(std::vector<T>& objects, KeyFn key_of, LabelFn label_of,
                     std::unordered_map<std::string, Index>& first,
                     std::vector<Diagnostic>& diags) {
  first.reserve(objects.size());
  std::size_t kept = 0;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const auto [it, inserted] = first.emplace(key_of(objects[i]), static_cast<Index>(kept));
    if (!inserted) {
      diags.push_back({Severity::error, objects[i].loc,
                       fmt::format("{}: duplicate object; first defined at {}",
                                   label_of(objects[i]), where(objects[it->second].loc))});
      continue;
    }
    if (kept != i) {
      objects[kept] = std::move(objects[i]);
    }
    ++kept;
  }
  objects.erase(objects.begin() + static_cast<std::ptrdiff_t>(kept), objects.end());
}

std::string pod_label(const Pod& p) {
  return fmt::format("Pod {}/{}", p.namespace_, p.name);
}

// One warning per kind of partial-dump problem: the first few in full, then a count, so that a
// dump cut short by a filter does not bury the answer under thousands of lines; and once, the
// kubectl command that completes the dump.
class WarningGroup {
 public:
  static constexpr std::size_t k_shown = 3;

  // `rest` names the group ("pods on nodes missing from the dump"); `completion` says what
  // adds the missing objects, or is empty for a group that is no sign of a partial dump.
  WarningGroup(std::string rest, std::string completion)
      : m_rest(std::move(rest)), m_completion(std::move(completion)) {}
  void add(std::vector<Diagnostic>& diags, const SourceLoc& loc, std::string message) {
    if (++m_count <= k_shown) {
      diags.push_back({Severity::warning, loc, std::move(message)});
    }
  }
  // "... and 117 more pods on nodes missing from the dump", then the completion.
  void finish(std::vector<Diagnostic>& diags) const {
    if (m_count > k_shown) {
      diags.push_back({Severity::warning, SourceLoc{},
                       fmt::format("... and {} more {}", m_count - k_shown, m_rest)});
    }
    if (m_count > 0 && !m_completion.empty()) {
      diags.push_back(
          {Severity::warning, SourceLoc{},
           fmt::format("the dump looks partial ({}: {}): {}", m_rest, m_count, m_completion)});
    }
  }

 private:
  std::string m_rest;
  std::string m_completion;
  std::size_t m_count = 0;
};

std::string_view effective_policy(const PriorityClass& c) {
  return c.preemption_policy.empty() ? k_preempt_lower : std::string_view(c.preemption_policy);
}

}  // namespace

std::optional<NodeId> Snapshot::find_node(std::string_view name) const {
  const auto it = m_node_index.find(std::string(name));
  if (it == m_node_index.end()) {
    return std::nullopt;
  }
  return it->second;
}

std::optional<PodId> Snapshot::find_pod(std::string_view ns, std::string_view name) const {
  const auto it = m_pod_index.find(pod_key(ns, name));
  if (it == m_pod_index.end()) {
    return std::nullopt;
  }
  return it->second;
}

const Job* Snapshot::find_job(std::string_view ns, std::string_view name) const {
  for (const Job& j : m_jobs) {
    if (j.namespace_ == ns && j.name == name) {
      return &j;
    }
  }
  return nullptr;
}

const PriorityClass* Snapshot::find_priority_class(std::string_view name) const {
  for (const PriorityClass& c : m_classes) {
    if (c.name == name) {
      return &c;
    }
  }
  for (const PriorityClass& c : builtin_classes()) {
    if (c.name == name) {
      return &c;
    }
  }
  return nullptr;
}

std::vector<const PodDisruptionBudget*> Snapshot::pdbs_in(std::string_view ns) const {
  std::vector<const PodDisruptionBudget*> out;
  for (const PodDisruptionBudget& b : m_pdbs) {
    if (b.namespace_ == ns) {
      out.push_back(&b);
    }
  }
  return out;
}

void SnapshotBuilder::count_skipped(std::string_view kind) {
  StringMap& m = m_snap.m_skipped;
  const auto it = std::lower_bound(m.begin(), m.end(), kind,
                                   [](const auto& e, std::string_view k) { return e.first < k; });
  if (it == m.end() || it->first != kind) {
    m.emplace(it, std::string(kind), "1");
    return;
  }
  std::uint64_t count = 0;
  std::from_chars(it->second.data(), it->second.data() + it->second.size(), count);
  it->second = std::to_string(count + 1);
}

SnapshotBuilder::Seen SnapshotBuilder::see(const std::string& key, const std::string& identity,
                                           const SourceLoc& loc, SourceLoc& first) {
  const auto [it, inserted] = m_seen.try_emplace(key, SeenObject{identity, loc});
  if (inserted) {
    return Seen::first;
  }
  first = it->second.loc;
  if (it->second.identity != identity) {
    return Seen::conflict;
  }
  ++m_snap.m_merged;
  return Seen::identical;
}

namespace {

// Everything build() needs to resolve a pod's priority the way the Priority admission plugin
// did when the pod was created.
class PriorityResolver {
 public:
  PriorityResolver(const Snapshot& snap, std::vector<Diagnostic>& diags)
      : m_snap(snap),
        m_diags(diags),
        m_missing("pods whose PriorityClass is missing from the dump",
                  "`kubectl get priorityclasses -o yaml` adds the classes"),
        // A class whose value or policy changed after its pods were created: every such pod
        // says so, which on a big cluster is thousands of lines; the first few are shown.
        m_value_differs("pods whose spec.priority differs from their PriorityClass's value", ""),
        m_policy_differs(
            "pods whose spec.preemptionPolicy differs from their PriorityClass's policy", "") {
    // getDefaultPriorityClass: among global defaults, the lowest value wins.
    for (const PriorityClass& c : snap.priority_classes()) {
      if (c.global_default && (m_default == nullptr || c.value < m_default->value)) {
        m_default = &c;
      }
    }
  }

  void resolve(const Pod& pod, PodFacts& facts) {
    const PriorityClass* cls = nullptr;
    if (!pod.priority_class_name.empty()) {
      cls = m_snap.find_priority_class(pod.priority_class_name);
    } else if (!pod.priority) {
      cls = m_default;  // a pod with spec.priority but no class predates the default class
    }
    if (pod.priority) {
      facts.priority = *pod.priority;
      if (cls == nullptr && !pod.priority_class_name.empty()) {
        // Admission resolved the class when the pod was created; spec.priority is what it
        // found then, and what the scheduler reads now.
        m_missing.add(m_diags, pod.loc,
                      fmt::format("{}: PriorityClass \"{}\" is not in the dump; using "
                                  "spec.priority {}",
                                  pod_label(pod), pod.priority_class_name, *pod.priority));
      }
      if (cls != nullptr && cls->value != *pod.priority) {
        warn(m_value_differs, pod,
             fmt::format("spec.priority {} differs from PriorityClass \"{}\" value {}; using "
                         "spec.priority",
                         *pod.priority, cls->name, cls->value));
      }
    } else if (cls != nullptr) {
      facts.priority = cls->value;
    } else if (!pod.priority_class_name.empty()) {
      m_diags.push_back({Severity::error, pod.loc,
                         fmt::format("{}: spec.priorityClassName: PriorityClass \"{}\" not found",
                                     pod_label(pod), pod.priority_class_name)});
    }
    facts.preempt_never = resolve_policy(pod, cls) == "Never";
  }
  void finish() const {
    m_missing.finish(m_diags);
    m_value_differs.finish(m_diags);
    m_policy_differs.finish(m_diags);
  }

 private:
  std::string_view resolve_policy(const Pod& pod, const PriorityClass* cls) {
    if (pod.preemption_policy.empty()) {
      return cls != nullptr ? effective_policy(*cls) : k_preempt_lower;
    }
    if (cls != nullptr && effective_policy(*cls) != pod.preemption_policy) {
      warn(m_policy_differs, pod,
           fmt::format("spec.preemptionPolicy \"{}\" differs from PriorityClass \"{}\" "
                       "preemptionPolicy \"{}\"; using spec.preemptionPolicy",
                       pod.preemption_policy, cls->name, effective_policy(*cls)));
    }
    return pod.preemption_policy;
  }

  void warn(WarningGroup& group, const Pod& pod, std::string text) {
    group.add(m_diags, pod.loc, fmt::format("{}: {}", pod_label(pod), std::move(text)));
  }

  const Snapshot& m_snap;
  std::vector<Diagnostic>& m_diags;
  const PriorityClass* m_default = nullptr;
  WarningGroup m_missing, m_value_differs, m_policy_differs;
};

void check_class_values(const std::vector<PriorityClass>& classes, std::vector<Diagnostic>& diags) {
  for (const PriorityClass& c : classes) {
    if (c.value > k_highest_user_priority && !c.name.starts_with("system-")) {
      diags.push_back({Severity::error, c.loc,
                       fmt::format("PriorityClass {}: value {} is above {}, the highest allowed "
                                   "for a class whose name does not start with \"system-\"",
                                   c.name, c.value, k_highest_user_priority)});
    }
  }
}

// The scheduler's snapshot holds only pods of nodes it knows (NodeInfo per node), so a pod
// bound elsewhere neither uses room nor can be a victim.
void report_missing_node(const Pod& pod, std::vector<Diagnostic>& diags,
                         WarningGroup& missing_nodes) {
  missing_nodes.add(diags, pod.loc,
                    fmt::format("{}: node \"{}\" is not in the dump; pod ignored", pod_label(pod),
                                pod.node_name));
}

// Places a pod on its node's lists. Terminal pods keep their node in facts but hold nothing
// there, and only pending pods count as nominated.
void index_pod(const Pod& pod, PodId id, const std::unordered_map<std::string, NodeId>& nodes,
               PodFacts& facts, std::vector<std::vector<PodId>>& pods_on,
               std::vector<std::vector<PodId>>& nominated_to, std::vector<Diagnostic>& diags,
               WarningGroup& missing_nodes) {
  const auto bound = pod.node_name.empty() ? nodes.end() : nodes.find(pod.node_name);
  if (bound != nodes.end()) {
    facts.node = bound->second;
  }
  if (pod.terminal()) {
    return;
  }
  if (!pod.node_name.empty()) {
    if (bound == nodes.end()) {
      report_missing_node(pod, diags, missing_nodes);
      return;
    }
    pods_on[bound->second].push_back(id);
    return;
  }
  if (pod.nominated_node_name.empty()) {
    return;
  }
  const auto nominated = nodes.find(pod.nominated_node_name);
  if (nominated != nodes.end()) {
    nominated_to[nominated->second].push_back(id);
  }
}

// `kubectl get pods -n NS` instead of `-A`: every pod bound to a node is in one namespace, and
// none in kube-system, where every real cluster runs its node agents. Pods of the namespaces
// left out use the nodes too, and are victims as much as these.
void check_one_namespace(const Snapshot& s, std::vector<Diagnostic>& diags) {
  const std::string* only = nullptr;
  for (PodId i = 0; i < s.pods().size(); ++i) {
    const Pod& p = s.pods()[i];
    if (p.node_name.empty() || p.terminal() || s.facts(i).node == k_none) {
      continue;
    }
    if (p.namespace_ == "kube-system" || (only != nullptr && *only != p.namespace_)) {
      return;
    }
    only = &p.namespace_.str();
  }
  if (only != nullptr) {
    diags.push_back({Severity::warning, SourceLoc{},
                     fmt::format("the dump looks partial (every pod on its nodes is in namespace "
                                 "{}, none in kube-system): pods of other namespaces use the "
                                 "nodes too; `kubectl get pods -A -o yaml` adds them",
                                 *only)});
  }
}

// A budget read without its status (a hand-written manifest, or `kubectl get` filtered by a
// template) allows no disruption: the disruption controller has not counted healthy pods yet,
// and the scheduler reads status.disruptionsAllowed as 0.
void check_pdb_status(const std::vector<PodDisruptionBudget>& pdbs,
                      std::vector<Diagnostic>& diags) {
  WarningGroup group("PodDisruptionBudgets without status",
                     "`kubectl get pdb -A -o yaml` prints them with their status");
  for (const PodDisruptionBudget& b : pdbs) {
    if (!b.has_status) {
      group.add(diags, b.loc,
                fmt::format("PodDisruptionBudget {}/{}: no status in the dump; it allows no "
                            "disruption, so every pod it selects counts as a violation",
                            b.namespace_, b.name));
    }
  }
  group.finish(diags);
}

// A real dump of the largest clusters holds a few hundred thousand objects; far more is a
// generator gone wrong or an attack on memory.
constexpr std::size_t k_max_objects = 5'000'000;

void check_object_count(const Snapshot& s, std::vector<Diagnostic>& diags) {
  const std::size_t n =
      s.nodes().size() + s.pods().size() + s.pdbs().size() + s.priority_classes().size();
  if (n > k_max_objects) {
    diags.push_back(
        {Severity::error, SourceLoc{},
         fmt::format("the input holds {} objects, more than the limit of {}", n, k_max_objects)});
  }
}

void normalize_all(std::vector<Node>& nodes, std::vector<Pod>& pods,
                   std::vector<PodDisruptionBudget>& pdbs, std::vector<PriorityClass>& classes,
                   SchedulerConfig& config) {
  std::for_each(nodes.begin(), nodes.end(), [](Node& n) { normalize(n); });
  std::for_each(pods.begin(), pods.end(), [](Pod& p) { normalize(p); });
  std::for_each(pdbs.begin(), pdbs.end(), [](PodDisruptionBudget& b) { normalize(b); });
  for (PriorityClass& c : classes) {
    sort_by_key(c.annotations);
  }
  sort_by_key(config.plugin_args);
}

// The pods' table of first keys is their name index, `pod_index`.
void drop_all_duplicates(std::vector<Node>& nodes, std::vector<PriorityClass>& classes,
                         std::vector<Pod>& pods, std::vector<PodDisruptionBudget>& pdbs,
                         std::vector<Diagnostic>& diags,
                         std::unordered_map<std::string, PodId>& pod_index) {
  std::unordered_map<std::string, std::size_t> nodes_seen, classes_seen, pdbs_seen;
  drop_duplicates(
      nodes, [](const Node& n) { return n.name; },
      [](const Node& n) { return fmt::format("Node {}", n.name); }, nodes_seen, diags);
  drop_duplicates(
      classes, [](const PriorityClass& c) { return c.name; },
      [](const PriorityClass& c) { return fmt::format("PriorityClass {}", c.name); }, classes_seen,
      diags);
  pod_index.clear();
  drop_duplicates(
      pods, [](const Pod& p) { return pod_key(p.namespace_, p.name); }, pod_label, pod_index,
      diags);
  drop_duplicates(
      pdbs, [](const PodDisruptionBudget& b) { return pod_key(b.namespace_, b.name); },
      [](const PodDisruptionBudget& b) {
        return fmt::format("PodDisruptionBudget {}/{}", b.namespace_, b.name);
      },
      pdbs_seen, diags);
}

}  // namespace

namespace {

// Kueue's jobframework gives a Workload made from a job the value of its pod template's
// PriorityClass, or of the first globalDefault class when it names none (utilpriority
// GetPriorityFromPriorityClass). Resolved once every class is read, whatever the input order.
void resolve_workload_class_priorities(const Snapshot& s, KueueObjects& kueue) {
  const auto& classes = s.priority_classes();
  const auto first_default = std::find_if(classes.begin(), classes.end(),
                                          [](const PriorityClass& c) { return c.global_default; });
  for (Workload& w : kueue.workloads) {
    if (!w.priority_from_pod_class) {
      continue;
    }
    const PriorityClass* c = !w.priority_class_name.empty()
                                 ? s.find_priority_class(w.priority_class_name)
                             : first_default != classes.end() ? &*first_default
                                                              : nullptr;
    w.priority = c != nullptr ? c->value : 0;
  }
}

// Kueue makes one Workload for each object it manages and owns it by that object. A dump
// taken after Kueue saw an object holds that Workload already, admitted or pending, so the
// Workload kpreempt derives from the same object (a Job, JobSet, ... read from the dump) is
// dropped: the rule is that a derived Workload gives way to any Workload whose controller
// owner reference names its source (kind, namespace, name). What-if Workloads from
// --pod-file are kept: they ask about the object as it is written.
void drop_derived_duplicates(KueueObjects& kueue) {
  std::vector<ObjectRef> owners;
  for (const Workload& w : kueue.workloads) {
    if (w.owner) {
      owners.push_back(*w.owner);
    }
  }
  if (owners.empty()) {
    return;
  }
  std::sort(owners.begin(), owners.end());
  std::erase_if(kueue.workloads, [&](const Workload& w) {
    return w.derived_from && !w.what_if &&
           std::binary_search(owners.begin(), owners.end(), *w.derived_from);
  });
}

}  // namespace

// Pods appended to a built snapshot can be indexed alone when no other object changed and none
// of them takes a key already used: every step of the full build then leaves the built part
// as it was (its objects normalized, its duplicates dropped, its indexes and facts the same).
// A duplicate is left to the full build, which reports it.
bool SnapshotBuilder::only_new_pods_added() const {
  if (!m_built_pods || *m_built_pods == 0) {
    return false;
  }
  const Snapshot& s = m_snap;
  std::unordered_set<std::string> keys;
  for (PodId i = *m_built_pods; i < s.m_pods.size(); ++i) {
    std::string key = pod_key(s.m_pods[i].namespace_, s.m_pods[i].name);
    if (s.m_pod_index.contains(key) || !keys.insert(std::move(key)).second) {
      return false;
    }
  }
  return true;
}

void SnapshotBuilder::prepare_all(std::vector<Diagnostic>& diags, std::vector<ObjectRef>* made) {
  Snapshot& s = m_snap;
  normalize_all(s.m_nodes, s.m_pods, s.m_pdbs, s.m_classes, s.m_scheduler_config);
  // Before the duplicate check, which then reports a made pod whose name is taken.
  for (DaemonSet& d : m_daemon_sets) {
    normalize(d.pod);
  }
  std::vector<ObjectRef> daemon_pods =
      expand_daemon_sets(m_daemon_sets, s.m_nodes, s.m_pods, diags);
  m_daemon_sets.clear();
  if (made != nullptr) {
    made->insert(made->end(), daemon_pods.begin(), daemon_pods.end());
  }
  drop_all_duplicates(s.m_nodes, s.m_classes, s.m_pods, s.m_pdbs, diags, s.m_pod_index);
}

// Indexes the pods from `first` on (all of them when it is 0, over fresh tables but the name
// index, which prepare_all() made). Every pod's priority is resolved again and every missing
// node reported, so that the messages come in pod order as a full build gives them.
void SnapshotBuilder::index_pods(PodId first, std::vector<Diagnostic>& diags) {
  Snapshot& s = m_snap;
  if (first == 0) {
    s.m_node_index.clear();  // the pods' index was built with the duplicate check
    for (NodeId i = 0; i < s.m_nodes.size(); ++i) {
      s.m_node_index.emplace(s.m_nodes[i].name, i);
    }
    s.m_pods_on.assign(s.m_nodes.size(), {});
    s.m_nominated_to.assign(s.m_nodes.size(), {});
    s.m_facts.assign(s.m_pods.size(), {});
  } else {
    s.m_facts.resize(s.m_pods.size());
  }
  PriorityResolver resolver(s, diags);
  WarningGroup missing_nodes("pods on nodes missing from the dump",
                             "`kubectl get nodes -o yaml` adds the nodes");
  for (PodId i = 0; i < s.m_pods.size(); ++i) {
    const Pod& pod = s.m_pods[i];
    PodFacts& facts = s.m_facts[i];
    resolver.resolve(pod, facts);
    if (i < first) {
      if (!pod.terminal() && !pod.node_name.empty() && facts.node == k_none) {
        report_missing_node(pod, diags, missing_nodes);
      }
      continue;
    }
    if (first != 0) {
      s.m_pod_index.emplace(pod_key(pod.namespace_, pod.name), i);
    }
    facts.requests = pod_requests(pod);
    index_pod(pod, i, s.m_node_index, facts, s.m_pods_on, s.m_nominated_to, diags, missing_nodes);
  }
  resolver.finish();
  missing_nodes.finish(diags);
}

Snapshot SnapshotBuilder::build(std::vector<Diagnostic>& diags, std::vector<ObjectRef>* made) && {
  Snapshot& s = m_snap;
  m_seen = {};  // an entry per object read, needed no more: its memory goes before the indexes'
  // A built snapshot with pods appended: the pods before `first` are indexed already.
  const PodId first = only_new_pods_added() ? *m_built_pods : 0;
  if (first == 0) {
    prepare_all(diags, made);
  } else {
    std::for_each(s.m_pods.begin() + first, s.m_pods.end(), [](Pod& p) { normalize(p); });
  }
  check_class_values(s.m_classes, diags);
  s.m_koordinator.check_quota_parents(diags);
  resolve_train_jobs(s.m_kueue, diags);
  drop_derived_duplicates(s.m_kueue);
  resolve_workload_class_priorities(s, s.m_kueue);
  index_pods(first, diags);
  check_one_namespace(s, diags);
  check_pdb_status(s.m_pdbs, diags);
  check_object_count(s, diags);
  if (first == 0) {
    s.derive();
  } else {
    s.derive_added(first);
  }
  return std::move(m_snap);
}

}  // namespace kpreempt::model
