// SPDX-License-Identifier: Apache-2.0
// One way in and one --set parser: every command reads its inputs the same way, and a policy
// argument no selected policy reads is a usage error.
#include "support/run.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace {

using kpreempt::test::Run;
using kpreempt::test::run_cli;

const std::string k_demo = KPREEMPT_TESTDATA "/demo/cluster.yaml";

Run explain(std::vector<std::string> more) {
  std::vector<std::string> args{"explain", "--no-cache",   "-f",    k_demo,
                                "--pod",   "ml/trainer-0", "--now", "2026-11-24T12:00:00Z"};
  args.insert(args.end(), more.begin(), more.end());
  return run_cli(args);
}

}  // namespace

TEST_CASE("a misspelt --set key is a usage error that suggests the right one", "[cli][args]") {
  Run r = explain({"--set", "DefaultPreemption.minCandidateNodesPercentag=20"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "kpreempt: error: --set: unknown key \"DefaultPreemption.minCandidateNodesPercentag\" "
        "for policies default, toleration, capacity, koordinator, kueue, yunikorn; did you mean "
        "DefaultPreemption.minCandidateNodesPercentage?\n");
}

TEST_CASE("a --set key only another policy reads is refused for the policy named", "[cli][args]") {
  Run r = explain({"--policy", "kueue", "--set", "minCandidateNodesPercentage=20"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "kpreempt: error: --set: unknown key \"minCandidateNodesPercentage\" for policy kueue\n");
}

TEST_CASE("a bare --set key belongs to each selected policy's own plugin", "[cli][args]") {
  CHECK(explain({"--policy", "default", "--set", "minCandidateNodesPercentage=20"}).code == 0);
  CHECK(explain({"--policy", "toleration", "--set", "minCandidateNodesAbsolute=5"}).code == 0);
  CHECK(explain({"--policy", "koordinator", "--set", "ElasticQuota.defaultQuotaGroupMax.cpu=4"})
            .code == 0);
  Run bad = explain({"--policy", "default", "--set", "minCandidateNodesPercentage=lots"});
  CHECK(bad.code == 2);
  CHECK(bad.err ==
        "kpreempt: error: --set DefaultPreemption.minCandidateNodesPercentage: \"lots\" is not "
        "an integer\n");
}

TEST_CASE("a pod bound to a node is refused as a preemptor in the same words everywhere",
          "[cli][args]") {
  Run r = run_cli({"explain", "--no-cache", "-f", k_demo, "--pod", "research/notebook-bob"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "kpreempt: error: Pod research/notebook-bob is bound to node \"gpu-a100-1\"; a preemptor "
        "is a pending pod (no spec.nodeName); to see what could preempt it: --victim "
        "research/notebook-bob\n");
}
