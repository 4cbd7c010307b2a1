// SPDX-License-Identifier: Apache-2.0
// A workload's pods, and every pending pod with --sequential, placed one after another
// through the binary.

#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using kpreempt::test::Run;

namespace {

const std::string k_cluster = "-f testdata/sequence/cluster.yaml --now 2026-11-22T10:00:00Z ";

Run explain(const std::string& args) {
  return kpreempt::test::run_binary("explain " + args, false);
}

}  // namespace

TEST_CASE("a Deployment's replicas split into fits, a preemption and pending ones",
          "[cli][sequence]") {
  Run r = explain(k_cluster + "--pod-file testdata/sequence/deployment.yaml");
  INFO(r.out);
  REQUIRE(r.code == 0);
  const auto out = kpreempt::test::lines(r.out);
  REQUIRE(out.size() > 12);
  // The summary comes first.
  CHECK(out[0].starts_with("6 preemptors placed in sequence"));
  CHECK(out[2] == "default: 4 placed (3 fit, 1 preempt), 2 pending; evicts 1 victim on 1 node");
  CHECK(out[7] == "  4  web/api-what-if-3  preempt        node-2");
  CHECK(out[10] == "  victims on node-2: batch/etl-nightly-7f9c2");
  CHECK(out[11].starts_with("  first pending: web/api-what-if-4: no candidate node"));
  // Then every replica's explanation, in order.
  CHECK(kpreempt::test::occurrences(r.out, "\nPod web/api-what-if-") == 6);
}

TEST_CASE("a workload's JSON lists the explanations in order with a summary", "[cli][sequence]") {
  Run r = explain(k_cluster + "--pod-file testdata/sequence/deployment.yaml -o json");
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["kind"] == "ExplanationList");
  REQUIRE(doc["items"].size() == 6);
  CHECK(doc["items"][3]["preemptor"]["name"] == "api-what-if-3");
  CHECK(doc["items"][3]["results"][0]["outcome"] == "preempt");
  const auto& s = doc["summary"];
  CHECK(s["mode"] == "sequential");
  REQUIRE(s["byPolicy"].size() == 1);
  const auto& p = s["byPolicy"][0];
  CHECK(p["placed"] == 4);
  CHECK(p["fits"] == 3);
  CHECK(p["preempt"] == 1);
  CHECK(p["pending"] == 2);
  CHECK(p["victimsByNode"][0]["node"] == "node-2");
  CHECK(p["placements"][0]["node"] == "node-1");
  CHECK(p["placements"][0]["nodeByScore"] == true);
  CHECK(p["placements"][4]["node"].is_null());
  CHECK(p["firstPending"]["preemptor"] == "web/api-what-if-4");
  CHECK(p["firstPending"]["reasons"][0] == "no-candidates");
  CHECK(s["assumptions"].size() == 3);
}

TEST_CASE("a Job's second pod evicts other victims than its first", "[cli][sequence]") {
  Run r = explain(k_cluster + "--pod-file testdata/sequence/job.yaml -o json");
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  const auto& first = doc["items"][0]["results"][0];
  const auto& second = doc["items"][1]["results"][0];
  CHECK(first["node"] == "gpu-2");
  CHECK(first["victims"].size() == 1);
  CHECK(first["victims"][0]["name"] == "sweep-trial-3");
  CHECK(second["node"] == "gpu-1");
  REQUIRE(second["victims"].size() == 2);
  CHECK(second["victims"][0]["name"] == "notebook-alice");
}

TEST_CASE("Kueue Workloads in sequence: the first fits, the second must preempt",
          "[cli][sequence]") {
  Run r = explain(
      "-f testdata/sequence/kueue/queues.yaml --now 2026-11-22T10:00:00Z "
      "--pod-file testdata/sequence/kueue/job-1.yaml --pod-file "
      "testdata/sequence/kueue/job-2.yaml");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(kpreempt::test::occurrences(
            r.out, "kueue: 2 placed (1 fit, 1 preempt), 0 pending; evicts 1 victim from quota") ==
        1);
  CHECK(kpreempt::test::occurrences(r.out,
                                    "victims on quota: Workload/team-a/job-backfill-3c1f2") == 1);
}

TEST_CASE("all-pending with --sequential applies each decision before the next",
          "[cli][sequence]") {
  const std::string base =
      "-f testdata/cli/batch/small.yaml --all-pending --policy default --now "
      "2026-11-22T10:00:00Z";
  Run each = explain(base);
  Run seq = explain(base + " --sequential");
  INFO(seq.out);
  REQUIRE(seq.code == 0);
  // On its own, mid-0 preempts the pod urgent already evicted; after it, it fits.
  CHECK(kpreempt::test::occurrences(each.out, "team-b/mid-0   default  preempt") == 1);
  CHECK(kpreempt::test::occurrences(seq.out, "team-b/mid-0   default  fits") == 1);
  CHECK(kpreempt::test::occurrences(each.out, "each on its own against the same dump") == 1);
  CHECK(kpreempt::test::occurrences(seq.out, "in sequence, each after the ones before") == 1);
  CHECK(kpreempt::test::occurrences(
            seq.out, "default: 2 placed (1 fit, 1 preempt), 1 pending; evicts 1 victim") == 1);
  Run json = explain(base + " --sequential -o json");
  const auto doc = nlohmann::json::parse(json.out);
  CHECK(doc["summary"]["mode"] == "sequential");
  CHECK(doc["summary"]["sequence"]["byPolicy"][0]["pending"] == 1);
}

TEST_CASE("sequential without all-pending or a pod file is a usage error", "[cli][sequence]") {
  Run r = kpreempt::test::run_binary(
      "explain -f testdata/cli/batch/small.yaml --pod team-b/small --sequential", true);
  CHECK(r.code == 2);
  CHECK(kpreempt::test::occurrences(r.out, "--sequential goes with --all-pending") == 1);
}

TEST_CASE("check asserts a workload's placed and pending counts", "[cli][sequence]") {
  Run r = kpreempt::test::run_binary("check testdata/sequence", true);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(kpreempt::test::occurrences(r.out, "2 passed, 0 failed") == 1);
}

TEST_CASE("check's JSON gives a workload's placed and pending counts", "[cli][sequence]") {
  Run r = kpreempt::test::run_binary("check testdata/sequence/deployment-splits -o json", false);
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["scenarios"][0]["placed"] == 4);
  CHECK(doc["scenarios"][0]["pending"] == 2);
}

TEST_CASE("a Koordinator gang placed by job-level preemption stays one decision",
          "[cli][sequence]") {
  Run r = explain(
      "-f testdata/explain/koordinator/job-preempt-success/cluster.yaml --all-pending "
      "--sequential --policy koordinator --upstream koordinator=v1.8 "
      "--set Coscheduling.enablePreemption=true --now 2026-01-01T00:00:00Z -o json");
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  const auto& p = doc["summary"]["sequence"]["byPolicy"][0];
  CHECK(p["preempt"] == 2);
  CHECK(p["victims"] == 2);  // counted once, for the gang
  CHECK(p["placements"][1]["node"] == "node-1");
  CHECK(doc["items"][1]["results"][0]["victims"].size() == 2);
}
