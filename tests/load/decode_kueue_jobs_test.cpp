// SPDX-License-Identifier: Apache-2.0
// Kueue's job integrations: JobSet, the Kubeflow jobs, MPIJob, RayJob, RayCluster and
// LeaderWorkerSet labelled with a queue become the Workloads Kueue would create; fixtures
// are shaped after Kueue's site examples.
#include "load/load_support.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

namespace kpreempt::load {
namespace {

using model::Quantity;
using testing::load_text;

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(KPREEMPT_TESTDATA) + "/load/kueue-jobs/" + name, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

constexpr std::string_view k_classes = R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
---
)";

const model::Workload& by_name(const model::Snapshot& s, const std::string& name) {
  for (const model::Workload& w : s.kueue().workloads) {
    if (w.name == name) {
      return w;
    }
  }
  FAIL("no Workload " << name);
  throw;
}

std::vector<std::pair<std::string, std::int32_t>> shape(const model::Workload& w) {
  std::vector<std::pair<std::string, std::int32_t>> out;
  for (const auto& ps : w.pod_sets) {
    out.emplace_back(ps.name, ps.count);
  }
  return out;
}

using Shape = std::vector<std::pair<std::string, std::int32_t>>;

}  // namespace

TEST_CASE("a JobSet becomes one pod set per replicatedJob", "[load][kueue][kinds]") {
  auto loaded = load_text(std::string(k_classes) + fixture("jobset.yaml"));
  REQUIRE(loaded.messages.empty());
  const model::Workload& w = by_name(loaded.snapshot, "jobset-sleep-job");
  CHECK(w.namespace_ == "team-a");
  CHECK(w.queue_name == "user-queue");
  // replicas x min(parallelism, completions); replicas defaults to 1.
  CHECK(shape(w) == Shape{{"workers", 4}, {"driver", 1}});
  CHECK(w.pod_sets[1].containers.at(0).requests.at(0).second == Quantity::from_units(2));
  // The first pod set whose template names a class: the driver's.
  CHECK(w.priority_class_name == "high");
  CHECK(w.priority == 1000);
  REQUIRE(w.derived_from);
  CHECK(w.derived_from->kind == "JobSet");
  CHECK(w.derived_from->name == "sleep-job");
  CHECK_FALSE(w.what_if);
}

TEST_CASE("Kubeflow jobs and MPIJob take their replica types in Kueue's order",
          "[load][kueue][kinds]") {
  auto loaded = load_text(std::string(k_classes) + fixture("kubeflow.yaml"));
  REQUIRE(loaded.messages.empty());
  const model::Workload& py = by_name(loaded.snapshot, "pytorchjob-pytorch-simple");
  CHECK(shape(py) == Shape{{"master", 1}, {"worker", 3}});  // Master first; replicas default 1
  CHECK(py.priority_class_name == "low");
  CHECK(py.priority == 10);
  const model::Workload& tf = by_name(loaded.snapshot, "tfjob-tf-dist");
  CHECK(shape(tf) == Shape{{"chief", 1}, {"ps", 1}, {"worker", 2}});
  CHECK(tf.priority_class_name == "high");  // runPolicy.schedulingPolicy.priorityClass
  CHECK(tf.priority == 1000);
  const model::Workload& mpi = by_name(loaded.snapshot, "mpijob-pi");
  CHECK(shape(mpi) == Shape{{"launcher", 1}, {"worker", 2}});
  CHECK(mpi.priority == 0);
}

TEST_CASE("RayJob and RayCluster: head, worker groups, submitter and sidecars",
          "[load][kueue][kinds]") {
  auto loaded = load_text(fixture("ray.yaml"));
  REQUIRE(loaded.messages.empty());
  const model::Workload& job = by_name(loaded.snapshot, "rayjob-rayjob-sample");
  // replicas x numOfHosts; min/maxReplicas are not read; K8sJobMode by default.
  CHECK(shape(job) == Shape{{"head", 1}, {"small-group", 4}, {"submitter", 1}});
  const auto& submitter = job.pod_sets[2].containers.at(0);
  CHECK(model::get(submitter.requests, "cpu") == Quantity::from_milli(500));
  CHECK(model::get(submitter.requests, "memory") == Quantity::from_units(200 * 1024 * 1024));

  const model::Workload& cluster = by_name(loaded.snapshot, "raycluster-raycluster-complete");
  CHECK(shape(cluster) == Shape{{"head", 1}, {"small-group", 1}});
  const auto& head = cluster.pod_sets[0].containers;
  REQUIRE(head.size() == 2);  // the Ray container and the autoscaler sidecar
  // GCS fault tolerance raises the head to KubeRay's Redis cleanup requests.
  CHECK(model::get(head[0].requests, "cpu") == Quantity::from_milli(200));
  CHECK(model::get(head[0].requests, "memory") == Quantity::from_units(1024 * 1024 * 1024));
  CHECK(head[1].name == "autoscaler");
  CHECK(model::get(head[1].requests, "cpu") == Quantity::from_milli(500));
}

TEST_CASE("a RayJob in SidecarMode adds the submitter to the head", "[load][kueue][kinds]") {
  auto loaded = load_text(R"(apiVersion: ray.io/v1
kind: RayJob
metadata: {name: side, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  submissionMode: SidecarMode
  rayClusterSpec:
    headGroupSpec:
      template: {spec: {containers: [{name: head, resources: {requests: {cpu: "1"}}}]}}
)");
  REQUIRE(loaded.messages.empty());
  const model::Workload& w = by_name(loaded.snapshot, "rayjob-side");
  CHECK(shape(w) == Shape{{"head", 1}});
  CHECK(w.pod_sets[0].containers.size() == 2);
}

TEST_CASE("a LeaderWorkerSet becomes one Workload per group", "[load][kueue][kinds]") {
  auto loaded = load_text(fixture("leaderworkerset.yaml"));
  REQUIRE(loaded.messages.empty());
  CHECK(loaded.snapshot.kueue().workloads.size() == 3);
  for (const char* name :
       {"leaderworkerset-nginx-leaderworkerset-0", "leaderworkerset-nginx-leaderworkerset-1"}) {
    CHECK(shape(by_name(loaded.snapshot, name)) == Shape{{"leader", 1}, {"worker", 2}});
  }
  CHECK(shape(by_name(loaded.snapshot, "leaderworkerset-no-leader-0")) == Shape{{"main", 4}});
}

TEST_CASE("unlabelled job kinds are skipped; TrainJob is not modelled", "[load][kueue][kinds]") {
  const std::string k_text = fixture("trainjob.yaml");
  auto loaded = load_text(k_text);
  CHECK(loaded.messages.empty());
  CHECK(loaded.snapshot.kueue().workloads.empty());

  model::SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  LoadOptions opts;
  opts.derive_pods = true;
  load_path(std::string(KPREEMPT_TESTDATA) + "/load/kueue-jobs/trainjob.yaml", opts, builder,
            diags);
  REQUIRE(diags.size() == 1);
  CHECK_THAT(format(diags[0]),
             Catch::Contains("not modelled: Kueue would admit TrainJob ml/t as a Workload "
                             "kpreempt cannot derive; pass its Workload"));
}

TEST_CASE("a derived Workload gives way to the dumped Workload its object owns",
          "[load][kueue][kinds]") {
  auto loaded = load_text(std::string(fixture("jobset.yaml")) + R"(---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata:
  name: jobset-sleep-job-3f2a1
  namespace: team-a
  ownerReferences:
  - {apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: sleep-job, uid: u, controller: true}
spec:
  queueName: user-queue
  podSets: [{name: workers, count: 4, template: {spec: {containers: [{name: c}]}}}]
)");
  REQUIRE(loaded.messages.empty());
  const auto& wls = loaded.snapshot.kueue().workloads;
  REQUIRE(wls.size() == 1);
  CHECK(wls[0].name == "jobset-sleep-job-3f2a1");
  REQUIRE(wls[0].owner);
  CHECK(wls[0].owner->kind == "JobSet");
}

TEST_CASE("an AppWrapper's pod sets are its components' declared or inferred ones",
          "[load][kueue][kinds]") {
  auto loaded = load_text(fixture("appwrapper.yaml"));
  REQUIRE(loaded.messages.empty());
  // A PyTorchJob without podSets: the AppWrapper library infers Master and Worker.
  const model::Workload& inferred = by_name(loaded.snapshot, "appwrapper-sample-pytorch-job");
  CHECK(shape(inferred) == Shape{{"sample-pytorch-job-0", 1}, {"sample-pytorch-job-1", 1}});
  CHECK(inferred.queue_name == "user-queue");
  // A LeaderWorkerSet, which the library does not know: its podSets name the templates.
  const model::Workload& declared = by_name(loaded.snapshot, "appwrapper-sample-lws");
  CHECK(shape(declared) == Shape{{"sample-lws-0", 2}, {"sample-lws-1", 3}});
  CHECK(declared.pod_sets[1].containers.at(0).requests.at(0).second == Quantity::from_milli(200));
  REQUIRE(declared.derived_from);
  CHECK(declared.derived_from->kind == "AppWrapper");
}

TEST_CASE("an AppWrapper pod set whose path names no pod template is an error at its podSets",
          "[load][kueue][kinds]") {
  auto loaded = load_text(R"(apiVersion: workload.codeflare.dev/v1beta2
kind: AppWrapper
metadata: {name: aw, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  components:
  - podSets: [{path: template.spec.nowhere, replicas: 2}]
    template: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
)");
  REQUIRE(loaded.messages.size() == 1);
  CHECK_THAT(loaded.messages[0],
             Catch::Contains("spec.components[0].podSets: path template.spec.nowhere names no "
                             "pod template"));
}

TEST_CASE("a queue-labelled object whose controller is another Kueue job is left to it",
          "[load][kueue][kinds]") {
  // A JobSet's Jobs carry its labels; Kueue admits the JobSet's Workload, not theirs.
  auto loaded = load_text(R"(apiVersion: batch/v1
kind: Job
metadata:
  name: sleep-job-workers-0
  namespace: team-a
  labels: {kueue.x-k8s.io/queue-name: user-queue}
  ownerReferences:
  - {apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: sleep-job, uid: u, controller: true}
spec:
  template:
    spec:
      containers: [{name: c, resources: {requests: {cpu: 1}}}]
)");
  REQUIRE(loaded.messages.empty());
  CHECK(loaded.snapshot.kueue().workloads.empty());
}

}  // namespace kpreempt::load
