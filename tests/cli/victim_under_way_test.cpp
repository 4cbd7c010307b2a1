// SPDX-License-Identifier: Apache-2.0
// `kpreempt explain --victim` for an eviction already under way: a pod kube-scheduler is
// preempting, one whose preemptor is no longer pending, and Kueue Workloads named by their
// Job, with the preemptor the Preempted condition names by UID.
#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using kpreempt::test::Run;

const std::string k_dir = "testdata/explain/victim-under-way/";

// The real binary from the project root, stderr kept apart.
Run victim(const std::string& files, const std::string& ref, const std::string& extra = "") {
  return kpreempt::test::run_binary("explain --no-cache --color never --now 2026-11-22T10:00:40Z" +
                                        files + " --victim " + ref + extra,
                                    false);
}

std::string file(const std::string& name) {
  return " -f " + k_dir + name;
}

nlohmann::json json_of(const std::string& files, const std::string& ref) {
  Run r = victim(files, ref, " -o json");
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("a terminating victim is explained by the pending pod nominated to its node",
          "[cli][victim][under-way]") {
  Run r = victim(file("nominated.yaml"), "team-a/batch-0");
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "Pod team-a/batch-0  priority 100 (low)  on n1\n"
        "\n"
        "eviction under way\n"
        "  terminating: deletionTimestamp 2026-11-22T10:00:30Z\n"
        "  DisruptionTarget True: PreemptionByScheduler at 2026-11-22T10:00:00Z\n"
        "  explained by team-b/urgent (priority 2000), pending, nominated to n1\n"
        "    POLICY   STANCE        REASON\n"
        "    default  waits for it  waiting-for-victims:n1\n"
        "\n"
        "decision of team-b/urgent\n"
        "  Pod team-b/urgent  priority 2000 (high)  requests cpu 1, memory 512Mi\n"
        "\n"
        "  default (kubernetes v1.37 pkg/scheduler/framework/plugins/defaultpreemption)\n"
        "    outcome   unschedulable\n"
        "    why       cannot preempt yet: a lower-priority pod on its nominated node n1 is "
        "still terminating by preemption\n"
        "\n"
        "no pending pod or workload in the input evicts it (1 checked)\n"
        "\n"
        "priority levels that could evict it\n"
        "  CLASS  VALUE  DEFAULT\n"
        "  high   2000   yes\n"
        "  low    100    no: not higher\n");
}

TEST_CASE("victim json says which pending pod explains the eviction", "[cli][victim][under-way]") {
  auto doc = json_of(file("nominated.yaml"), "team-a/batch-0");
  CHECK(doc["kind"] == "VictimReport");
  CHECK(doc["victim"]["node"] == "n1");
  CHECK(doc["pendingChecked"] == 1);
  CHECK(doc["evictedBy"].empty());
  CHECK(doc["priorityLevels"].size() == 2);
  CHECK(doc["notPerPriorityLevel"].empty());
  const auto& u = doc["evictionUnderWay"];
  CHECK(u["deletionTimestamp"] == "2026-11-22T10:00:30Z");
  REQUIRE(u["conditions"].size() == 1);
  CHECK(u["conditions"][0]["type"] == "DisruptionTarget");
  CHECK(u["conditions"][0]["reason"] == "PreemptionByScheduler");
  CHECK(u["conditions"][0]["lastTransitionTime"] == "2026-11-22T10:00:00Z");
  CHECK(u["explained"] == true);
  REQUIRE(u["explainedBy"].size() == 1);
  const auto& x = u["explainedBy"][0];
  CHECK(x["preemptor"]["kind"] == "Pod");
  CHECK(x["preemptor"]["name"] == "urgent");
  CHECK(x["preemptor"]["priority"] == 2000);
  CHECK(x["state"] == "pending");
  CHECK(x["nominatedNodeName"] == "n1");
  CHECK(x["inferred"] == false);
  REQUIRE(x["stances"].size() == 1);
  CHECK(x["stances"][0]["policy"] == "default");
  CHECK(x["stances"][0]["stance"] == "waits-for-it");
  CHECK(x["stances"][0]["reason"] == "waiting-for-victims:n1");
  CHECK(x["explanation"]["kind"] == "Explanation");
  CHECK(x["explanation"]["results"][0]["reasons"][0] == "waiting-for-victims:n1");
  CHECK(u.find("checked") == u.end());
  CHECK(u.find("likelyPreemptors") == u.end());
}

TEST_CASE("victim json keeps its first keys in place", "[cli][victim][under-way]") {
  Run r = victim(file("nominated.yaml"), "team-a/batch-0", " -o json");
  REQUIRE(r.code == 0);
  const std::vector<std::string> order = {"\"apiVersion\"",
                                          "\"kind\"",
                                          "\"now\"",
                                          "\"victim\"",
                                          "\"pendingChecked\"",
                                          "\"evictedBy\"",
                                          "\"priorityLevels\"",
                                          "\"notPerPriorityLevel\"",
                                          "\"evictionUnderWay\""};
  std::size_t at = 0;
  for (const std::string& key : order) {
    INFO(key);
    const std::size_t found = r.out.find("\n  " + key + ":");
    REQUIRE(found != std::string::npos);
    CHECK(found >= at);
    at = found;
  }
}

TEST_CASE("no pending pod explains it: what was checked, and the bound pod that likely did",
          "[cli][victim][under-way]") {
  Run r = victim(file("unexplained.yaml"), "team-a/batch-0");
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "Pod team-a/batch-0  priority 100 (low)  on n1\n"
        "\n"
        "eviction under way\n"
        "  terminating: deletionTimestamp 2026-11-22T10:00:30Z\n"
        "  DisruptionTarget True: PreemptionByScheduler at 2026-11-22T10:00:00Z\n"
        "  no pending pod explains it: 1 pending pod nominated to node n1 has priority not above "
        "100; 1 pending pod of higher priority has no nominated node\n"
        "  the preemptor may already be bound: pods on n1 of priority above 100 created or "
        "started at or after 2026-11-22T10:00:00Z:\n"
        "    LIKELY PREEMPTOR (INFERRED)  PRIORITY  NODE  STARTED\n"
        "    team-c/fast-0                2000      n1    2026-11-22T10:00:20Z\n"
        "\n"
        "no pending pod or workload in the input evicts it (2 checked)\n"
        "\n"
        "priority levels that could evict it\n"
        "  CLASS   VALUE  DEFAULT\n"
        "  high    2000   yes\n"
        "  low     100    no: not higher\n"
        "  lowest  50     no: not higher\n");

  auto doc = json_of(file("unexplained.yaml"), "team-a/batch-0");
  const auto& u = doc["evictionUnderWay"];
  CHECK(u["explained"] == false);
  CHECK(u["explainedBy"].empty());
  CHECK(u["checked"] == nlohmann::json::array({
                            "1 pending pod nominated to node n1 has priority not above 100",
                            "1 pending pod of higher priority has no nominated node",
                        }));
  REQUIRE(u["likelyPreemptors"].size() == 1);
  const auto& likely = u["likelyPreemptors"][0];
  CHECK(likely["preemptor"]["name"] == "fast-0");
  CHECK(likely["state"] == "bound");
  CHECK(likely["node"] == "n1");
  CHECK(likely["startTime"] == "2026-11-22T10:00:20Z");
  CHECK(likely["inferred"] == true);
  CHECK(likely.find("stances") == likely.end());
}

TEST_CASE("a failed pod the scheduler preempted is still a victim to explain",
          "[cli][victim][under-way]") {
  Run r = victim(file("unexplained.yaml"), "team-a/etl-7xk2p");
  REQUIRE(r.code == 0);
  CHECK(
      r.out.starts_with("Pod team-a/etl-7xk2p  priority 100 (low)  on n1\n\neviction under way\n"));
  CHECK(r.out.find("    team-c/fast-0                2000      n1    2026-11-22T10:00:20Z\n") !=
        std::string::npos);
}

TEST_CASE("a Job's Workload preempted for an admitted workload names it by UID",
          "[cli][victim][under-way][kueue]") {
  Run r = victim(file("kueue.yaml"), "team-a/train");
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "Workload team-a/job-train-5b9d2  priority 100 (batch-low)  of Job team-a/train\n"
        "\n"
        "eviction under way\n"
        "  Evicted True: Preempted at 2026-11-22T09:00:00Z\n"
        "  Preempted True: InClusterQueue at 2026-11-22T09:00:00Z\n"
        "    Preempted to accommodate a workload (UID: 9f8e7d6c-5b4a-4938-a271-605f4e3d2c1b, "
        "JobUID: 4c5d6e7f-8091-4a2b-9c3d-4e5f60718293) due to prioritization in the "
        "ClusterQueue; preemptor path: /cq-a; preemptee path: /cq-a\n"
        "  explained by Workload team-a/job-urgent-7c4e1 (priority 1000, UID "
        "9f8e7d6c-5b4a-4938-a271-605f4e3d2c1b), admitted to ClusterQueue cq-a: it holds quota "
        "now\n"
        "\n"
        "no pending pod or workload in the input evicts it (3 checked)\n"
        "\n"
        "priority levels that could evict it\n"
        "  kueue: depends on quota: see explain --workload\n");

  auto doc = json_of(file("kueue.yaml"), "team-a/train");
  CHECK(doc["victim"]["kind"] == "Workload");
  CHECK(doc["victim"]["name"] == "job-train-5b9d2");
  CHECK(doc["victim"]["owner"] == nlohmann::json({{"kind", "Job"}, {"name", "train"}}));
  CHECK(doc["priorityLevels"].empty());
  const auto& u = doc["evictionUnderWay"];
  REQUIRE(u["conditions"].size() == 2);
  CHECK(u["conditions"][0]["type"] == "Evicted");
  CHECK(u["conditions"][1]["type"] == "Preempted");
  CHECK(u["conditions"][1]["reason"] == "InClusterQueue");
  CHECK(u["conditions"][1]["message"].get<std::string>().starts_with(
      "Preempted to accommodate a workload (UID: 9f8e7d6c-"));
  CHECK(u["preemptorUID"] == "9f8e7d6c-5b4a-4938-a271-605f4e3d2c1b");
  CHECK(u["preemptorJobUID"] == "4c5d6e7f-8091-4a2b-9c3d-4e5f60718293");
  REQUIRE(u["explainedBy"].size() == 1);
  const auto& x = u["explainedBy"][0];
  CHECK(x["preemptor"]["name"] == "job-urgent-7c4e1");
  CHECK(x["state"] == "admitted");
  CHECK(x["clusterQueue"] == "cq-a");
  CHECK(x.find("explanation") == x.end());
}

TEST_CASE("a Workload preempted for a pending workload shows that workload's decision",
          "[cli][victim][under-way][kueue]") {
  Run r = victim(file("kueue.yaml"), "team-a/sweep");
  REQUIRE(r.code == 0);
  const std::string lead =
      "Workload team-a/job-sweep-2f8a6  priority 100 (batch-low)  admitted to cq-a  of Job "
      "team-a/sweep\n"
      "\n"
      "eviction under way\n"
      "  Evicted True: Preempted at 2026-11-22T09:55:00Z\n"
      "  Preempted True: InClusterQueue at 2026-11-22T09:55:00Z\n"
      "    Preempted to accommodate a workload (UID: 2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f, JobUID: "
      "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d) due to prioritization in the ClusterQueue; "
      "preemptor path: /cq-a; preemptee path: /cq-a\n"
      "  explained by Workload team-b/job-big-9e3d0 (priority 1000, UID "
      "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f), pending\n"
      "    POLICY  STANCE    REASON\n"
      "    kueue   lists it  InClusterQueue\n"
      "\n"
      "decision of Workload team-b/job-big-9e3d0\n"
      "  Workload team-b/job-big-9e3d0  priority 1000\n"
      "\n"
      "  kueue (kueue v0.19.2 pkg/scheduler/preemption, flavorassigner)\n"
      "    outcome   preempt\n";
  CHECK(r.out.substr(0, lead.size()) == lead);
  CHECK(r.out.find("      Workload/team-a/job-sweep-2f8a6  -     cq-a   100       "
                   "InClusterQueue\n") != std::string::npos);
  CHECK(r.out.find("evicted by (3 pending checked)\n"
                   "  PREEMPTOR                      PRIORITY  POLICY  NODE  REASON\n"
                   "  Workload team-b/job-big-9e3d0  1000      kueue   -     InClusterQueue\n") !=
        std::string::npos);

  auto doc = json_of(file("kueue.yaml"), "team-a/sweep");
  CHECK(doc["victim"]["clusterQueue"] == "cq-a");
  CHECK(doc["evictedBy"].size() == 1);
  const auto& x = doc["evictionUnderWay"]["explainedBy"][0];
  CHECK(x["preemptor"]["kind"] == "Workload");
  CHECK(x["preemptor"]["uid"] == "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f");
  CHECK(x["state"] == "pending");
  REQUIRE(x["stances"].size() == 1);
  auto stance = x["stances"][0];
  CHECK_FALSE(stance["reasonText"].get<std::string>().empty());
  stance.erase("reasonText");
  CHECK(stance == nlohmann::json({{"policy", "kueue"},
                                  {"stance", "lists-it"},
                                  {"outcome", "preempt"},
                                  {"reason", "InClusterQueue"}}));
  CHECK(x["explanation"]["preemptor"]["name"] == "job-big-9e3d0");
  CHECK(x["explanation"]["results"][0]["victims"][0]["name"] == "job-sweep-2f8a6");
}

TEST_CASE("a preemptor UID not in the dump: the workloads admitted since are inferred",
          "[cli][victim][under-way][kueue]") {
  Run r = victim(file("kueue.yaml"), "team-a/nightly");
  REQUIRE(r.code == 0);
  CHECK(r.out.find("  no workload of the input explains it: no Workload of the input has UID "
                   "d2c1b0a9-8f7e-4d6c-9b5a-493827161504: the preemptor may have finished and "
                   "been deleted\n"
                   "  the preemptor may already be admitted: Workloads that reserved quota at "
                   "or after 2026-11-22T08:00:00Z in ClusterQueue cq-a with priority above "
                   "100:\n"
                   "    LIKELY PREEMPTOR (INFERRED)       PRIORITY  CLUSTERQUEUE  QUOTA "
                   "RESERVED\n"
                   "    Workload team-a/job-urgent-7c4e1  1000      cq-a          "
                   "2026-11-22T09:00:05Z\n") != std::string::npos);
  auto doc = json_of(file("kueue.yaml"), "team-a/nightly");
  const auto& u = doc["evictionUnderWay"];
  CHECK(u["explained"] == false);
  CHECK(u["preemptorUID"] == "d2c1b0a9-8f7e-4d6c-9b5a-493827161504");
  REQUIRE(u["likelyPreemptors"].size() == 1);
  CHECK(u["likelyPreemptors"][0]["preemptor"]["name"] == "job-urgent-7c4e1");
  CHECK(u["likelyPreemptors"][0]["inferred"] == true);
}

TEST_CASE("victim names a pod first, then a Workload, then a Workload's owner",
          "[cli][victim][under-way][kueue]") {
  const std::string both = file("nominated.yaml") + file("workload-batch-0.yaml");
  SECTION("a pod and a Workload of the same name: the pod, with a note") {
    Run r = victim(both, "team-a/batch-0");
    REQUIRE(r.code == 0);
    CHECK(
        r.out.starts_with("Pod team-a/batch-0  priority 100 (low)  on n1\n"
                          "note: a Workload team-a/batch-0 exists too: --victim "
                          "workload/team-a/batch-0 reports on it\n"
                          "\n"
                          "eviction under way\n"));
    auto doc = json_of(both, "team-a/batch-0");
    CHECK(doc["notes"].size() == 1);
  }
  SECTION("workload/ asks for the Workload") {
    Run r = victim(both, "workload/team-a/batch-0");
    REQUIRE(r.code == 0);
    CHECK(r.out ==
          "Workload team-a/batch-0  priority 0  admitted to cq-a\n"
          "\n"
          "no pending pod or workload in the input evicts it (1 checked)\n"
          "\n"
          "priority levels that could evict it\n"
          "  kueue: depends on quota: see explain --workload\n");
  }
  SECTION("a Workload by its own name") {
    auto doc = json_of(file("kueue.yaml"), "team-a/job-train-5b9d2");
    CHECK(doc["victim"]["name"] == "job-train-5b9d2");
    CHECK(doc["evictionUnderWay"]["explainedBy"][0]["preemptor"]["name"] == "job-urgent-7c4e1");
  }
  SECTION("an admitted Workload not being evicted has no evictionUnderWay") {
    auto doc = json_of(file("kueue.yaml"), "team-a/urgent");
    CHECK(doc["victim"]["name"] == "job-urgent-7c4e1");
    CHECK(doc.find("evictionUnderWay") == doc.end());
  }
}

TEST_CASE("victim says what it tried for a name it cannot find", "[cli][victim][under-way]") {
  SECTION("a misspelt Job") {
    Run r = kpreempt::test::run_binary(
        "explain --no-cache -f " + k_dir + "kueue.yaml --victim team-a/trian", true);
    CHECK(r.code == 2);
    CHECK(r.out ==
          "kpreempt: error: no Pod, Workload or object owning a Workload team-a/trian in the "
          "input; did you mean team-a/train?\n");
  }
  SECTION("a misspelt Workload") {
    Run r = kpreempt::test::run_binary(
        "explain --no-cache -f " + k_dir + "kueue.yaml --victim workload/team-a/trian", true);
    CHECK(r.code == 2);
    CHECK(r.out ==
          "kpreempt: error: no Workload team-a/trian in the input; did you mean "
          "workload/team-a/train?\n");
  }
  SECTION("a pending Workload") {
    Run r = kpreempt::test::run_binary(
        "explain --no-cache -f " + k_dir + "kueue.yaml --victim team-b/big", true);
    CHECK(r.code == 2);
    CHECK(r.out ==
          "kpreempt: error: Workload team-b/job-big-9e3d0 is pending; use --workload "
          "team-b/job-big-9e3d0 to explain it as a preemptor\n");
  }
}

TEST_CASE("victim yaml carries the eviction under way", "[cli][victim][under-way]") {
  Run r = victim(file("nominated.yaml"), "team-a/batch-0", " -o yaml");
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\nevictionUnderWay:\n") != std::string::npos);
  CHECK(r.out.find("stance: waits-for-it\n") != std::string::npos);
}

TEST_CASE("a terminating pod the pending pod's decision lists is explained by it",
          "[cli][victim][under-way]") {
  // Terminating for another reason (no DisruptionTarget): the preemptor stays eligible and
  // lists it as already terminating.
  Run r = kpreempt::test::run_binary(
      "explain --no-cache --now 2026-01-01T00:00:00Z -f "
      "testdata/explain/default/eligible-terminating-non-victim-still-preemptible/cluster.yaml "
      "--victim default/p1",
      false);
  REQUIRE(r.code == 0);
  CHECK(
      r.out.starts_with("Pod default/p1  priority 0 (low-priority)  on node1\n"
                        "\n"
                        "eviction under way\n"
                        "  terminating: deletionTimestamp 2025-12-31T23:59:30Z\n"
                        "  explained by default/p (priority 1000), pending, nominated to node1\n"
                        "    POLICY   STANCE    REASON\n"
                        "    default  lists it  already-terminating\n"
                        "\n"
                        "decision of default/p\n"));
}
