// SPDX-License-Identifier: Apache-2.0
// What real clusters hold besides the objects policies simulate: pods of other schedulers and
// gated pods, a KubeSchedulerConfiguration kept in a ConfigMap, objects whose admission
// effect is not modelled, and the same object read twice.
#include "load/load_support.h"

#include <catch2/catch.hpp>

namespace kpreempt::load {
namespace {

using testing::load_text;
using testing::real_fixture;
using V = std::vector<std::string>;

constexpr std::string_view k_config_map = R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: scheduler-config
  namespace: kube-system
data:
  config.yaml: |
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - schedulerName: default-scheduler
      pluginConfig:
      - name: DefaultPreemption
        args:
          minCandidateNodesPercentage: 20
    - schedulerName: no-preemption
      plugins:
        postFilter:
          disabled:
          - name: DefaultPreemption
)";

TEST_CASE("a KubeSchedulerConfiguration is read from a ConfigMap's data", "[load][real]") {
  const auto loaded = load_text(k_config_map);
  REQUIRE(loaded.messages.empty());
  const model::SchedulerConfig& c = loaded.snapshot.scheduler_config();
  CHECK(*model::find(c.plugin_args, "DefaultPreemption.minCandidateNodesPercentage") == "20");
  REQUIRE(c.profiles.size() == 2);
  CHECK(c.profiles[0].scheduler_name == "default-scheduler");
  CHECK_FALSE(c.profiles[0].preemption_disabled);
  CHECK(c.profiles[1].scheduler_name == "no-preemption");
  CHECK(c.profiles[1].preemption_disabled);
  CHECK(c.profiles[1].loc.line == 16);  // the profile's line in the dump, not in the value
  CHECK(loaded.snapshot.skipped_kinds().empty());
}

TEST_CASE("a ConfigMap holding something else stays skipped", "[load][real]") {
  const auto loaded = load_text(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kube-root-ca.crt, namespace: a}\n"
      "data:\n  ca.crt: |\n    -----BEGIN CERTIFICATE-----\n");
  REQUIRE(loaded.messages.empty());
  CHECK(loaded.snapshot.skipped_kinds() == model::StringMap{{"ConfigMap", "1"}});
  CHECK(loaded.snapshot.scheduler_config().profiles.empty());
}

TEST_CASE("a configuration without profiles has the default one", "[load][real]") {
  const auto loaded =
      load_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
  REQUIRE(loaded.snapshot.scheduler_config().profiles.size() == 1);
  CHECK(loaded.snapshot.scheduler_config().profiles[0].scheduler_name == "default-scheduler");
}

TEST_CASE("an error inside the embedded configuration names the ConfigMap, key and line",
          "[load][real]") {
  const auto loaded =
      load_text(real_fixture("scheduler-configmap-bad.yaml"), "scheduler-configmap-bad.yaml");
  REQUIRE(loaded.messages.size() == 1);
  const std::string& m = loaded.messages[0];
  INFO(m);
  CHECK(
      m.starts_with("scheduler-configmap-bad.yaml:13: error: ConfigMap "
                    "kube-system/scheduler-config: data[config.yaml]: "));
  CHECK(m.find("required field is missing") != std::string::npos);
}

TEST_CASE("scheduling gates and DRA claims of a pod are read", "[load][real]") {
  const auto loaded = load_text(real_fixture("dra-pod.yaml") +
                                "---\napiVersion: v1\nkind: Pod\nmetadata: {name: g, namespace: "
                                "ml}\nspec:\n  schedulingGates:\n  - name: "
                                "kueue.x-k8s.io/admission\n  containers: [{name: c}]\n");
  REQUIRE(loaded.messages.empty());
  const auto& pods = loaded.snapshot.pods();
  REQUIRE(pods.size() == 2);
  REQUIRE(pods[0].resource_claims.size() == 1);
  CHECK(pods[0].resource_claims[0].kind == "ResourceClaimTemplate");
  CHECK(pods[0].resource_claims[0].name == "single-gpu");
  CHECK(pods[1].scheduling_gates == V{"kueue.x-k8s.io/admission"});
  REQUIRE(loaded.snapshot.unmodelled().size() == 1);
  CHECK(model::to_string(loaded.snapshot.unmodelled()[0].ref) ==
        "ResourceClaimTemplate/ml/single-gpu");
}

TEST_CASE("admission checks and MultiKueue are kept by name", "[load][real]") {
  const auto loaded = load_text(
      "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n"
      "  admissionChecks: [prov]\n---\n"
      "apiVersion: kueue.x-k8s.io/v1beta1\nkind: AdmissionCheck\nmetadata: {name: prov}\n"
      "spec: {controllerName: kueue.x-k8s.io/provisioning-request}\n---\n"
      "apiVersion: kueue.x-k8s.io/v1beta1\nkind: MultiKueueConfig\nmetadata: {name: mk}\n"
      "spec: {clusters: [worker1]}\n");
  REQUIRE(loaded.messages.empty());
  const auto& u = loaded.snapshot.unmodelled();
  REQUIRE(u.size() == 3);
  CHECK(model::to_string(u[0].ref) == "ClusterQueue/cq");
  CHECK(u[0].what == "admission checks prov");
  CHECK(model::to_string(u[1].ref) == "AdmissionCheck/prov");
  CHECK(model::to_string(u[2].ref) == "MultiKueueConfig/mk");
  CHECK(u[2].family == "kueue");
}

constexpr std::string_view k_cq =
    "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: cq}\n"
    "spec:\n  namespaceSelector: {}\n";

TEST_CASE("the same object read twice is merged, whatever its kind", "[load][real]") {
  const std::string cq(k_cq);
  const auto loaded = load_text(cq + "---\n" + cq);
  REQUIRE(loaded.messages.empty());
  CHECK(loaded.snapshot.kueue().cluster_queues.size() == 1);
  CHECK(loaded.snapshot.merged_duplicates() == 1);

  const std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: a, uid: u-1}\nspec:\n"
      "  containers: [{name: c}]\n";
  // A dump and a later one: status moved on, the uid says it is the same pod.
  const auto twice = load_text(pod + "---\n" + pod + "status: {phase: Pending}\n");
  REQUIRE(twice.messages.empty());
  CHECK(twice.snapshot.pods().size() == 1);
}

TEST_CASE("the same name with other content is an error naming both places", "[load][real]") {
  const std::string cq(k_cq);
  const auto loaded =
      load_text(cq + "---\n" + cq + "  cohort: other\n" + "---\n" + cq, "queues.yaml");
  CHECK(loaded.messages ==
        V{"queues.yaml:7:1: error: ClusterQueue cq: duplicate object; first defined at "
          "queues.yaml:1:1, with different content"});
  CHECK(loaded.snapshot.kueue().cluster_queues.size() == 1);
  CHECK(loaded.snapshot.merged_duplicates() == 1);
}

TEST_CASE("pods of one name with different uids conflict", "[load][real]") {
  const auto loaded = load_text(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: a, uid: u-1}\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: a, uid: u-2}\n");
  CHECK(loaded.messages == V{"dump.yaml:5:1: error: Pod a/p: duplicate object; first defined at "
                             "dump.yaml:1:1, with different content"});
}

}  // namespace
}  // namespace kpreempt::load
