// SPDX-License-Identifier: Apache-2.0
// Kubeflow Trainer's TrainJob and the runtimes it names, read for Kueue's TrainJob
// integration. A TrainJob's pod sets come from its runtime, which may be read after it, so
// both are kept and joined when the snapshot is built (model::resolve_train_jobs).
#include "load/decode.h"

namespace kpreempt::load {
namespace {

constexpr std::string_view k_ancestor_label = "trainer.kubeflow.org/trainjob-ancestor-step";

model::TrainingRuntimeJob runtime_job(const Field& rj) {
  Field job = rj["template"];
  Field pod_spec = job["spec"]["template"]["spec"];
  model::TrainingRuntimeJob out;
  out.pod_set = build_pod_set(DerivedPodSet{rj["name"].str(), job["spec"]["parallelism"].int32(1),
                                            pod_spec, job["spec"]["parallelism"]});
  out.replicas = rj["replicas"].int32(1);
  const model::StringMap labels = job["metadata"]["labels"].string_map();
  const std::string* ancestor = model::find(labels, k_ancestor_label);
  out.trainer = ancestor != nullptr && *ancestor == "trainer";
  out.priority_class_name = pod_spec["priorityClassName"].str();
  return out;
}

// The fields of a pod spec patch Kueue reads (the others leave the pod sets as they are).
model::TrainJobPodPatch pod_patch(std::string job, const Field& spec) {
  model::KueuePodSet read;
  decode_pod_template(spec, read);
  model::TrainJobPodPatch p;
  p.job = std::move(job);
  p.node_selector = std::move(read.node_selector);
  p.required_node_affinity = std::move(read.required_node_affinity);
  p.has_required_node_affinity = read.has_required_node_affinity;
  p.tolerations = std::move(read.tolerations);
  return p;
}

// runtimePatches (Trainer v2.2 on) and podTemplateOverrides (before it).
std::vector<model::TrainJobPodPatch> pod_patches(const Field& spec) {
  std::vector<model::TrainJobPodPatch> out;
  spec["runtimePatches"].each_item([&](const Field& patch) {
    patch["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"].each_item(
        [&](const Field& rj) {
          out.push_back(pod_patch(rj["name"].str(), rj["template"]["spec"]["template"]["spec"]));
        });
  });
  spec["podTemplateOverrides"].each_item([&](const Field& o) {
    o["targetJobs"].each_item(
        [&](const Field& target) { out.push_back(pod_patch(target["name"].str(), o["spec"])); });
  });
  return out;
}

}  // namespace

void decode_train_job(const Field& root, DecodeContext& ctx) {
  Field spec = root["spec"];
  model::TrainJob tj;
  tj.workload = derived_workload(root, object_name(root), "", ctx);
  Field ref = spec["runtimeRef"];
  tj.runtime_kind = ref["kind"].str("ClusterTrainingRuntime");
  tj.runtime_name = ref["name"].str();
  if (tj.runtime_name.empty()) {
    ref["name"].fail("required field is missing");
  }
  Field trainer = spec["trainer"];
  tj.num_nodes = trainer["numNodes"].opt_int32();
  if (tj.num_nodes && *tj.num_nodes < 1) {
    trainer["numNodes"].fail("must be at least 1");
  }
  Field resources = trainer["resourcesPerNode"];
  tj.requests_per_node = resources["requests"].resource_list();
  tj.limits_per_node = resources["limits"].resource_list();
  tj.patches = pod_patches(spec);
  ctx.out.kueue().train_jobs.push_back(std::move(tj));
}

void decode_training_runtime(const Field& root, DecodeContext& ctx) {
  model::TrainingRuntime rt;
  rt.namespace_ = root["kind"].str() == "TrainingRuntime" ? object_namespace(root) : "";
  rt.name = object_name(root);
  Field spec = root["spec"];
  Field ml = spec["mlPolicy"];
  rt.has_ml_policy = ml.present();
  rt.ml_num_nodes = ml["numNodes"].int32(1);
  rt.mpi = ml["mpi"].present();
  rt.mpi_launcher_as_node = ml["mpi"]["runLauncherAsNode"].boolean();
  spec["template"]["spec"]["replicatedJobs"].each_item(
      [&](const Field& rj) { rt.jobs.push_back(runtime_job(rj)); });
  rt.loc = root.loc();
  ctx.out.kueue().training_runtimes.push_back(std::move(rt));
}

}  // namespace kpreempt::load
