// SPDX-License-Identifier: Apache-2.0
// SnapshotBuilder: duplicates, priority admission emulation, node indexes, skipped kinds.

#include "kpreempt/model/snapshot.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

using namespace kpreempt;
using namespace kpreempt::model;

namespace {

SourceLoc at(std::uint32_t line) {
  return SourceLoc{"dump.yaml", line, 1};
}

Pod pod(std::string ns, std::string name, std::uint32_t line = 1) {
  Pod p;
  p.namespace_ = std::move(ns);
  p.name = std::move(name);
  p.phase = "Pending";
  p.loc = at(line);
  return p;
}

Node node(std::string name, std::uint32_t line = 1) {
  Node n;
  n.name = std::move(name);
  n.loc = at(line);
  return n;
}

PriorityClass pclass(std::string name, std::int32_t value, bool global_default = false,
                     std::string policy = "") {
  PriorityClass c;
  c.name = std::move(name);
  c.value = value;
  c.global_default = global_default;
  c.preemption_policy = std::move(policy);
  c.loc = at(90);
  return c;
}

std::vector<std::string> formatted(const std::vector<Diagnostic>& diags) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags) {
    out.push_back(format(d));
  }
  return out;
}

TEST_CASE("a dump whose bound pods are all in one namespace says it looks partial",
          "[model][snapshot]") {
  const auto notes = [](std::initializer_list<const char*> namespaces) {
    SnapshotBuilder b;
    b.add(node("n1"));
    std::uint32_t line = 10;
    for (const char* ns : namespaces) {
      Pod p = pod(ns, fmt::format("p{}", line), line);
      p.node_name = "n1";
      p.phase = "Running";
      b.add(p);
      ++line;
    }
    std::vector<Diagnostic> diags;
    (void)std::move(b).build(diags);
    return formatted(diags);
  };
  CHECK(notes({"team-a", "team-a"}) ==
        std::vector<std::string>{
            "kpreempt: warning: the dump looks partial (every pod on its nodes is in namespace "
            "team-a, none in kube-system): pods of other namespaces use the nodes too; `kubectl "
            "get pods -A -o yaml` adds them"});
  CHECK(notes({"team-a", "kube-system"}).empty());
  CHECK(notes({"team-a", "team-b"}).empty());
  CHECK(notes({}).empty());
}

}  // namespace

TEST_CASE("duplicate objects are reported at the second copy and dropped", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(node("n1", 1));
  b.add(node("n1", 5));
  b.add(pod("team-a", "x", 10));
  b.add(pod("team-b", "x", 20));
  b.add(pod("team-a", "x", 30));
  PodDisruptionBudget pdb;
  pdb.namespace_ = "team-a";
  pdb.name = "p";
  pdb.has_status = true;  // this test is about duplicates only
  pdb.loc = at(40);
  b.add(pdb);
  pdb.loc = at(41);
  b.add(pdb);
  b.add(pclass("gold", 10));
  b.add(pclass("gold", 20));
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  CHECK(formatted(diags) ==
        std::vector<std::string>{
            "dump.yaml:5:1: error: Node n1: duplicate object; first defined at dump.yaml:1:1",
            "dump.yaml:90:1: error: PriorityClass gold: duplicate object; first defined at "
            "dump.yaml:90:1",
            "dump.yaml:30:1: error: Pod team-a/x: duplicate object; first defined at "
            "dump.yaml:10:1",
            "dump.yaml:41:1: error: PodDisruptionBudget team-a/p: duplicate object; first "
            "defined at dump.yaml:40:1",
        });
  CHECK(s.nodes().size() == 1);
  CHECK(s.pods().size() == 2);
  CHECK(s.pdbs().size() == 1);
  CHECK(s.priority_classes().size() == 1);
  CHECK(s.priority_classes()[0].value == 10);
  CHECK(s.find_pod("team-b", "x") == PodId{1});
}

TEST_CASE("a pod's priority comes from spec, class, global default or zero", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(pclass("high", 1000));
  b.add(pclass("default-b", 50, true));
  b.add(pclass("default-a", 20, true, "Never"));
  Pod explicit_priority = pod("ns", "explicit");
  explicit_priority.priority = 7;
  b.add(explicit_priority);
  Pod by_class = pod("ns", "by-class");
  by_class.priority_class_name = "high";
  b.add(by_class);
  b.add(pod("ns", "defaulted"));
  Pod critical = pod("kube-system", "dns");
  critical.priority_class_name = "system-cluster-critical";
  b.add(critical);
  Pod node_critical = pod("kube-system", "proxy");
  node_critical.priority_class_name = "system-node-critical";
  b.add(node_critical);
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  CHECK(diags.empty());
  CHECK(s.facts(0).priority == 7);
  CHECK_FALSE(s.facts(0).preempt_never);
  CHECK(s.facts(1).priority == 1000);
  CHECK(s.facts(2).priority == 20);  // lowest global default wins
  CHECK(s.facts(2).preempt_never);   // and brings its preemptionPolicy
  CHECK(s.facts(3).priority == k_system_cluster_critical);
  CHECK(s.facts(4).priority == k_system_node_critical);
  REQUIRE(s.find_priority_class("system-node-critical") != nullptr);
  CHECK(s.find_priority_class("system-node-critical")->value == 2000001000);
  CHECK(s.find_priority_class("nope") == nullptr);
}

TEST_CASE("without classes a pod without spec.priority gets zero", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(pod("ns", "x"));
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  CHECK(diags.empty());
  CHECK(s.facts(0).priority == 0);
}

TEST_CASE("an unknown class is an error only without spec.priority", "[model][snapshot]") {
  SnapshotBuilder b;
  Pod missing = pod("ns", "x", 3);
  missing.priority_class_name = "gold";
  b.add(missing);
  Pod admitted = pod("ns", "y", 4);
  admitted.priority_class_name = "gold";
  admitted.priority = 500;
  b.add(admitted);
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  CHECK(formatted(diags) ==
        std::vector<std::string>{
            "dump.yaml:3:1: error: Pod ns/x: spec.priorityClassName: PriorityClass \"gold\" "
            "not found",
            "dump.yaml:4:1: warning: Pod ns/y: PriorityClass \"gold\" is not in the dump; using "
            "spec.priority 500",
            "kpreempt: warning: the dump looks partial (pods whose PriorityClass is missing from "
            "the dump: 1): `kubectl get priorityclasses -o yaml` adds the classes"});
  CHECK(s.facts(1).priority == 500);
}

TEST_CASE("a class whose value changed after its pods were made: the first three pods said",
          "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(pclass("batch", 501));
  for (int i = 0; i < 5; ++i) {
    Pod p = pod("ns", "p" + std::to_string(i), 10 + i);
    p.priority_class_name = "batch";
    p.priority = 500;
    b.add(p);
  }
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  const std::vector<std::string> got = formatted(diags);
  REQUIRE(got.size() == 4);
  CHECK(got[0] ==
        "dump.yaml:10:1: warning: Pod ns/p0: spec.priority 500 differs from "
        "PriorityClass \"batch\" value 501; using spec.priority");
  CHECK(got[3] ==
        "kpreempt: warning: ... and 2 more pods whose spec.priority differs from their "
        "PriorityClass's value");
  CHECK(s.facts(4).priority == 500);
}

TEST_CASE("spec values that disagree with the class are kept with a warning", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(pclass("high", 1000));
  Pod p = pod("ns", "x", 7);
  p.priority_class_name = "high";
  p.priority = 5;
  p.preemption_policy = "Never";
  b.add(p);
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  CHECK(formatted(diags) ==
        std::vector<std::string>{
            "dump.yaml:7:1: warning: Pod ns/x: spec.priority 5 differs from PriorityClass "
            "\"high\" value 1000; using spec.priority",
            "dump.yaml:7:1: warning: Pod ns/x: spec.preemptionPolicy \"Never\" differs from "
            "PriorityClass \"high\" preemptionPolicy \"PreemptLowerPriority\"; using "
            "spec.preemptionPolicy"});
  CHECK(s.facts(0).priority == 5);
  CHECK(s.facts(0).preempt_never);
}

TEST_CASE("the preemption policy falls back to the class", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(pclass("batch", 100, false, "Never"));
  Pod p = pod("ns", "x");
  p.priority_class_name = "batch";
  p.priority = 100;
  b.add(p);
  Pod q = pod("ns", "y");
  q.priority_class_name = "batch";
  q.priority = 100;
  q.preemption_policy = "Never";
  b.add(q);
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  CHECK(diags.empty());
  CHECK(s.facts(0).preempt_never);
  CHECK(s.facts(1).preempt_never);
}

TEST_CASE("user classes above one billion are errors", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(pclass("huge", 1000000001));
  b.add(pclass("ok", 1000000000));
  b.add(pclass("system-custom", 1500000000));
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  CHECK(formatted(diags) ==
        std::vector<std::string>{
            "dump.yaml:90:1: error: PriorityClass huge: value 1000000001 is above 1000000000, "
            "the highest allowed for a class whose name does not start with \"system-\""});
  CHECK(s.priority_classes().size() == 3);
}

TEST_CASE("pods are indexed on their nodes in input order", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(node("n1"));
  b.add(node("n2"));
  Pod a = pod("ns", "a");
  a.node_name = "n2";
  a.phase = "Running";
  Pod done = pod("ns", "done");
  done.node_name = "n2";
  done.phase = "Succeeded";
  Pod c = pod("ns", "c");
  c.node_name = "n2";
  Pod lost = pod("ns", "lost", 12);
  lost.node_name = "n9";
  Pod nominated = pod("ns", "nom");
  nominated.nominated_node_name = "n1";
  Pod failed_nominated = pod("ns", "failed-nom");
  failed_nominated.nominated_node_name = "n1";
  failed_nominated.phase = "Failed";
  Pod bound_nominated = pod("ns", "bound-nom");
  bound_nominated.node_name = "n1";
  bound_nominated.nominated_node_name = "n2";
  for (Pod* p : {&a, &done, &c, &lost, &nominated, &failed_nominated, &bound_nominated}) {
    b.add(*p);
  }
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  CHECK(formatted(diags) ==
        std::vector<std::string>{"dump.yaml:12:1: warning: Pod ns/lost: node \"n9\" is not in "
                                 "the dump; pod ignored",
                                 "kpreempt: warning: the dump looks partial (pods on nodes missing "
                                 "from the dump: 1): `kubectl get nodes -o yaml` adds the nodes",
                                 "kpreempt: warning: the dump looks partial (every pod on its "
                                 "nodes is in namespace ns, none in kube-system): pods of other "
                                 "namespaces use the nodes too; `kubectl get pods -A -o yaml` adds "
                                 "them"});
  REQUIRE(s.find_node("n2") == NodeId{1});
  CHECK(std::vector<PodId>(s.pods_on(1).begin(), s.pods_on(1).end()) == std::vector<PodId>{0, 2});
  CHECK(std::vector<PodId>(s.pods_on(0).begin(), s.pods_on(0).end()) == std::vector<PodId>{6});
  CHECK(std::vector<PodId>(s.nominated_to(0).begin(), s.nominated_to(0).end()) ==
        std::vector<PodId>{4});
  CHECK(s.nominated_to(1).empty());
  CHECK(s.facts(0).node == 1);
  CHECK(s.facts(1).node == 1);  // terminal, but its node is still known
  CHECK(s.facts(3).node == k_none);
  CHECK(s.facts(4).node == k_none);
  CHECK(s.pods().size() == 7);
  CHECK_FALSE(s.find_node("n9").has_value());
  CHECK_FALSE(s.find_pod("ns", "zzz").has_value());
}

TEST_CASE("facts carry each pod's requests", "[model][snapshot]") {
  SnapshotBuilder b;
  Pod p = pod("ns", "x");
  Container c;
  c.requests = {{"memory", Quantity::from_units(64)}, {"cpu", Quantity::from_milli(250)}};
  p.containers.push_back(c);  // deliberately unsorted
  p.labels = {{"z", "1"}, {"a", "2"}};
  b.add(p);
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  CHECK(s.facts(0).requests.cpu_milli == 250);
  CHECK(s.facts(0).requests.memory == 64);
  REQUIRE(find(s.pods()[0].labels, "a") != nullptr);
  CHECK(*find(s.pods()[0].labels, "a") == "2");
}

TEST_CASE("PDBs are listed per namespace in input order", "[model][snapshot]") {
  SnapshotBuilder b;
  for (const char* name : {"b", "a", "c"}) {
    PodDisruptionBudget pdb;
    pdb.namespace_ = std::string(name) == "c" ? "other" : "ns";
    pdb.name = name;
    b.add(pdb);
  }
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  const auto in_ns = s.pdbs_in("ns");
  REQUIRE(in_ns.size() == 2);
  CHECK(in_ns[0]->name == "b");
  CHECK(in_ns[1]->name == "a");
  CHECK(s.pdbs_in("none").empty());
}

TEST_CASE("skipped kinds are counted in name order", "[model][snapshot]") {
  SnapshotBuilder b;
  for (const char* kind : {"Service", "ConfigMap", "Service", "Service", "Deployment"}) {
    b.count_skipped(kind);
  }
  std::vector<Diagnostic> diags;
  const Snapshot s = std::move(b).build(diags);
  CHECK(s.skipped_kinds() == StringMap{{"ConfigMap", "1"}, {"Deployment", "1"}, {"Service", "3"}});
}

namespace {

// Every index and derived table a policy reads, and every message, as text.
std::string tables(const Snapshot& s, const std::vector<Diagnostic>& diags) {
  std::string out;
  for (PodId i = 0; i < s.pods().size(); ++i) {
    const Pod& p = s.pods()[i];
    const PodFacts& f = s.facts(i);
    out += fmt::format("pod {} {}/{} prio {} never {} node {} cpu {} found {} pdbs {}\n", i,
                       p.namespace_, p.name, f.priority, f.preempt_never, f.node,
                       f.requests.cpu_milli, s.find_pod(p.namespace_, p.name).value_or(k_none),
                       fmt::join(s.pdbs_of(i), ","));
  }
  for (NodeId n = 0; n < s.nodes().size(); ++n) {
    out += fmt::format("node {} on {} nominated {} requested {} exact {}\n", n,
                       fmt::join(s.pods_on(n), ","), fmt::join(s.nominated_to(n), ","),
                       s.node_facts(n).requested.cpu_milli, s.node_facts(n).requested_exact);
  }
  out += fmt::format("anti-affinity {}\n", fmt::join(s.pods_with_required_anti_affinity(), ","));
  for (const std::string& d : formatted(diags)) {
    out += d + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("pods added to a built snapshot are indexed as a build of everything indexes them",
          "[model][snapshot]") {
  const auto base_objects = [](SnapshotBuilder& b) {
    b.add(node("n1", 2));
    b.add(node("n2", 3));
    b.add(pclass("high", 100));
    b.add(pclass("low", 1, true));
    PodDisruptionBudget pdb;
    pdb.namespace_ = "ns";
    pdb.name = "budget";
    pdb.selector.match_labels = {{"app", "web"}};
    pdb.has_status = true;
    b.add(pdb);
    for (std::uint32_t i = 0; i < 6; ++i) {
      Pod p = pod("ns", fmt::format("base-{}", i), 10 + i);
      p.node_name = i % 3 == 2 ? "" : (i % 2 == 0 ? "n1" : "n2");
      p.phase = p.node_name.empty() ? "Pending" : "Running";
      p.labels = {{"app", "web"}};
      Container c;
      c.requests = {{"cpu", Quantity::from_milli(100 * (i + 1))}};
      p.containers.push_back(c);
      if (i == 4) {
        p.node_name = "n7";  // lost
      }
      b.add(p);
    }
  };
  // Pods as a what-if adds them: pending, bound, on a missing node, nominated, terminal,
  // with unsorted labels, a priority disagreeing with its class, anti-affinity.
  const auto added = [] {
    std::vector<Pod> out;
    Pod pending = pod("ns", "new-pending", 40);
    pending.labels = {{"z", "1"}, {"app", "web"}};
    pending.priority_class_name = "high";
    out.push_back(pending);
    Pod bound = pod("ns", "new-bound", 41);
    bound.node_name = "n2";
    bound.phase = "Running";
    bound.priority = 5;
    bound.priority_class_name = "high";
    bound.required_pod_anti_affinity.emplace_back();
    Container c;
    c.requests = {{"cpu", Quantity::from_milli(50)}};
    bound.containers.push_back(c);
    out.push_back(bound);
    Pod lost = pod("other", "new-lost", 42);
    lost.node_name = "n9";
    out.push_back(lost);
    Pod nominated = pod("ns", "new-nominated", 43);
    nominated.nominated_node_name = "n1";
    out.push_back(nominated);
    Pod done = pod("ns", "new-done", 44);
    done.node_name = "n1";
    done.phase = "Succeeded";
    out.push_back(done);
    return out;
  }();

  SnapshotBuilder whole;
  base_objects(whole);
  for (const Pod& p : added) {
    whole.add(p);
  }
  std::vector<Diagnostic> whole_diags;
  const Snapshot expected = std::move(whole).build(whole_diags);

  SnapshotBuilder first;
  base_objects(first);
  std::vector<Diagnostic> ignored;
  SnapshotBuilder more(std::move(first).build(ignored));
  for (const Pod& p : added) {
    more.add(p);
  }
  std::vector<Diagnostic> more_diags;
  const Snapshot got = std::move(more).build(more_diags);
  CHECK(tables(got, more_diags) == tables(expected, whole_diags));
  CHECK(got.pods()[6].labels.front().first == "app");  // normalized
}

TEST_CASE("a pod added to a built snapshot under a name it holds is reported and dropped",
          "[model][snapshot]") {
  SnapshotBuilder first;
  first.add(pod("ns", "a", 10));
  std::vector<Diagnostic> diags;
  SnapshotBuilder more(std::move(first).build(diags));
  REQUIRE(diags.empty());
  more.add(pod("ns", "b", 20));
  more.add(pod("ns", "a", 21));
  more.add(pod("ns", "b", 22));
  const Snapshot s = std::move(more).build(diags);
  CHECK(formatted(diags) ==
        std::vector<std::string>{
            "dump.yaml:21:1: error: Pod ns/a: duplicate object; first defined at dump.yaml:10:1",
            "dump.yaml:22:1: error: Pod ns/b: duplicate object; first defined at dump.yaml:20:1"});
  CHECK(s.pods().size() == 2);
}
