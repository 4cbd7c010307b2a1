// SPDX-License-Identifier: Apache-2.0
// The default policy end to end: fits, eligibility, nominated pods, the dry run (reprieve and
// PDBs), node choice and args.
#include "kpreempt/policy/default.h"

#include "support/builders.h"
#include "support/reasons.h"

#include "kpreempt/diag.h"

#include <catch2/catch.hpp>

namespace kpreempt::testing {
namespace {

using policy::Outcome;
using Names = std::vector<std::string>;

// Two 1-cpu nodes each holding one 1-cpu low-priority pod, and a 1-cpu preemptor.
Cluster two_full_nodes() {
  Cluster c;
  c.add(node("n1").cpu("1")).add(node("n2").cpu("1"));
  c.add(pod("ns/a").on("n1").priority(10).cpu("1").started("2025-12-01T00:00:00Z"));
  c.add(pod("ns/b").on("n2").priority(10).cpu("1").started("2025-12-01T00:00:00Z"));
  c.add(pod("ns/p").priority(100).cpu("1"));
  return c;
}

TEST_CASE("a pod that passes the filters somewhere fits without preemption", "[policy][default]") {
  Cluster c = two_full_nodes();
  c.add(node("n3").cpu("2"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  CHECK(d.outcome == Outcome::fits);
  CHECK(d.node.empty());
  CHECK(d.victims.empty());
  CHECK(has_reason(d, "fits"));
  CHECK(node_verdict(d, "n3")->code == policy::Code::passes_filters);
  CHECK(d.policy == "default");
}

TEST_CASE("only the lower-priority pod is evicted and the higher one stays", "[policy][default]") {
  const auto c = Cluster{}
                     .add(node("n1").cpu("4"))
                     .add(pod("ns/low").on("n1").priority(10).cpu("2"))
                     .add(pod("ns/mid").on("n1").priority(500).cpu("2"))
                     .add(pod("ns/new").priority(100).cpu("2"));
  const auto d = c.decide(policy::decide_default, "ns/new");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.node == "n1");
  CHECK(victim_names(d) == Names{"ns/low"});
  CHECK(d.victims[0].reason == policy::Code::victim);
  CHECK(pod_code(d, "n1", "ns/mid") == "higher-or-equal-priority");
  CHECK(pod_code(d, "n1", "ns/low") == "victim");
  CHECK(reason_texts(d).front() == "preempt");
}

TEST_CASE("equal priority is never preemptible", "[policy][default]") {
  const auto c = Cluster{}
                     .add(node("n1").cpu("1"))
                     .add(pod("ns/a").on("n1").priority(100).cpu("1"))
                     .add(pod("ns/p").priority(100).cpu("1"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(has_reason(d, "no-candidates"));
  CHECK(node_verdict(d, "n1")->code == policy::Code::no_victims);
}

TEST_CASE("filters that removing pods cannot fix make the node unresolvable", "[policy][default]") {
  Cluster c;
  c.add(node("taint").cpu("1").taint("gpu", "true"));
  c.add(node("cordoned").cpu("1").unschedulable());
  c.add(node("labels").cpu("1").label("zone", "b"));
  c.add(node("small").cpu("500m"));
  for (const char* n : {"taint", "cordoned", "labels", "small"}) {
    c.add(pod(std::string("ns/x-") + n).on(n).priority(0).cpu("500m"));
  }
  c.add(pod("ns/p").priority(100).cpu("1").node_selector("zone", "a"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(node_verdict(d, "taint")->code ==
        policy::Reason(policy::Code::node_unresolvable, "TaintToleration"));
  CHECK(node_verdict(d, "taint")->detail == "node(s) had untolerated taint {gpu: true}");
  CHECK(node_verdict(d, "cordoned")->code ==
        policy::Reason(policy::Code::node_unresolvable, "NodeUnschedulable"));
  CHECK(node_verdict(d, "labels")->code ==
        policy::Reason(policy::Code::node_unresolvable, "NodeAffinity"));
  CHECK(node_verdict(d, "small")->code ==
        policy::Reason(policy::Code::node_unresolvable, "NodeAffinity"));
}

TEST_CASE("a request above allocatable is unresolvable (v1.34)", "[policy][default]") {
  const auto c = Cluster{}
                     .add(node("n1").cpu("200m"))
                     .add(pod("ns/a").on("n1").priority(0).cpu("100m"))
                     .add(pod("ns/p").priority(100).cpu("300m"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(node_verdict(d, "n1")->code ==
        policy::Reason(policy::Code::node_unresolvable, "NodeResourcesFit"));
  CHECK(node_verdict(d, "n1")->detail == "Insufficient cpu");
}

TEST_CASE("a full pod count is resolved by evicting a pod", "[policy][default]") {
  const auto c = Cluster{}
                     .add(node("n1").pods(1))
                     .add(pod("ns/a").on("n1").priority(0))
                     .add(pod("ns/p").priority(100));
  const auto d = c.decide(policy::decide_default, "ns/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(victim_names(d) == Names{"ns/a"});
  CHECK(node_verdict(d, "n1")->code == policy::Code::candidate);
}

TEST_CASE("a used host port is freed by preemption", "[policy][default]") {
  const auto c = Cluster{}
                     .add(node("n1").cpu("4"))
                     .add(pod("ns/web").on("n1").priority(0).host_port(80))
                     .add(pod("ns/other").on("n1").priority(0).host_port(81))
                     .add(pod("ns/p").priority(100).host_port(80, "TCP", "10.0.0.1"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(victim_names(d) == Names{"ns/web"});
  CHECK(pod_code(d, "n1", "ns/other") == "reprieved");
}

TEST_CASE("preemptionPolicy Never makes the pod ineligible", "[policy][default]") {
  Cluster c = two_full_nodes();
  c.add(pod("ns/never").priority(100).cpu("1").preemption_policy("Never"));
  const auto d = c.decide(policy::decide_default, "ns/never");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(reason_texts(d) == Names{"preemption-policy-never"});
  CHECK(d.victims.empty());
}

TEST_CASE("a victim terminating by preemption on the nominated node blocks a new preemption",
          "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("1")).add(node("n2").cpu("1"));
  c.add(pod("ns/dying").on("n1").priority(10).cpu("1").preempted_by_scheduler());
  c.add(pod("ns/b").on("n2").priority(10).cpu("1"));
  c.add(pod("ns/p").priority(100).cpu("1").nominated("n1"));
  SECTION("DisruptionTarget=True/PreemptionByScheduler blocks") {
    const auto d = c.decide(policy::decide_default, "ns/p");
    CHECK(d.outcome == Outcome::unschedulable);
    CHECK(reason_texts(d) == Names{"waiting-for-victims:n1"});
  }
  SECTION("a pod terminating for another reason does not block") {
    Cluster c2;
    c2.add(node("n1").cpu("1"));
    c2.add(pod("ns/dying").on("n1").priority(10).cpu("1").terminating());
    c2.add(pod("ns/p").priority(100).cpu("1").nominated("n1"));
    const auto d = c2.decide(policy::decide_default, "ns/p");
    REQUIRE(d.outcome == Outcome::preempt);
    CHECK(d.victims[0].reason == policy::Code::already_terminating);
    SECTION("unless the variant blocks on any terminating pod") {
      policy::Variant v;
      v.any_terminating_blocks = true;
      const policy::Args args;
      const policy::Input in{c2.snapshot(), c2.pod_id("ns/p"), at("2026-01-01T00:00:00Z"), args};
      CHECK(reason_texts(policy::run_default_preemption(in, v)) == Names{"waiting-for-victims:n1"});
    }
  }
}

TEST_CASE("a nominated node that is unresolvable does not block preemption", "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("1").taint("k", "v")).add(node("n2").cpu("1"));
  c.add(pod("ns/dying").on("n1").priority(10).cpu("1").preempted_by_scheduler());
  c.add(pod("ns/b").on("n2").priority(10).cpu("1"));
  c.add(pod("ns/p").priority(100).cpu("1").nominated("n1"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.node == "n2");
}

TEST_CASE("higher-priority nominated pods occupy their node; lower ones are invisible",
          "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("2")).add(node("n2").cpu("2"));
  c.add(pod("ns/a").on("n1").priority(10).cpu("1"));
  c.add(pod("ns/b").on("n2").priority(10).cpu("1"));
  c.add(pod("ns/big").priority(200).cpu("1").nominated("n1"));
  c.add(pod("ns/small").priority(50).cpu("1").nominated("n2"));
  c.add(pod("ns/p").priority(100).cpu("1"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  // n2's nominated pod has lower priority, so n2 simply fits.
  CHECK(d.outcome == Outcome::fits);
  CHECK(node_verdict(d, "n1")->code ==
        policy::Reason(policy::Code::unschedulable, "NodeResourcesFit"));
  CHECK(pod_code(d, "n1", "ns/big") == "nominated-counted");
  CHECK(node_verdict(d, "n2")->code == policy::Code::passes_filters);
}

TEST_CASE("the winner's lower-priority nominations are cleared", "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("1"));
  c.add(pod("ns/a").on("n1").priority(10).cpu("1"));
  c.add(pod("ns/waiting").priority(50).cpu("1").nominated("n1"));
  c.add(pod("ns/p").priority(100).cpu("1"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(pod_code(d, "n1", "ns/waiting") == "nomination-cleared");
}

TEST_CASE("reprieve goes most important first and keeps what still fits", "[policy][default]") {
  const auto c =
      Cluster{}
          .add(node("n1").cpu("3"))
          .add(pod("ns/big-old").on("n1").priority(10).cpu("2").started("2025-12-01T00:00:00Z"))
          .add(pod("ns/small-new").on("n1").priority(10).cpu("1").started("2025-12-02T00:00:00Z"))
          .add(pod("ns/mid").on("n1").priority(20).cpu("1"))
          .add(pod("ns/p").priority(100).cpu("2"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  REQUIRE(d.outcome == Outcome::preempt);
  // mid (most important) goes back first, then big-old does not fit, small-new does not either.
  CHECK(pod_code(d, "n1", "ns/mid") == "reprieved");
  CHECK(victim_names(d) == Names{"ns/big-old", "ns/small-new"});
}

TEST_CASE("pods without a start time compare as starting now", "[policy][default]") {
  const auto c =
      Cluster{}
          .add(node("n1").cpu("2"))
          .add(pod("ns/unknown").on("n1").priority(10).cpu("1"))
          .add(pod("ns/old").on("n1").priority(10).cpu("1").started("2025-12-31T00:00:00Z"))
          .add(pod("ns/p").priority(100).cpu("1"));
  // Only one has to go: the more important (earlier) one is reprieved first.
  SECTION("a start before now is more important") {
    const auto d = c.decide(policy::decide_default, "ns/p");
    CHECK(victim_names(d) == Names{"ns/unknown"});
  }
  SECTION("a start after now is less important") {
    const auto d = c.decide(policy::decide_default, "ns/p", "2025-12-30T00:00:00Z");
    CHECK(victim_names(d) == Names{"ns/old"});
  }
}

TEST_CASE("PDB budgets are consumed in importance order and violations still evict",
          "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("2"));
  c.add(
      pod("ns/a").on("n1").priority(10).cpu("1").label("app", "x").started("2025-12-01T00:00:00Z"));
  c.add(
      pod("ns/b").on("n1").priority(10).cpu("1").label("app", "x").started("2025-12-02T00:00:00Z"));
  c.add(pdb("ns/budget").match_label("app", "x").allowed(1));
  c.add(pod("ns/p").priority(100).cpu("2"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  REQUIRE(d.outcome == Outcome::preempt);
  // a used the budget, b violates; the violating group is reprieved first, then re-sorted.
  CHECK(victim_names(d) == Names{"ns/a", "ns/b"});
  CHECK(d.victims[1].reason == policy::Reason(policy::Code::pdb_violation, "ns/budget"));
  CHECK(pod_code(d, "n1", "ns/a") == "pdb-within-budget:ns/budget");
  REQUIRE(node_verdict(d, "n1")->rank);
  CHECK(node_verdict(d, "n1")->rank->pdb_violations == 1);
}

TEST_CASE("empty PDB selectors, unlabelled pods and disrupted pods do not consume budget",
          "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("3"));
  c.add(pod("ns/bare").on("n1").priority(10).cpu("1"));
  c.add(pod("ns/gone").on("n1").priority(10).cpu("1").label("app", "x"));
  c.add(pod("ns/y").on("n1").priority(10).cpu("1").label("app", "y"));
  c.add(pdb("ns/all").selector(selector({})).allowed(0));
  c.add(pdb("ns/x").match_label("app", "x").allowed(0).disrupted("gone"));
  c.add(pod("ns/p").priority(100).cpu("3"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(node_verdict(d, "n1")->rank->pdb_violations == 0);
  CHECK(pod_code(d, "n1", "ns/gone") == "pdb-disrupted-pod:ns/x");
  CHECK(pod_code(d, "n1", "ns/bare") == "victim");
}

TEST_CASE("a node without PDB violations beats one with fewer victims", "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("1")).add(node("n2").cpu("1"));
  c.add(pod("ns/guarded").on("n1").priority(0).cpu("1").label("app", "g"));
  c.add(pod("ns/b1").on("n2").priority(0).cpu("500m"));
  c.add(pod("ns/b2").on("n2").priority(0).cpu("500m"));
  c.add(pdb("ns/g").match_label("app", "g").allowed(0));
  c.add(pod("ns/p").priority(100).cpu("1"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  CHECK(d.node == "n2");
  CHECK(node_verdict(d, "n1")->code == policy::lost_on(policy::Criterion::pdb_violations));
}

TEST_CASE("candidates are ranked criterion by criterion", "[policy][default]") {
  Cluster c;
  for (const char* n : {"n1", "n2", "n3", "n4"}) {
    c.add(node(n).cpu("1"));
  }
  // n1: highest victim priority 50; n2: two victims of 10 (larger sum); n3: one victim of 10
  // started early; n4: one victim of 10 started late (wins on start time).
  c.add(pod("ns/a").on("n1").priority(50).cpu("1").started("2025-12-01T00:00:00Z"));
  c.add(pod("ns/b1").on("n2").priority(10).cpu("500m").started("2025-12-01T00:00:00Z"));
  c.add(pod("ns/b2").on("n2").priority(10).cpu("500m").started("2025-12-01T00:00:00Z"));
  c.add(pod("ns/c").on("n3").priority(10).cpu("1").started("2025-12-01T00:00:00Z"));
  c.add(pod("ns/d").on("n4").priority(10).cpu("1").started("2025-12-05T00:00:00Z"));
  c.add(pod("ns/p").priority(100).cpu("1"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.node == "n4");
  CHECK(node_verdict(d, "n1")->code == policy::lost_on(policy::Criterion::highest_victim_priority));
  CHECK(node_verdict(d, "n2")->code == policy::lost_on(policy::Criterion::sum_priorities));
  CHECK(node_verdict(d, "n3")->code == policy::lost_on(policy::Criterion::start_time));
  CHECK(node_verdict(d, "n4")->code == policy::Code::candidate);
  CHECK(d.tied_nodes.empty());
}

TEST_CASE("negative priorities use the adjusted sum, so fewer victims still win",
          "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("1")).add(node("n2").cpu("1"));
  c.add(pod("ns/a1").on("n1").priority(-100).cpu("500m"));
  c.add(pod("ns/a2").on("n1").priority(-100).cpu("500m"));
  c.add(pod("ns/b").on("n2").priority(-100).cpu("1"));
  c.add(pod("ns/p").priority(100).cpu("1"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  CHECK(d.node == "n2");
  CHECK(node_verdict(d, "n1")->code == policy::lost_on(policy::Criterion::sum_priorities));
}

TEST_CASE("fully tied candidates are all reported and the first name wins", "[policy][default]") {
  const auto d = two_full_nodes().decide(policy::decide_default, "ns/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.node == "n1");
  CHECK(d.tied_nodes == Names{"n1", "n2"});
  CHECK(has_reason(d, "tie:n1,n2"));
  CHECK(node_verdict(d, "n2")->code == policy::Code::tied);
  CHECK(victim_names(d) == Names{"ns/a"});
}

TEST_CASE("preempting a pod the preemptor has affinity to leaves the node unschedulable",
          "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("1"));
  c.add(pod("ns/db").on("n1").priority(10).cpu("1").label("app", "db"));
  c.add(pod("ns/p").priority(100).cpu("1").affinity(
      term(selector({{"app", "db"}}), "kubernetes.io/hostname")));
  const auto d = c.decide(policy::decide_default, "ns/p");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(node_verdict(d, "n1")->code ==
        policy::Reason(policy::Code::still_unschedulable, "InterPodAffinity"));
}

TEST_CASE("an existing pod's anti-affinity is resolved by evicting it", "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("4"));
  c.add(pod("ns/loner")
            .on("n1")
            .priority(10)
            .anti_affinity(term(selector({{"app", "p"}}), "kubernetes.io/hostname")));
  c.add(pod("ns/other").on("n1").priority(10));
  c.add(pod("ns/p").priority(100).label("app", "p"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(victim_names(d) == Names{"ns/loner"});
  CHECK(pod_code(d, "n1", "ns/other") == "reprieved");
}

TEST_CASE("a namespaceSelector we cannot evaluate selects nothing and is warned about",
          "[policy][default]") {
  Cluster c;
  c.add(node("n1").cpu("4"));
  auto t = term(selector({{"app", "p"}}), "kubernetes.io/hostname");
  t.namespace_selector = selector({{"team", "a"}});
  c.add(pod("other/loner").on("n1").priority(10).anti_affinity(t));
  c.add(pod("ns/p").priority(100).label("app", "p"));
  const auto d = c.decide(policy::decide_default, "ns/p");
  CHECK(d.outcome == Outcome::fits);
  CHECK(d.warnings.size() == 1);
}

TEST_CASE("topology spread counts domains and removing a matching pod helps", "[policy][default]") {
  model::TopologySpreadConstraint spread;
  spread.max_skew = 1;
  spread.topology_key = "zone";
  spread.when_unsatisfiable = "DoNotSchedule";
  spread.label_selector = selector({{"app", "web"}});
  Cluster c;
  c.add(node("a").cpu("4").label("zone", "a")).add(node("b").cpu("4").label("zone", "b"));
  c.add(node("nolabel").cpu("4"));
  c.add(pod("ns/w1").on("a").priority(10).label("app", "web"));
  c.add(pod("ns/w2").on("b").priority(10).label("app", "web"));
  c.add(pod("ns/w3").on("b").priority(10).label("app", "web"));
  c.add(pod("ns/w0").pending().priority(10).label("app", "web").nominated("a"));
  c.add(pod("ns/p").priority(100).label("app", "web").spread(spread));
  const auto d = c.decide(policy::decide_default, "ns/p");
  // Zone a holds 1 (the nominated w0 has lower priority and is ignored): skew 1+1-1 = 1 fits.
  CHECK(d.outcome == Outcome::fits);
  CHECK(node_verdict(d, "a")->code == policy::Code::passes_filters);
  CHECK(node_verdict(d, "b")->code ==
        policy::Reason(policy::Code::unschedulable, "PodTopologySpread"));
  CHECK(node_verdict(d, "nolabel")->code ==
        policy::Reason(policy::Code::node_unresolvable, "PodTopologySpread"));
}

TEST_CASE("DefaultPreemption args are validated and read from --set over the config",
          "[policy][default]") {
  const Cluster c = two_full_nodes();
  using M = model::StringMap;
  CHECK_THROWS_AS(c.decide(policy::decide_default, "ns/p", "2026-01-01T00:00:00Z",
                           M{{"DefaultPreemption.minCandidateNodesPercentage", "101"}}),
                  UsageError);
  CHECK_THROWS_AS(c.decide(policy::decide_default, "ns/p", "2026-01-01T00:00:00Z",
                           M{{"DefaultPreemption.minCandidateNodesAbsolute", "-1"}}),
                  UsageError);
  CHECK_THROWS_AS(c.decide(policy::decide_default, "ns/p", "2026-01-01T00:00:00Z",
                           M{{"DefaultPreemption.minCandidateNodesAbsolute", "0"},
                             {"DefaultPreemption.minCandidateNodesPercentage", "0"}}),
                  UsageError);
  Cluster bad = two_full_nodes();
  bad.config("DefaultPreemption.minCandidateNodesPercentage", "200");
  CHECK_THROWS_AS(bad.decide(policy::decide_default, "ns/p"), UsageError);
  // --set wins over the configuration.
  CHECK_NOTHROW(bad.decide(policy::decide_default, "ns/p", "2026-01-01T00:00:00Z",
                           M{{"DefaultPreemption.minCandidateNodesPercentage", "50"}}));
}

TEST_CASE("more potential nodes than upstream's window is reported", "[policy][default]") {
  const Cluster c = two_full_nodes();
  using M = model::StringMap;
  CHECK_FALSE(has_reason(c.decide(policy::decide_default, "ns/p"), "upstream-window"));
  const auto d = c.decide(policy::decide_default, "ns/p", "2026-01-01T00:00:00Z",
                          M{{"DefaultPreemption.minCandidateNodesAbsolute", "1"},
                            {"DefaultPreemption.minCandidateNodesPercentage", "10"}});
  CHECK(has_reason(d, "upstream-window"));
  CHECK(d.node == "n1");
}

TEST_CASE("the decision is the same on every run", "[policy][default]") {
  const Cluster c = two_full_nodes();
  const auto a = c.decide(policy::decide_default, "ns/p");
  const auto b = c.decide(policy::decide_default, "ns/p");
  CHECK(a.summary == b.summary);
  CHECK(victim_names(a) == victim_names(b));
  CHECK(a.reasons == b.reasons);
}

}  // namespace
}  // namespace kpreempt::testing
