// SPDX-License-Identifier: Apache-2.0
// Comparing decisions with expectations, and running scenarios in-process.
#include "kpreempt/scenario/runner.h"

#include "kpreempt/policy/args.h"
#include "kpreempt/scenario/scenario.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using kpreempt::Diagnostic;
using kpreempt::policy::Decision;
using kpreempt::policy::Outcome;
using kpreempt::scenario::compare;
using kpreempt::scenario::Expect;
using kpreempt::scenario::Runner;
using kpreempt::scenario::Status;

namespace {

Decision decision(Outcome outcome, std::string node, std::vector<std::string> victims) {
  Decision d;
  d.outcome = outcome;
  d.node = std::move(node);
  for (const auto& v : victims) {
    auto slash = v.find('/');
    d.victims.push_back({{"Pod", v.substr(0, slash), v.substr(slash + 1)},
                         d.node,
                         0,
                         kpreempt::policy::Code::victim,
                         "",
                         ""});
  }
  return d;
}

kpreempt::scenario::Scenario load(const std::string& dir) {
  std::vector<Diagnostic> diags;
  auto found = kpreempt::scenario::discover(KPREEMPT_TESTDATA "/" + dir, diags);
  REQUIRE(diags.empty());
  REQUIRE(found.size() == 1);
  return found[0];
}

}  // namespace

TEST_CASE("a decision meeting every expectation has no problems", "[check]") {
  Expect e{"preempt", "n1", {}, std::vector<std::string>{"Pod/a/x", "Pod/a/y"}, {"Pod/a/z"}, 2};
  CHECK(compare(e, decision(Outcome::preempt, "n1", {"a/y", "a/x"})).empty());
}

TEST_CASE("outcome and victim mismatches are reported in one line each", "[check]") {
  Expect e{"unschedulable", std::nullopt, {}, std::vector<std::string>{}, {}, std::nullopt};
  auto problems = compare(e, decision(Outcome::preempt, "n1", {"b/y", "a/x"}));
  CHECK(problems == std::vector<std::string>{"outcome preempt, expected unschedulable",
                                             "victims [Pod/a/x, Pod/b/y], expected []"});
}

TEST_CASE("node expectations name the node chosen", "[check]") {
  Expect exact{"preempt", "n1", {}, std::nullopt, {}, std::nullopt};
  Expect one_of{"preempt", std::nullopt, {"n2", "n1"}, std::nullopt, {}, std::nullopt};
  CHECK(compare(exact, decision(Outcome::preempt, "n3", {})) ==
        std::vector<std::string>{"node n3, expected n1"});
  CHECK(compare(one_of, decision(Outcome::preempt, "n3", {})) ==
        std::vector<std::string>{"node n3, expected one of [n1, n2]"});
  CHECK(
      compare(exact, decision(Outcome::unschedulable, "", {})) ==
      std::vector<std::string>{"outcome unschedulable, expected preempt", "no node, expected n1"});
}

TEST_CASE("notVictims and maxVictims catch evictions beyond the allowed", "[check]") {
  Expect e{"preempt", std::nullopt, {}, std::nullopt, {"Pod/ml/t0", "Pod/ml/t1"}, 1};
  CHECK(compare(e, decision(Outcome::preempt, "n1", {"ml/t0", "r/nb"})) ==
        std::vector<std::string>{"evicts [Pod/ml/t0], listed in notVictims",
                                 "2 victims [Pod/ml/t0, Pod/r/nb], expected at most 1"});
}

TEST_CASE("expect.cascade failures say the loop and the evictions", "[check]") {
  kpreempt::render::Cascade c;
  c.rounds.resize(3);
  c.evictions = 4;
  c.loop = std::vector<kpreempt::render::CascadeDecision>{
      {"a/x", "default", Outcome::preempt, "n1", {"b/y"}, ""},
      {"b/y", "yunikorn", Outcome::preempt, "n1", {"a/x", "a/z"}, ""}};
  const kpreempt::scenario::CascadeExpect both{3, 3};
  CHECK(kpreempt::scenario::compare_cascade(both, c) ==
        std::vector<std::string>{"loop after round 3: a/x evicts b/y, b/y evicts a/x and a/z",
                                 "cascade: 4 evictions in 3 rounds, expected at most 3"});
  c.loop.reset();
  CHECK(kpreempt::scenario::compare_cascade({3, 4}, c).empty());
  CHECK(kpreempt::scenario::compare_cascade({std::nullopt, 3}, c).size() == 1);
}

TEST_CASE("bare args are qualified with the policy's plugin, the last value wins", "[check]") {
  auto args = kpreempt::policy::args_for("DefaultPreemption",
                                         {{"minCandidateNodesPercentage", "10"},
                                          {"Other.key", "x"},
                                          {"DefaultPreemption.minCandidateNodesPercentage", "20"}});
  CHECK(args.values() ==
        kpreempt::model::StringMap{{"DefaultPreemption.minCandidateNodesPercentage", "20"},
                                   {"Other.key", "x"}});
}

TEST_CASE("the example scenarios pass when run in-process", "[check]") {
  std::vector<Diagnostic> diags;
  auto scenarios = kpreempt::scenario::discover(KPREEMPT_TESTDATA "/check", diags);
  REQUIRE(scenarios.size() == 5);
  Runner runner(kpreempt::model::Instant{0, 0});
  for (const auto& s : scenarios) {
    auto r = runner.run(s, diags);
    INFO(s.name << ": " << (r.problems.empty() ? "" : r.problems[0]));
    CHECK(r.status == Status::passed);
  }
  CHECK(diags.empty());
}

TEST_CASE("a preemptor that is bound to a node makes the scenario an error", "[check]") {
  auto s = load("check/batch-spares-training");
  s.preemptor.namespace_ = "ml";
  s.preemptor.name = "trainer-0";
  std::vector<Diagnostic> diags;
  auto r = Runner(kpreempt::model::Instant{0, 0}).run(s, diags);
  CHECK(r.status == Status::error);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].loc.line == 4);
  CHECK(diags[0].message ==
        "preemptor: Pod ml/trainer-0 is bound to node \"gpu-1\"; a "
        "preemptor is a pending pod (no spec.nodeName); to see what could preempt it: kpreempt "
        "explain --victim ml/trainer-0");
}

TEST_CASE("a scenario naming a pod as a Workload says so", "[check]") {
  auto s = load("check/batch-spares-training");
  s.preemptor.kind = "Workload";
  s.preemptor.namespace_ = "ml";
  s.preemptor.name = "trainer-0";
  std::vector<Diagnostic> diags;
  auto r = Runner(kpreempt::model::Instant{0, 0}).run(s, diags);
  CHECK(r.status == Status::error);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message ==
        "preemptor: no Workload ml/trainer-0 in the cluster files; ml/trainer-0 is a Pod running "
        "on node gpu-1: use kpreempt explain --victim ml/trainer-0");
}

TEST_CASE("args a policy rejects make the scenario an error", "[check]") {
  auto s = load("check/batch-spares-training");
  s.args = {{"minCandidateNodesPercentage", "lots"}};
  std::vector<Diagnostic> diags;
  auto r = Runner(kpreempt::model::Instant{0, 0}).run(s, diags);
  CHECK(r.status == Status::error);
  REQUIRE(r.problems.size() == 1);
  CHECK(r.problems[0].starts_with("args: "));
}
