// SPDX-License-Identifier: Apache-2.0
// `kpreempt explain --victim`: the pending preemptors that evict a running pod, the priority
// levels that could, and the pods it refuses.
#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using kpreempt::test::Run;

const std::string k_small = KPREEMPT_TESTDATA "/cli/batch/small.yaml";

Run victim(const std::string& ref, std::vector<std::string> extra) {
  std::vector<std::string> args = {
      "explain", "-f", k_small, "--victim", ref, "--now", "2026-11-22T10:00:00Z"};
  args.insert(args.end(), extra.begin(), extra.end());
  Run r = kpreempt::test::run_cli(args);
  r.err = kpreempt::test::without_one_namespace_note(r.err);
  return r;
}

// The verdict code of `policy` for PriorityClass `klass` in a VictimReport document.
std::string level_code(const nlohmann::json& doc, const std::string& klass,
                       const std::string& policy) {
  for (const auto& level : doc["priorityLevels"]) {
    if (level["priorityClass"] == klass) {
      for (const auto& v : level["verdicts"]) {
        if (v["policy"] == policy) {
          return v["code"];
        }
      }
    }
  }
  return "<none>";
}

}  // namespace

TEST_CASE("victim lists the pending pods that evict it and the priority levels that could",
          "[cli][batch][victim]") {
  Run r = victim("team-a/batch-0", {});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "Pod team-a/batch-0  priority 100 (low)  on n1\n"
        "\n"
        "evicted by (3 pending checked)\n"
        "  PREEMPTOR      PRIORITY  POLICY      NODE  REASON\n"
        "  team-b/urgent  2000      default     n1    victim\n"
        "  team-b/urgent  2000      toleration  n1    victim\n"
        "  team-b/mid-0   500       default     n1    victim\n"
        "\n"
        "priority levels that could evict it\n"
        "  CLASS   VALUE  DEFAULT                     TOLERATION\n"
        "  polite  3000   no: preemptionPolicy Never  no: preemptionPolicy Never\n"
        "  high    2000   yes                         yes\n"
        "  mid     500    yes                         from 2026-11-22T10:30:00Z\n"
        "  low     100    no: not higher              no: not higher\n");
}

TEST_CASE("victim json is a VictimReport", "[cli][batch][victim]") {
  Run r = victim("team-a/batch-0", {"-o", "json"});
  REQUIRE(r.code == 0);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["apiVersion"] == "kpreempt/v1alpha1");
  CHECK(doc["kind"] == "VictimReport");
  CHECK(doc["victim"]["node"] == "n1");
  CHECK(doc["pendingChecked"] == 3);
  REQUIRE(doc["evictedBy"].size() == 3);
  CHECK(doc["evictedBy"][2]["preemptor"]["name"] == "mid-0");
  CHECK(doc["evictedBy"][2]["preemptor"]["priority"] == 500);
  CHECK(doc["evictedBy"][2]["policy"] == "default");
  CHECK(doc["evictedBy"][2]["reason"] == "victim");
  CHECK(level_code(doc, "mid", "toleration") == "from:2026-11-22T10:30:00Z");
  CHECK(level_code(doc, "mid", "default") == "can-preempt");
  CHECK(level_code(doc, "high", "toleration") == "can-preempt");
  CHECK(level_code(doc, "polite", "default") == "no:preemption-policy-never");
  CHECK(level_code(doc, "low", "default") == "no:not-higher-priority");
  CHECK(doc["notPerPriorityLevel"].empty());
}

TEST_CASE("the toleration window closes at lastTransitionTime plus toleration-seconds",
          "[cli][batch][victim]") {
  Run r = kpreempt::test::run_cli({"explain", "-f", k_small, "--victim", "team-a/batch-0", "--now",
                                   "2026-11-22T10:30:00Z", "-o", "json"});
  REQUIRE(r.code == 0);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(level_code(doc, "mid", "toleration") == "can-preempt");
}

TEST_CASE("quota policies are not judged per priority level", "[cli][batch][victim]") {
  Run r = victim("team-a/batch-0", {"--policy", "default", "--policy", "kueue"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\n  kueue: depends on quota: see explain --pod\n") != std::string::npos);
  CHECK(r.out.find("TOLERATION") == std::string::npos);
}

TEST_CASE("victim under one policy lists only that policy's evictions", "[cli][batch][victim]") {
  Run r = victim("team-a/batch-0", {"--policy", "toleration"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("team-b/mid-0") == std::string::npos);
  CHECK(r.out.find("team-b/urgent  2000      toleration") != std::string::npos);
}

TEST_CASE("a pod no pending preemptor evicts says so", "[cli][batch][victim]") {
  Run r =
      kpreempt::test::run_cli({"explain", "-f", KPREEMPT_TESTDATA "/cli/batch/none-pending.yaml",
                               "--victim", "team-a/web-0"});
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "Pod team-a/web-0  priority 0  on n1\n"
        "\n"
        "no pending pod or workload in the input evicts it (0 checked)\n"
        "\n"
        "priority levels that could evict it\n"
        "  the input holds no PriorityClass\n");
}

TEST_CASE("victim refuses unknown, pending and finished pods", "[cli][batch][victim]") {
  SECTION("unknown, with a suggestion") {
    Run r = victim("team-a/batch-O", {});
    CHECK(r.code == 2);
    CHECK(r.err ==
          "kpreempt: error: no Pod team-a/batch-O in the input; did you mean team-a/batch-0?\n");
  }
  SECTION("pending") {
    Run r = victim("team-b/urgent", {});
    CHECK(r.code == 2);
    CHECK(r.err ==
          "kpreempt: error: Pod team-b/urgent is pending; use --pod team-b/urgent to explain it "
          "as a preemptor\n");
  }
  SECTION("finished") {
    Run r = victim("team-b/done", {});
    CHECK(r.code == 2);
    CHECK(r.err ==
          "kpreempt: error: Pod team-b/done has finished (phase Succeeded); nothing can preempt "
          "it\n");
  }
  SECTION("combined with --pod") {
    Run r = victim("team-a/batch-0", {"--pod", "team-b/urgent"});
    CHECK(r.code == 2);
    CHECK(r.err ==
          "kpreempt: error: --victim cannot be combined with --pod, --pod-file or --workload\n");
  }
}
