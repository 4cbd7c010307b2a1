// SPDX-License-Identifier: Apache-2.0
// Conformance cases of the default policy (taken from upstream default_preemption_test.go)
// rebuilt with the builders, so a failure points at one behaviour rather than at a dump.
#include "support/builders.h"
#include "support/reasons.h"

#include "kpreempt/policy/default.h"

#include <catch2/catch.hpp>

#include <array>

namespace kpreempt::testing {
namespace {

using policy::Outcome;
using Names = std::vector<std::string>;

constexpr const char* k_started = "2025-11-30T12:00:00Z";

// Upstream's test node: 500m cpu, 500Mi memory, 32 pods.
NodeBuilder test_node(std::string name) {
  return std::move(node(std::move(name)).cpu("500m").memory("500Mi").pods(32));
}

PodBuilder resident(std::string_view name, std::string node_name, std::int32_t prio,
                    std::string_view cpu, std::string_view memory,
                    const char* started = k_started) {
  return std::move(
      pod(name).on(std::move(node_name)).priority(prio).cpu(cpu).memory(memory).started(started));
}

model::LabelSelector has_key(std::string key) {
  model::LabelSelector s;
  s.present = true;
  s.match_expressions.push_back(model::Requirement{std::move(key), "Exists", {}});
  return s;
}

TEST_CASE("conformance dryrun-mixed-priority-victims: only the small mid pod is reprieved",
          "[policy][default][conformance]") {
  const auto d = Cluster{}
                     .add(test_node("node1"))
                     .add(test_node("node2"))
                     .add(resident("default/p1.1", "node1", 100, "100m", "100Mi"))
                     .add(resident("default/p1.2", "node1", 0, "100m", "100Mi"))
                     .add(resident("default/p1.3", "node1", 100, "200m", "200Mi"))
                     .add(resident("default/p1.4", "node1", 1000, "100m", "100Mi"))
                     .add(resident("default/p2", "node2", 1000, "300m", "300Mi"))
                     .add(pod("default/p").priority(1000).cpu("300m").memory("300Mi"))
                     .decide(policy::decide_default, "default/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.node == "node1");
  CHECK(victim_names(d) == Names{"default/p1.3", "default/p1.2"});
  CHECK(pod_code(d, "node1", "default/p1.1") == "reprieved");
  CHECK(pod_code(d, "node1", "default/p1.4") == "higher-or-equal-priority");
  CHECK(node_verdict(d, "node2")->code == policy::Code::no_victims);
}

TEST_CASE("conformance dryrun-small-low-priority-pod-reprieved: reprieve most important first",
          "[policy][default][conformance]") {
  const auto d =
      Cluster{}
          .add(test_node("node1"))
          .add(test_node("node2"))
          .add(resident("default/p1.1", "node1", 0, "100m", "100Mi", "2025-12-01T08:00:00Z"))
          .add(resident("default/p1.2", "node1", 100, "300m", "300Mi", "2025-12-01T09:00:00Z"))
          .add(resident("default/p2", "node2", 100, "300m", "300Mi", "2025-12-01T08:00:00Z"))
          .add(pod("default/p").priority(1000).cpu("300m").memory("300Mi"))
          .decide(policy::decide_default, "default/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.node == "node1");
  CHECK(victim_names(d) == Names{"default/p1.2"});
  CHECK(node_verdict(d, "node2")->code == policy::lost_on(policy::Criterion::start_time));
}

TEST_CASE("conformance select-min-sum-of-priorities", "[policy][default][conformance]") {
  const char* t = "2025-12-01T00:00:00Z";
  const auto d = Cluster{}
                     .add(test_node("node1"))
                     .add(test_node("node2"))
                     .add(test_node("node3"))
                     .add(resident("default/p1.1", "node1", 100, "200m", "200Mi", t))
                     .add(resident("default/p1.2", "node1", 100, "300m", "300Mi", t))
                     .add(resident("default/p2.1", "node2", 100, "300m", "300Mi", t))
                     .add(resident("default/p2.2", "node2", 0, "200m", "200Mi", t))
                     .add(resident("default/p3.1", "node3", 100, "200m", "200Mi", t))
                     .add(resident("default/p3.2", "node3", 100, "200m", "200Mi", t))
                     .add(pod("default/p").priority(1000).cpu("500m").memory("500Mi"))
                     .decide(policy::decide_default, "default/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.node == "node2");
  CHECK(victim_names(d) == Names{"default/p2.1", "default/p2.2"});
  CHECK(node_verdict(d, "node1")->code == policy::lost_on(policy::Criterion::sum_priorities));
  CHECK(node_verdict(d, "node3")->code == policy::lost_on(policy::Criterion::sum_priorities));
}

TEST_CASE("conformance select-latest-start-time-per-node", "[policy][default][conformance]") {
  Cluster c;
  const std::array<const char*, 3> starts{"2025-12-01T00:02:00Z", "2025-12-01T00:03:00Z",
                                          "2025-12-01T00:01:00Z"};
  for (int n = 1; n <= 3; ++n) {
    const std::string name = "node" + std::to_string(n);
    c.add(test_node(name));
    for (int i = 1; i <= 2; ++i) {
      c.add(resident("default/p" + std::to_string(n) + "." + std::to_string(i), name, 100, "200m",
                     "200Mi", starts[n - 1]));
    }
  }
  c.add(pod("default/p").priority(1000).cpu("500m").memory("500Mi"));
  const auto d = c.decide(policy::decide_default, "default/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.node == "node2");
  CHECK(victim_names(d) == Names{"default/p2.1", "default/p2.2"});
  CHECK(node_verdict(d, "node1")->code == policy::lost_on(policy::Criterion::start_time));
}

TEST_CASE("conformance dryrun-existing-anti-affinity-victim", "[policy][default][conformance]") {
  const auto d =
      Cluster{}
          .add(test_node("node1"))
          .add(test_node("node2"))
          .add(resident("default/p1.1", "node1", 0, "100m", "100Mi")
                   .label("foo", "")
                   .anti_affinity(term(has_key("foo"), "kubernetes.io/hostname")))
          .add(resident("default/p1.2", "node1", 100, "100m", "100Mi"))
          .add(resident("default/p1.3", "node1", 1000, "100m", "100Mi"))
          .add(resident("default/p2", "node2", 1000, "500m", "500Mi"))
          .add(pod("default/p").priority(1000).cpu("100m").memory("100Mi").label("foo", ""))
          .decide(policy::decide_default, "default/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.node == "node1");
  CHECK(victim_names(d) == Names{"default/p1.1"});
  CHECK(pod_code(d, "node1", "default/p1.2") == "reprieved");
}

TEST_CASE("conformance postfilter-mixed-reasons-no-candidate", "[policy][default][conformance]") {
  const auto d = Cluster{}
                     .add(node("node1").cpu("2").memory("4Gi").pods(1))
                     .add(node("node2").cpu("200m").memory("400Mi").pods(32))
                     .add(node("node3").cpu("2").memory("4Gi").pods(1))
                     .add(pod("default/p1").on("node1").priority(1000).started(k_started))
                     .add(pod("default/p2").on("node2").priority(0).started(k_started))
                     .add(pod("default/p3").on("node3").priority(1000).started(k_started))
                     .add(pod("default/p").priority(1000).cpu("300m").memory("300Mi"))
                     .decide(policy::decide_default, "default/p");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(d.victims.empty());
  CHECK(has_reason(d, "no-candidates"));
  CHECK(node_verdict(d, "node1")->code == policy::Code::no_victims);
  CHECK(node_verdict(d, "node2")->code ==
        policy::Reason(policy::Code::node_unresolvable, "NodeResourcesFit"));
  CHECK(node_verdict(d, "node3")->code == policy::Code::no_victims);
}

TEST_CASE("conformance dryrun-topology-spread-two-candidates", "[policy][default][conformance]") {
  auto constraint = [](std::string key) {
    model::TopologySpreadConstraint c;
    c.max_skew = 1;
    c.topology_key = std::move(key);
    c.when_unsatisfiable = "DoNotSchedule";
    c.label_selector = has_key("foo");
    return c;
  };
  const std::string zone = "topology.kubernetes.io/zone";
  const auto d = Cluster{}
                     .add(test_node("node-a").label(zone, "zone1"))
                     .add(test_node("node-b").label(zone, "zone1"))
                     .add(test_node("node-x").label(zone, "zone2"))
                     .add(pod("default/pod-a1").on("node-a").priority(100).label("foo", ""))
                     .add(pod("default/pod-a2").on("node-a").priority(0).label("foo", ""))
                     .add(pod("default/pod-b1").on("node-b").priority(0).label("foo", ""))
                     .add(pod("default/pod-x1").on("node-x").priority(1000).label("foo", ""))
                     .add(pod("default/pod-x2").on("node-x").priority(1000).label("foo", ""))
                     .add(pod("default/p")
                              .priority(1000)
                              .label("foo", "")
                              .spread(constraint(zone))
                              .spread(constraint("kubernetes.io/hostname")))
                     .decide(policy::decide_default, "default/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.tied_nodes == Names{"node-a", "node-b"});
  CHECK(d.node == "node-a");
  CHECK(victim_names(d) == Names{"default/pod-a2"});
  CHECK(pod_code(d, "node-a", "default/pod-a1") == "reprieved");
  CHECK(node_verdict(d, "node-x")->code == policy::Code::no_victims);
}

}  // namespace
}  // namespace kpreempt::testing
