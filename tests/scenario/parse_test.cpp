// SPDX-License-Identifier: Apache-2.0
// Scenario files: parsing, located errors and discovery.
#include "kpreempt/scenario/scenario.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using kpreempt::Diagnostic;
using kpreempt::format;
using kpreempt::scenario::discover;
using kpreempt::scenario::parse_case_text;

namespace {

// A case file path whose ../cluster.yaml exists, so `cluster: ../cluster.yaml` resolves.
const std::string k_case = KPREEMPT_TESTDATA "/check/example/case.yaml";

std::vector<std::string> messages(const std::vector<Diagnostic>& diags) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags) {
    out.push_back(format(d));
  }
  return out;
}

}  // namespace

TEST_CASE("a case file with every key parses into a scenario", "[check]") {
  std::vector<Diagnostic> diags;
  auto s = parse_case_text(R"(name: renamed
policy: default
cluster: [../cluster.yaml]
preemptor: {kind: Pod, namespace: batch, name: etl-0}
now: "2026-03-10T12:00:00Z"
args: {minCandidateNodesPercentage: 40}
expect:
  outcome: preempt
  nodeOneOf: [gpu-1, gpu-2]
  victims: [Pod/research/notebook-a]
  notVictims: [Pod/ml/trainer-0]
  maxVictims: 2
)",
                           k_case, "example", diags);
  INFO(messages(diags).size());
  REQUIRE(s);
  CHECK(diags.empty());
  CHECK(s->name == "renamed");
  CHECK(s->policy == "default");
  REQUIRE(s->cluster_files.size() == 1);
  CHECK(s->cluster_files[0] == KPREEMPT_TESTDATA "/check/cluster.yaml");
  CHECK(s->preemptor.kind == "Pod");
  CHECK(s->preemptor.namespace_ == "batch");
  CHECK(s->now.has_value());
  REQUIRE(s->args.size() == 1);
  CHECK(s->args[0].second == "40");
  CHECK(s->expect.outcome == "preempt");
  CHECK(s->expect.node_one_of == std::vector<std::string>{"gpu-1", "gpu-2"});
  CHECK(s->expect.victims == std::vector<std::string>{"Pod/research/notebook-a"});
  CHECK(s->expect.not_victims == std::vector<std::string>{"Pod/ml/trainer-0"});
  CHECK(s->expect.max_victims == 2);
}

TEST_CASE("a misspelt key is reported at its 1-based position with a suggestion", "[check]") {
  std::vector<Diagnostic> diags;
  auto s = parse_case_text(
      "policy: default\ncluster: ../cluster.yaml\npreemptor: {name: etl-0}\nexpect:\n"
      "  outcome: preempt\n  notVictim: [Pod/ml/trainer-0]\n",
      k_case, "example", diags);
  CHECK_FALSE(s);
  CHECK(messages(diags) ==
        std::vector<std::string>{k_case + ":6:3: error: unknown key \"expect.notVictim\"; did "
                                          "you mean \"notVictims\"?"});
}

TEST_CASE("a YAML syntax error in a case file is located", "[check]") {
  std::vector<Diagnostic> diags;
  auto s = parse_case_text("policy: default\nexpect: [unclosed\n", k_case, "example", diags);
  CHECK_FALSE(s);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].loc.file == k_case);
  CHECK(diags[0].loc.line >= 2);
  CHECK(diags[0].loc.column >= 1);
}

TEST_CASE("a case file nested past the YAML reader's depth says so, located", "[check]") {
  std::vector<Diagnostic> diags;
  std::string deep = "policy: default\nnote: " + std::string(600, '[') + "\n";
  auto s = parse_case_text(deep, k_case, "example", diags);
  CHECK_FALSE(s);
  auto m = messages(diags);
  REQUIRE(m.size() == 1);
  INFO(m[0]);
  CHECK(m[0].starts_with(k_case + ":"));
  CHECK(m[0].ends_with("error: nesting is too deep"));
}

TEST_CASE("bad values in a case file are errors naming the key", "[check]") {
  std::vector<Diagnostic> diags;
  auto s = parse_case_text(
      "policy: defualt\ncluster: ../cluster.yaml\npreemptor: {kind: Job, name: x}\n"
      "now: yesterday\nexpect:\n  outcome: evicts\n  victims: [trainer-0]\n  maxVictims: -1\n",
      k_case, "example", diags);
  CHECK_FALSE(s);
  auto m = messages(diags);
  REQUIRE(m.size() == 6);
  CHECK(m[0].starts_with(k_case + ":1:9: error: policy: unknown policy \"defualt\"; expected "
                                  "one of default, "));
  CHECK(m[1].starts_with(k_case + ":4:6: error: now: \"yesterday\" is not an RFC 3339 time"));
  CHECK(m[2] == k_case + ":3:19: error: preemptor.kind: expected Pod or Workload, got \"Job\"");
  CHECK(m[3] == k_case +
                    ":6:12: error: expect.outcome: expected fits, preempt or "
                    "unschedulable, got \"evicts\"");
  CHECK(m[4] == k_case +
                    ":7:12: error: expect.victims: expected Kind/namespace/name, got "
                    "\"trainer-0\"");
  CHECK(m[5] == k_case +
                    ":8:15: error: expect.maxVictims: expected a whole number >= 0, got "
                    "\"-1\"");
}

TEST_CASE("expect.cascade parses its counts", "[check]") {
  std::vector<Diagnostic> diags;
  auto s = parse_case_text(
      "policy: default\ncluster: ../cluster.yaml\npreemptor: {name: p}\nexpect:\n"
      "  outcome: preempt\n  cascade: {noLoopWithin: 10, maxEvictions: 3}\n",
      k_case, "example", diags);
  INFO(messages(diags).size());
  REQUIRE(s);
  REQUIRE(s->expect.cascade);
  CHECK(s->expect.cascade->no_loop_within == 10);
  CHECK(s->expect.cascade->max_evictions == 3);
}

TEST_CASE("bad expect.cascade values are errors at their line", "[check]") {
  std::vector<Diagnostic> diags;
  auto s = parse_case_text(
      "policy: default\ncluster: ../cluster.yaml\npreemptor: {name: p}\nexpect:\n"
      "  outcome: preempt\n  cascade:\n    noLoopWithin: 0\n    maxEvictions: many\n"
      "    maxEviction: 2\n",
      k_case, "example", diags);
  CHECK_FALSE(s);
  auto m = messages(diags);
  REQUIRE(m.size() == 3);
  CHECK(m[0] == k_case +
                    ":9:5: error: unknown key \"expect.cascade.maxEviction\"; did you mean "
                    "\"maxEvictions\"?");
  CHECK(m[1] == k_case +
                    ":7:19: error: expect.cascade.noLoopWithin: expected a number of rounds >= "
                    "1, got 0");
  CHECK(m[2] == k_case +
                    ":8:19: error: expect.cascade.maxEvictions: expected a whole number >= 0, "
                    "got \"many\"");
  diags.clear();
  CHECK_FALSE(
      parse_case_text("policy: default\ncluster: ../cluster.yaml\npreemptor: {name: "
                      "p}\nexpect:\n  outcome: fits\n  cascade: {}\n",
                      k_case, "example", diags));
  REQUIRE(diags.size() == 1);
  CHECK(format(diags[0]) ==
        k_case + ":6:12: error: expect.cascade: give noLoopWithin, maxEvictions or both");
}

TEST_CASE("a case without a cluster next to it or a cluster key is an error", "[check]") {
  std::vector<Diagnostic> diags;
  auto s = parse_case_text("policy: default\npreemptor: {name: p}\nexpect: {outcome: fits}\n",
                           KPREEMPT_TESTDATA "/check/nowhere/case.yaml", "nowhere", diags);
  CHECK_FALSE(s);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message ==
        "no cluster.yaml next to the case file and no cluster key naming the dump");
}

TEST_CASE("a preemptor is either a podFile or a named object", "[check]") {
  std::vector<Diagnostic> diags;
  auto s = parse_case_text(
      "policy: default\ncluster: ../cluster.yaml\n"
      "preemptor: {podFile: ../what-if-batch-burst/burst.yaml, name: x}\nexpect: {outcome: fits}\n",
      k_case, "example", diags);
  CHECK_FALSE(s);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message == "preemptor: give either podFile or kind, namespace and name");
}

TEST_CASE("discovery finds case folders recursively and names them by relative path", "[check]") {
  std::vector<Diagnostic> diags;
  auto found = discover(KPREEMPT_TESTDATA "/check", diags);
  CHECK(diags.empty());
  std::vector<std::string> names;
  for (const auto& s : found) {
    names.push_back(s.name);
  }
  CHECK(names == std::vector<std::string>{"batch-spares-training", "prod-after-training-hour",
                                          "prod-cascade-settles", "prod-respects-training-hour",
                                          "what-if-batch-burst"});
}

TEST_CASE("discovery of a single case file or case folder names it after the folder", "[check]") {
  std::vector<Diagnostic> diags;
  auto by_file = discover(KPREEMPT_TESTDATA "/check/batch-spares-training/case.yaml", diags);
  auto by_dir = discover(KPREEMPT_TESTDATA "/check/batch-spares-training/", diags);
  CHECK(diags.empty());
  REQUIRE(by_file.size() == 1);
  REQUIRE(by_dir.size() == 1);
  CHECK(by_file[0].name == "batch-spares-training");
  CHECK(by_dir[0].name == "batch-spares-training");
}

TEST_CASE("discovery reports a missing path and a folder without cases", "[check]") {
  std::vector<Diagnostic> diags;
  CHECK(discover(KPREEMPT_TESTDATA "/check/missing", diags).empty());
  CHECK(discover(KPREEMPT_TESTDATA "/matrix", diags).empty());
  CHECK(messages(diags) ==
        std::vector<std::string>{KPREEMPT_TESTDATA "/check/missing: error: no such file or folder",
                                 KPREEMPT_TESTDATA "/matrix: error: no case.yaml in this folder or "
                                                   "below"});
}
