// SPDX-License-Identifier: Apache-2.0
// `kpreempt cascade` through the binary: rounds, recreations, the summary and the exit codes.

#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using kpreempt::test::Run;

namespace {

const std::string k_now = " --now 2026-11-22T10:00:00Z";

Run cascade(const std::string& args) {
  return kpreempt::test::run_binary("cascade " + args + k_now, false);
}

nlohmann::json cascade_json(const std::string& args) {
  Run r = cascade(args + " -o json");
  INFO(r.out);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("a three-level storm settles after three rounds with the low pod pending",
          "[cli][cascade]") {
  const auto doc = cascade_json("-f testdata/cascade/storm.yaml");
  CHECK(doc["apiVersion"] == "kpreempt/v1alpha1");
  CHECK(doc["kind"] == "Cascade");
  const auto& rounds = doc["rounds"];
  REQUIRE(rounds.size() == 3);
  CHECK(rounds[0]["round"] == 1);
  CHECK(rounds[0]["decisions"][0]["preemptor"] == "shop/checkout-5f7c6b-h8mnp");
  CHECK(rounds[0]["decisions"][0]["policy"] == "default");
  CHECK(rounds[0]["decisions"][0]["outcome"] == "preempt");
  CHECK(rounds[0]["decisions"][0]["node"] == "node-a");
  CHECK(rounds[0]["decisions"][0]["victims"][0] == "tools/reports-7d9f8c-x1qzt");
  CHECK(rounds[0]["recreated"][0] == "tools/reports-7d9f8c-x1qzt (ReplicaSet reports-7d9f8c)");
  CHECK(rounds[1]["decisions"][0]["preemptor"] == "tools/reports-7d9f8c-x1qzt");
  CHECK(rounds[1]["decisions"][0]["node"] == "node-b");
  CHECK(rounds[1]["decisions"][0]["victims"][0] == "batch/crawler-6c5b4d-y2kvn");
  CHECK(rounds[2]["decisions"][0]["preemptor"] == "batch/crawler-6c5b4d-y2kvn");
  CHECK(rounds[2]["decisions"][0]["outcome"] == "unschedulable");
  CHECK(rounds[2]["decisions"][0]["node"].is_null());
  CHECK(rounds[2]["pending"] == 1);
  const auto& s = doc["summary"];
  CHECK(s["rounds"] == 3);
  CHECK(s["admitted"] == 2);
  CHECK(s["evictions"] == 2);
  CHECK(s["podsEvictedMoreThanOnce"] == 0);
  CHECK(s["amplification"] == 1.0);
  CHECK(s["settled"] == true);
  CHECK(s["loop"].is_null());
}

TEST_CASE("the storm as text: a timeline per round, then the summary", "[cli][cascade]") {
  Run r = cascade("-f testdata/cascade/storm.yaml");
  INFO(r.out);
  REQUIRE(r.code == 0);
  const auto out = kpreempt::test::lines(r.out);
  REQUIRE(out.size() > 8);
  CHECK(out[0] == "round 1: 1 admitted, 1 evicted, 1 recreated, 1 pending");
  CHECK(out[1] ==
        "  shop/checkout-5f7c6b-h8mnp  default  preempt  node-a  evicts "
        "tools/reports-7d9f8c-x1qzt");
  CHECK(out[2] == "  recreated: tools/reports-7d9f8c-x1qzt (ReplicaSet reports-7d9f8c)");
  CHECK(r.out.find("\n3 rounds, 2 admitted, 2 evictions (0 pods evicted more than once), "
                   "amplification 1.00; settled\n") != std::string::npos);
}

TEST_CASE("a cluster with room settles in one round", "[cli][cascade]") {
  const auto doc = cascade_json("-f testdata/cascade/roomy.yaml");
  REQUIRE(doc["rounds"].size() == 1);
  CHECK(doc["rounds"][0]["decisions"][0]["outcome"] == "fits");
  CHECK(doc["summary"]["admitted"] == 1);
  CHECK(doc["summary"]["evictions"] == 0);
  CHECK(doc["summary"]["settled"] == true);
}

TEST_CASE("a pod file's pod joins round 1 and its bare victim is gone", "[cli][cascade]") {
  const auto doc =
      cascade_json("-f testdata/cascade/roomy.yaml --pod-file testdata/cascade/big-job.yaml");
  const auto& round = doc["rounds"][0];
  REQUIRE(round["decisions"].size() == 2);
  CHECK(round["decisions"][1]["preemptor"] == "batch/etl-big");
  CHECK(round["decisions"][1]["victims"][0] == "batch/cron-cleanup");
  CHECK(round["gone"][0] == "batch/cron-cleanup (no controller)");
  CHECK(round["recreated"].empty());
  CHECK(doc["summary"]["rounds"] == 2);
  CHECK(doc["summary"]["evictions"] == 1);
  CHECK(doc["summary"]["settled"] == true);
}

TEST_CASE("a Job's evicted pods stop coming back at the backoff limit", "[cli][cascade]") {
  SECTION("--set cascade.backoffLimit=1 for a Job the dump does not hold") {
    // Two failures in one round pass the limit of 1: the Job fails and neither comes back.
    const auto doc = cascade_json("-f testdata/cascade/job.yaml --set cascade.backoffLimit=1");
    const auto& round = doc["rounds"][0];
    CHECK(round["evicted"] == 2);
    CHECK(round["recreated"].empty());
    REQUIRE(round["gone"].size() == 2);
    CHECK(round["gone"][0] == "ml/train-def34 (Job train failed: past backoffLimit 1)");
    CHECK(round["gone"][1] ==
          "ml/train-abc12 (Job train past backoffLimit 1, not in the dump: backoffLimit 1 "
          "assumed)");
    CHECK(doc["rounds"][1]["pending"] == 0);
  }
  SECTION("the default limit of 6") {
    const auto doc = cascade_json("-f testdata/cascade/job.yaml");
    CHECK(doc["rounds"][0]["recreated"].size() == 2);
    CHECK(doc["rounds"][0]["gone"].empty());
  }
}

TEST_CASE("each owner brings back its victim as its controller would", "[cli][cascade]") {
  const auto doc = cascade_json("-f testdata/cascade/job-policies.yaml");
  const auto& round = doc["rounds"][0];
  CHECK(round["evicted"] == 6);
  const std::vector<std::string> recreated = round["recreated"];
  CHECK(recreated == std::vector<std::string>{
                         "ml/tolerant-h3n8s (Job tolerant; podFailurePolicy rule 1: Ignore on "
                         "DisruptionTarget, not counted)",
                         "ml/counted-z8p3f (Job counted; 2 of 3 failures)",
                         "kube-system/log-agent-m4x9q (DaemonSet log-agent, for node node-g)"});
  const std::vector<std::string> gone = round["gone"];
  CHECK(gone == std::vector<std::string>{
                    "ml/retry-x7k2p (Job retry past backoffLimit 0)",
                    "ml/strict-w5r2t (Job strict failed: podFailurePolicy rule 2: FailJob on "
                    "DisruptionTarget)",
                    "ml/sweep-2-b6v8c (Job sweep: index 2 past backoffLimitPerIndex 1)",
                    "ml/retry-q9m4d (Job retry failed: its controller deletes the pod)"});
  // The DaemonSet's pod waits for its own node, which the service now fills.
  const auto& next = doc["rounds"][1]["decisions"];
  REQUIRE(next.size() == 3);
  CHECK(next[2]["preemptor"] == "kube-system/log-agent-m4x9q");
  CHECK(next[2]["outcome"] == "unschedulable");
  CHECK(doc["summary"]["settled"] == true);
  CHECK(doc["summary"]["evictions"] == 6);
}

TEST_CASE("two schedulers sharing a node evict each other's pods in a loop", "[cli][cascade]") {
  // kube-scheduler by priority, a CapacityScheduling profile by ElasticQuota min.
  const auto doc = cascade_json("-f testdata/cascade/two-schedulers.yaml");
  const auto& rounds = doc["rounds"];
  REQUIRE(rounds.size() == 2);
  CHECK(rounds[0]["decisions"][0]["policy"] == "capacity");
  CHECK(rounds[1]["decisions"][0]["policy"] == "default");
  const auto& loop = doc["summary"]["loop"];
  REQUIRE(loop.is_object());
  const auto& cycle = loop["cycle"];
  REQUIRE(cycle.size() == 2);
  CHECK(cycle[0]["preemptor"] == "team-b/trainer-5d4c9b8f6-q7w3z");
  CHECK(cycle[0]["victims"][0] == "team-a/api-6f9c8d7b5-x2k4m");
  CHECK(cycle[1]["preemptor"] == "team-a/api-6f9c8d7b5-x2k4m");
  CHECK(cycle[1]["victims"][0] == "team-b/trainer-5d4c9b8f6-q7w3z");
  const std::string because = loop["because"][0];
  CHECK_THAT(because, Catch::Contains("ElasticQuota team-a/quota is over its min cpu 2 (uses 6)"));
  CHECK_THAT(because, Catch::Contains("spec.schedulerName capacity-scheduler"));
  SECTION("--fail-on loop makes it a finding") {
    CHECK(cascade("-f testdata/cascade/two-schedulers.yaml --fail-on loop").code == 1);
  }
  SECTION("--scheduler gives the profile's pods another policy") {
    const auto one = cascade_json(
        "-f testdata/cascade/two-schedulers.yaml --scheduler capacity-scheduler=default");
    CHECK(one["rounds"][0]["decisions"][0]["policy"] == "default");
    CHECK(one["summary"]["settled"] == true);
  }
  SECTION("a bad --scheduler is a usage error") {
    CHECK(cascade("-f testdata/cascade/two-schedulers.yaml --scheduler capacity-scheduler").code ==
          2);
    CHECK(cascade("-f testdata/cascade/two-schedulers.yaml --scheduler x=yunikorn").code == 2);
  }
}

TEST_CASE("cascade YAML is the same document", "[cli][cascade]") {
  Run r = cascade("-f testdata/cascade/storm.yaml -o yaml");
  REQUIRE(r.code == 0);
  CHECK(r.out.starts_with("apiVersion: kpreempt/v1alpha1\nkind: Cascade\n"));
  CHECK(r.out.find("  settled: true\n") != std::string::npos);
}

TEST_CASE("cascade --fail-on and bad input set the exit code", "[cli][cascade]") {
  CHECK(cascade("-f testdata/cascade/storm.yaml --fail-on 'evictions>1'").code == 1);
  CHECK(cascade("-f testdata/cascade/storm.yaml --fail-on 'evictions>2'").code == 0);
  CHECK(cascade("-f testdata/cascade/storm.yaml --fail-on loop").code == 0);
  CHECK(cascade("-f testdata/cascade/storm.yaml --fail-on sometimes").code == 2);
  CHECK(cascade("-f testdata/cascade/storm.yaml --rounds 0").code == 2);
  CHECK(cascade("-f testdata/cascade/storm.yaml --policy kueue").code == 2);
  CHECK(cascade("-f testdata/cascade/storm.yaml --set cascade.backoffLimit=x").code == 2);
  CHECK(cascade("-f testdata/cascade/no-such-file.yaml").code == 2);
  CHECK(cascade("-f testdata/cascade/storm.yaml -o wide").code == 2);
}

TEST_CASE("the rounds limit stops a cascade before it settles", "[cli][cascade]") {
  const auto doc = cascade_json("-f testdata/cascade/storm.yaml --rounds 2");
  CHECK(doc["summary"]["rounds"] == 2);
  CHECK(doc["summary"]["settled"] == false);
  CHECK(doc["summary"]["loop"].is_null());
}

TEST_CASE("each pod is decided by the policy of its own scheduler", "[cli][cascade]") {
  const auto doc = cascade_json(
      "-f testdata/cascade/roomy.yaml --pod-file "
      "testdata/cascade/yunikorn-pod.yaml");
  const auto& decisions = doc["rounds"][0]["decisions"];
  REQUIRE(decisions.size() == 2);
  CHECK(decisions[0]["preemptor"] == "shop/checkout-5f7c6b-h8mnp");
  CHECK(decisions[0]["policy"] == "default");
  CHECK(decisions[1]["preemptor"] == "batch/etl-yunikorn");
  CHECK(decisions[1]["policy"] == "yunikorn");
}

TEST_CASE("an evicted Workload is requeued and decided again in the next round", "[cli][cascade]") {
  const auto doc =
      cascade_json("-f testdata/explain/kueue/admission-check-not-modelled/cluster.yaml");
  const auto& rounds = doc["rounds"];
  REQUIRE(rounds.size() == 2);
  CHECK(rounds[0]["decisions"][0]["preemptor"] == "Workload default/in");
  CHECK(rounds[0]["decisions"][0]["policy"] == "kueue");
  CHECK(rounds[0]["decisions"][0]["victims"][0] == "Workload default/low");
  CHECK(rounds[0]["recreated"][0] == "Workload default/low (requeued)");
  CHECK(rounds[1]["decisions"][0]["preemptor"] == "Workload default/low");
  CHECK(rounds[1]["decisions"][0]["outcome"] == "unschedulable");
  CHECK(doc["summary"]["settled"] == true);
}

TEST_CASE("cascade takes --all-pending, the cache flags and --upstream as explain does",
          "[cli][cascade]") {
  const auto plain = cascade_json("-f testdata/cascade/storm.yaml");
  const auto doc = cascade_json(
      "-f testdata/cascade/storm.yaml --all-pending --no-cache --upstream default=v1.33");
  CHECK(doc["summary"] == plain["summary"]);
  CHECK(doc["rounds"].size() == plain["rounds"].size());
  CHECK(cascade("-f testdata/cascade/storm.yaml --upstream default=banana").code == 2);
  CHECK(cascade("-f testdata/cascade/storm.yaml --upstream nosuch=v1.33").code == 2);
  CHECK(cascade("-f testdata/cascade/storm.yaml --cache --no-cache").code == 2);
}
