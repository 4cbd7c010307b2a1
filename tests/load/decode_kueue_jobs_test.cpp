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

TEST_CASE("a TrainJob becomes the Workload of the JobSet its runtime makes",
          "[load][kueue][kinds][trainjob]") {
  auto loaded = load_text(std::string(k_classes) + fixture("trainjob.yaml"));
  REQUIRE(loaded.messages.empty());
  CHECK(loaded.snapshot.kueue().workloads.size() == 4);  // the unqueued one is not Kueue's
  CHECK(loaded.snapshot.kueue().train_jobs.empty());

  // trainer.numNodes sizes the trainer step; resourcesPerNode replaces the "node" container's
  // values resource by resource.
  const model::Workload& torch = by_name(loaded.snapshot, "trainjob-kueue-example");
  CHECK(shape(torch) == Shape{{"node", 3}});
  CHECK(torch.queue_name == "training-queue");
  const model::KueueContainer& node = torch.pod_sets[0].containers.at(0);
  CHECK(node.requests == model::ResourceList{{"cpu", Quantity::from_units(2)},
                                             {"memory", Quantity::from_units(4LL << 30)}});
  CHECK(node.limits == model::ResourceList{{"cpu", Quantity::from_units(4)},
                                           {"memory", Quantity::from_units(8LL << 30)}});
  REQUIRE(torch.derived_from);
  CHECK(torch.derived_from->kind == "TrainJob");

  // Without numNodes, mlPolicy.numNodes; without resourcesPerNode, the runtime's.
  const model::Workload& defaults = by_name(loaded.snapshot, "trainjob-runtime-defaults");
  CHECK(shape(defaults) == Shape{{"node", 1}});
  CHECK(defaults.pod_sets[0].containers.at(0).requests.at(0).second == Quantity::from_units(1));

  // MPI with the launcher as a node: "node" gets numNodes - 1; the launcher keeps the
  // mlPolicy's count, as the Trainer's MPI plugin leaves it.
  const model::Workload& mpi = by_name(loaded.snapshot, "trainjob-deepspeed-t5");
  CHECK(shape(mpi) == Shape{{"node", 3}, {"launcher", 1}});
  for (const model::KueuePodSet& ps : mpi.pod_sets) {
    CHECK(ps.containers.at(0).limits ==
          model::ResourceList{{"nvidia.com/gpu", Quantity::from_units(1)}});
  }

  // A namespaced runtime: initializers of one pod each, the trainer step's PriorityClass, and
  // the runtime patch's node selector and tolerations on the trainer step only.
  const model::Workload& tune = by_name(loaded.snapshot, "trainjob-fine-tune-llama");
  CHECK(shape(tune) == Shape{{"dataset-initializer", 1}, {"model-initializer", 1}, {"node", 2}});
  CHECK(tune.priority == 1000);
  CHECK(tune.priority_class_name == "high");
  CHECK(tune.pod_sets[2].node_selector ==
        model::StringMap{{"cloud.google.com/gke-accelerator", "nvidia-l4"}});
  CHECK(tune.pod_sets[2].tolerations.size() == 1);
  CHECK(tune.pod_sets[0].node_selector.empty());
}

TEST_CASE("a TrainJob whose runtime is missing: an error for a what-if, a warning in a dump",
          "[load][kueue][kinds][trainjob]") {
  const std::string path =
      std::string(KPREEMPT_TESTDATA) + "/load/kueue-jobs/trainjob-no-runtime.yaml";
  for (bool what_if : {true, false}) {
    model::SnapshotBuilder builder;
    std::vector<Diagnostic> diags;
    LoadOptions opts;
    opts.derive_pods = what_if;
    load_path(path, opts, builder, diags);
    model::Snapshot snap = std::move(builder).build(diags);
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].severity == (what_if ? Severity::error : Severity::warning));
    CHECK_THAT(format(diags[0]),
               Catch::Contains("trainjob-no-runtime.yaml:1:1") &&
                   Catch::Contains("TrainJob ml/mnist: its runtime ClusterTrainingRuntime "
                                   "\"torch-distributed\" is not in the input") &&
                   Catch::Contains("`kubectl get clustertrainingruntimes -o yaml`"));
    CHECK(snap.kueue().workloads.empty());
  }
}

TEST_CASE("a TrainJob whose Workload is in the dump is not derived again",
          "[load][kueue][kinds][trainjob]") {
  auto loaded = load_text(fixture("trainjob-no-runtime.yaml") + R"(---
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata:
  name: trainjob-mnist-5c1e2
  namespace: ml
  ownerReferences:
  - {apiVersion: trainer.kubeflow.org/v1alpha1, kind: TrainJob, name: mnist, uid: u, controller: true}
spec:
  queueName: training-queue
  podSets: [{name: node, count: 2, template: {spec: {containers: [{name: node}]}}}]
)");
  CHECK(loaded.messages.empty());
  REQUIRE(loaded.snapshot.kueue().workloads.size() == 1);
  CHECK(loaded.snapshot.kueue().workloads[0].name == "trainjob-mnist-5c1e2");
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
