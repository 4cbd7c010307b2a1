// SPDX-License-Identifier: Apache-2.0
// The tables a snapshot derives once for the policies: per-node sums, node-name order, pods
// with required anti-affinity, and the budgets selecting each pod.

#include "kpreempt/model/snapshot.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace kpreempt;
using namespace kpreempt::model;

namespace {

Pod bound(std::string name, std::string node, std::int64_t cpu_milli,
          StringMap labels = {{"app", "web"}}) {
  Pod p;
  p.namespace_ = "ns";
  p.name = std::move(name);
  p.node_name = std::move(node);
  p.phase = "Running";
  p.labels = std::move(labels);
  Container c;
  c.requests = {{"cpu", Quantity::from_milli(cpu_milli)}};
  p.containers.push_back(c);
  return p;
}

Node node(std::string name) {
  Node n;
  n.name = std::move(name);
  n.allocatable = {{"cpu", Quantity::from_milli(4000)}, {"pods", Quantity::from_units(110)}};
  n.has_allocatable_pods = true;
  return n;
}

PodDisruptionBudget pdb(std::string ns, std::string name, StringMap match_labels) {
  PodDisruptionBudget b;
  b.namespace_ = std::move(ns);
  b.name = std::move(name);
  b.selector.present = true;
  b.selector.match_labels = std::move(match_labels);
  return b;
}

Snapshot build(SnapshotBuilder b) {
  std::vector<Diagnostic> diags;
  return std::move(b).build(diags);
}

std::vector<std::uint32_t> ids(std::span<const std::uint32_t> s) {
  return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("a node's requests are summed once, with its allocatable", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(node("b"));
  b.add(node("a"));
  b.add(bound("x", "b", 500));
  b.add(bound("y", "b", 250));
  Pod done = bound("done", "b", 1000);
  done.phase = "Succeeded";  // terminal pods use no room
  b.add(done);
  const Snapshot s = build(std::move(b));
  CHECK(s.node_facts(0).requested.cpu_milli == 750);
  CHECK(s.node_facts(0).requested_exact);
  CHECK(s.node_facts(0).allocatable.cpu_milli == 4000);
  CHECK(s.node_facts(0).allocatable.pods == 110);
  CHECK(s.node_facts(1).requested.cpu_milli == 0);
  CHECK(ids(s.nodes_by_name()) == std::vector<std::uint32_t>{1, 0});
}

TEST_CASE("a saturated sum is marked inexact", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(node("saturated"));
  b.add(node("fine"));
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max() / 2 + 1;
  b.add(bound("x", "saturated", huge));
  b.add(bound("y", "saturated", huge));
  b.add(bound("z", "fine", huge));
  const Snapshot s = build(std::move(b));
  CHECK(s.node_facts(0).requested.cpu_milli == std::numeric_limits<std::int64_t>::max());
  CHECK_FALSE(s.node_facts(0).requested_exact);
  CHECK(s.node_facts(1).requested_exact);
}

TEST_CASE("pods with required anti-affinity are listed node by node", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(node("n1"));
  b.add(node("n2"));
  PodAffinityTerm term;
  term.topology_key = "kubernetes.io/hostname";
  Pod on_n2 = bound("a", "n2", 100);
  on_n2.required_pod_anti_affinity.push_back(term);
  Pod on_n1 = bound("b", "n1", 100);
  on_n1.required_pod_anti_affinity.push_back(term);
  Pod pending = bound("c", "", 100);
  pending.phase = "Pending";
  pending.required_pod_anti_affinity.push_back(term);
  b.add(on_n2);
  b.add(bound("plain", "n1", 100));
  b.add(on_n1);
  b.add(pending);
  const Snapshot s = build(std::move(b));
  CHECK(ids(s.pods_with_required_anti_affinity()) == std::vector<std::uint32_t>{2, 0});
}

TEST_CASE("each pod knows the budgets that select it", "[model][snapshot]") {
  SnapshotBuilder b;
  b.add(node("n1"));
  b.add(pdb("ns", "web", {{"app", "web"}}));
  b.add(pdb("other", "web", {{"app", "web"}}));
  b.add(pdb("ns", "empty", {}));  // selects nothing for the scheduler
  PodDisruptionBudget invalid = pdb("ns", "invalid", {{"app", "web"}});
  invalid.selector_valid = false;
  b.add(invalid);
  b.add(pdb("ns", "all-web", {{"app", "web"}}));
  b.add(bound("x", "n1", 100));
  b.add(bound("y", "n1", 100, {{"app", "db"}}));
  b.add(bound("z", "n1", 100, {}));
  const Snapshot s = build(std::move(b));
  CHECK(ids(s.pdbs_of(0)) == std::vector<std::uint32_t>{0, 4});
  CHECK(s.pdbs_of(1).empty());
  CHECK(s.pdbs_of(2).empty());
}
