// SPDX-License-Identifier: Apache-2.0
// End-to-end: workload manifests given with --pod-file are explained pod by pod.
#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using kpreempt::test::Run;

constexpr const char* k_demo = "explain -f testdata/demo/cluster.yaml --now 2026-11-22T10:00:00Z ";

}  // namespace

TEST_CASE("a Deployment of two replicas in --pod-file is explained as two pods", "[manifest]") {
  Run r = kpreempt::test::run_binary(
      std::string(k_demo) + "--policy default --pod-file testdata/cli/manifests/deployment.yaml",
      true);
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(kpreempt::test::occurrences(
            r.out, "Pod ml/trainer-next-what-if-0  priority 50000 (training-critical)") == 1);
  CHECK(kpreempt::test::occurrences(
            r.out, "Pod ml/trainer-next-what-if-1  priority 50000 (training-critical)") == 1);
  CHECK(kpreempt::test::occurrences(r.out, "  outcome   ") == 2);
}

TEST_CASE("a StatefulSet and a CronJob in --pod-file become their pods", "[manifest]") {
  Run r = kpreempt::test::run_binary(
      std::string(k_demo) +
          "--policy default -o yaml --pod-file testdata/cli/manifests/statefulset.yaml "
          "--pod-file testdata/cli/manifests/cronjob.yaml",
      false);
  INFO(r.out);
  REQUIRE(r.code == 0);
  for (const char* name :
       {"db-0", "db-1", "db-2", "nightly-report-what-if-0", "nightly-report-what-if-1"}) {
    CHECK(kpreempt::test::occurrences(r.out, std::string("name: ") + name + "\n") >= 1);
  }
  CHECK(kpreempt::test::occurrences(r.out, "name: db-3\n") == 0);
  CHECK(kpreempt::test::occurrences(r.out, "name: nightly-report-what-if-2\n") == 0);
}

TEST_CASE("a bad pod template in --pod-file names the template field", "[manifest]") {
  Run r = kpreempt::test::run_binary(
      std::string(k_demo) + "--pod-file testdata/cli/manifests/bad-template.yaml", true);
  CHECK(r.code == 2);
  CHECK(r.out ==
        "testdata/cli/manifests/bad-template.yaml:14:18: error: Deployment team-a/web: "
        "spec.template.spec.containers[0].resources.requests.cpu: \"1.5.0\" is not a quantity\n");
}

TEST_CASE("a queue-labelled JobSet in --pod-file is explained as the Workload Kueue makes",
          "[manifest][kinds]") {
  Run r = kpreempt::test::run_binary(
      "explain -f testdata/cli/kueue-jobs/cluster.yaml --now 2026-01-02T00:00:00Z "
      "--policy kueue --pod-file testdata/cli/kueue-jobs/jobset.yaml",
      true);
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(kpreempt::test::occurrences(r.out, "team-a/jobset-sleep-job") >= 1);
  CHECK(kpreempt::test::occurrences(r.out, "JobSet/team-a/sleep-job") >= 1);
  // 3 cpu wanted, 2 free: the lower-priority Workload goes. The Job it was made for is in
  // the dump too, and is not counted a second time.
  CHECK(kpreempt::test::occurrences(r.out, "job-batch-low-1a2b3") >= 1);
  CHECK(kpreempt::test::occurrences(r.out, "Workload team-a/job-batch-low ") == 0);
}

TEST_CASE("a queue-labelled TrainJob in --pod-file is sized by the runtime in the dump",
          "[manifest][kinds][trainjob]") {
  Run r = kpreempt::test::run_binary(
      "explain -f testdata/cli/kueue-jobs/cluster.yaml --now 2026-01-02T00:00:00Z "
      "--policy kueue --pod-file testdata/cli/kueue-jobs/trainjob.yaml -o json",
      true);
  INFO(r.out);
  REQUIRE(r.code == 0);
  // Three nodes of 1 cpu at priority 1000: 2 cpu free, so the low-priority Workload goes.
  CHECK(kpreempt::test::occurrences(r.out, "\"name\": \"trainjob-mnist\"") == 1);
  CHECK(kpreempt::test::occurrences(r.out, "(from TrainJob/team-a/mnist)") >= 1);
  CHECK(kpreempt::test::occurrences(r.out, "\"outcome\": \"preempt\"") == 1);
  CHECK(kpreempt::test::occurrences(r.out, "job-batch-low-1a2b3") >= 1);
}

TEST_CASE("pods of a Kueue pod group in --pod-file are admitted as the group's one Workload",
          "[manifest][kinds]") {
  Run r = kpreempt::test::run_binary(
      "explain -f testdata/cli/kueue-jobs/cluster.yaml --now 2026-01-02T00:00:00Z "
      "--policy kueue --pod-file testdata/cli/kueue-jobs/pod-group.yaml -o json",
      false);
  INFO(r.out);
  REQUIRE(r.code == 0);
  // Each member is explained, each as the whole group: 2 cpu on top of the 2 in use.
  CHECK(kpreempt::test::occurrences(
            r.out, "\"summary\": \"Workload/team-a/sample-group (from Pod/team-a/sample-") == 2);
  CHECK(kpreempt::test::occurrences(r.out, "\"usageAfter\": 4000") == 2);
}

TEST_CASE("a pod group's roles are named and ordered by the role hash Kueue wrote",
          "[manifest][kinds]") {
  Run r = kpreempt::test::run_binary(
      "explain -f testdata/cli/kueue-jobs/cluster.yaml --now 2026-01-02T00:00:00Z "
      "--policy kueue --pod-file testdata/cli/kueue-jobs/pod-group-roles.yaml -o json",
      false);
  INFO(r.out);
  REQUIRE(r.code == 0);
  // Upstream sorts the pod sets by name: the workers' hash comes first.
  CHECK(kpreempt::test::occurrences(
            r.out, "flavors 0b7c3d11: cpu=default; e1f4a2b9: cpu=default, within") == 3);
  CHECK(kpreempt::test::occurrences(r.out, "\"warnings\": []") == 3);
  CHECK(kpreempt::test::occurrences(r.out, "role-1") == 0);
}

TEST_CASE("a pod group short of its total count gets no Workload yet", "[manifest][kinds]") {
  Run r = kpreempt::test::run_binary(
      "explain -f testdata/cli/kueue-jobs/cluster.yaml --now 2026-01-02T00:00:00Z "
      "--policy kueue --pod-file testdata/cli/kueue-jobs/pod-group-incomplete.yaml",
      false);
  INFO(r.out);
  REQUIRE(r.code == 0);
  // Both pods' explanations, and the sequence summary's first pending pod.
  CHECK(kpreempt::test::occurrences(r.out, "pod group team-a/sample-group has 2 of its 3 pods") ==
        3);
}

TEST_CASE("a DaemonSet in --pod-file is a pod on each node it would run on, preempting there only",
          "[manifest][daemonset]") {
  const std::string args =
      "explain -f testdata/cli/daemonset/cluster.yaml --now 2026-03-02T10:00:00Z --policy default "
      "--pod-file testdata/cli/daemonset/node-exporter.yaml";
  Run r = kpreempt::test::run_binary(args + " -o json", false);
  INFO(r.out);
  REQUIRE(r.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const nlohmann::json& item : doc["items"]) {
    names.push_back(item["preemptor"]["name"].get<std::string>());
  }
  // gpu-1's taint is not tolerated; the control-plane taint is.
  CHECK(names == std::vector<std::string>{"node-exporter-what-if-cp-1",
                                          "node-exporter-what-if-worker-1",
                                          "node-exporter-what-if-worker-2"});
  for (const nlohmann::json& item : doc["items"]) {
    const std::string name = item["preemptor"]["name"].get<std::string>();
    INFO(name);
    CHECK(item["preemptor"]["namespace"] == "monitoring");
    CHECK(item["preemptor"]["priority"] == 2000001000);
    const nlohmann::json& result = item["results"][0];
    if (name != "node-exporter-what-if-worker-2") {
      CHECK(result["outcome"] == "fits");
      CHECK(result["victims"].empty());
      continue;
    }
    // worker-2 is full of batch pods, and so is gpu-1: the pod pinned to worker-2 evicts there.
    CHECK(result["outcome"] == "preempt");
    CHECK(result["node"] == "worker-2");
    REQUIRE_FALSE(result["victims"].empty());
    for (const nlohmann::json& v : result["victims"]) {
      CHECK(v["node"] == "worker-2");
      CHECK(v["namespace"] == "data");
    }
    for (const nlohmann::json& n : result["nodes"]) {
      if (n["name"] != "worker-2") {
        CHECK(n["code"] == "prefilter-excluded:NodeAffinity");
      }
    }
  }
  Run text = kpreempt::test::run_binary(args, true);
  CHECK(text.code == 0);
  CHECK(kpreempt::test::occurrences(text.out, "what-if-gpu-1") == 0);
  CHECK(kpreempt::test::occurrences(text.out, "warning") == 0);
}

TEST_CASE("a DaemonSet over a snapshot file makes the same pods", "[manifest][daemonset]") {
  const auto kps = std::filesystem::temp_directory_path() / "kpreempt-daemonset-cluster.kps";
  Run made = kpreempt::test::run_binary(
      "snapshot -f testdata/cli/daemonset/cluster.yaml -o " + kps.string(), true);
  REQUIRE(made.code == 0);
  Run r = kpreempt::test::run_binary("explain -f " + kps.string() +
                                         " --now 2026-03-02T10:00:00Z --policy default -o wide "
                                         "--pod-file testdata/cli/daemonset/node-exporter.yaml",
                                     true);
  std::filesystem::remove(kps);
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(kpreempt::test::occurrences(r.out, "Pod monitoring/node-exporter-what-if-") == 3);
  CHECK(kpreempt::test::occurrences(r.out, "outcome   preempt on worker-2") == 1);
}

TEST_CASE("a DaemonSet no node would run is a warning, and the pod file holds no preemptor",
          "[manifest][daemonset]") {
  const auto path = std::filesystem::temp_directory_path() / "kpreempt-daemonset-nowhere.yaml";
  {
    std::ofstream out(path);
    out << "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: ops}\n"
           "spec:\n  template:\n    spec:\n      nodeSelector: {pool: edge}\n"
           "      containers: [{name: agent, image: agent}]\n";
  }
  Run r = kpreempt::test::run_binary(
      "explain -f testdata/cli/daemonset/cluster.yaml "
      "--now 2026-03-02T10:00:00Z --pod-file " +
          path.string(),
      true);
  std::filesystem::remove(path);
  CHECK(r.code == 2);
  CHECK(kpreempt::test::occurrences(
            r.out,
            "warning: DaemonSet ops/agent: no node would run its pod: 4 nodes do not "
            "match its node selector and required node affinity\n") == 1);
  CHECK(kpreempt::test::occurrences(r.out, "error: --pod-file holds no Pod") == 1);
}
