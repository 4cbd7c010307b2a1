// SPDX-License-Identifier: Apache-2.0
// The one table of kinds the loader reads. A new kind is one line here and one function.
#include "load/decode.h"

#include <array>

namespace kpreempt::load {

namespace {

constexpr std::array k_kinds{
    KindEntry{"", "Node", false, decode_node},
    KindEntry{"", "Pod", true, decode_pod},
    KindEntry{"scheduling.k8s.io", "PriorityClass", false, decode_priority_class},
    KindEntry{"scheduling.k8s.io", "PodGroup", true, decode_unmodelled},
    KindEntry{"scheduling.k8s.io", "CompositePodGroup", true, decode_unmodelled},
    KindEntry{"scheduling.k8s.io", "Workload", true, decode_unmodelled},
    KindEntry{"policy", "PodDisruptionBudget", true, decode_pdb},
    KindEntry{"kubescheduler.config.k8s.io", "KubeSchedulerConfiguration", false,
              decode_scheduler_config},
    KindEntry{"config.kueue.x-k8s.io", "Configuration", false, decode_kueue_config},
    KindEntry{"kueue.x-k8s.io", "ClusterQueue", false, decode_kueue},
    KindEntry{"kueue.x-k8s.io", "LocalQueue", true, decode_kueue},
    KindEntry{"kueue.x-k8s.io", "ResourceFlavor", false, decode_kueue},
    KindEntry{"kueue.x-k8s.io", "Workload", true, decode_kueue},
    KindEntry{"kueue.x-k8s.io", "WorkloadPriorityClass", false, decode_kueue},
    KindEntry{"kueue.x-k8s.io", "Cohort", false, decode_kueue},
    KindEntry{"kueue.x-k8s.io", "AdmissionCheck", false, decode_unmodelled},
    KindEntry{"kueue.x-k8s.io", "MultiKueueConfig", false, decode_unmodelled},
    KindEntry{"kueue.x-k8s.io", "MultiKueueCluster", false, decode_unmodelled},
    KindEntry{"autoscaling.x-k8s.io", "ProvisioningRequest", true, decode_unmodelled},
    KindEntry{"resource.k8s.io", "ResourceClaim", true, decode_unmodelled},
    KindEntry{"resource.k8s.io", "ResourceClaimTemplate", true, decode_unmodelled},
    KindEntry{"", "Namespace", false, decode_kueue},
    KindEntry{"batch", "Job", true, decode_batch_job},
    KindEntry{"batch", "CronJob", true, decode_controller},
    KindEntry{"jobset.x-k8s.io", "JobSet", true, decode_kueue_job},
    KindEntry{"kubeflow.org", "PyTorchJob", true, decode_kueue_job},
    KindEntry{"kubeflow.org", "TFJob", true, decode_kueue_job},
    KindEntry{"kubeflow.org", "XGBoostJob", true, decode_kueue_job},
    KindEntry{"kubeflow.org", "PaddleJob", true, decode_kueue_job},
    KindEntry{"kubeflow.org", "JAXJob", true, decode_kueue_job},
    KindEntry{"kubeflow.org", "MPIJob", true, decode_kueue_job},
    KindEntry{"ray.io", "RayJob", true, decode_kueue_job},
    KindEntry{"ray.io", "RayCluster", true, decode_kueue_job},
    KindEntry{"leaderworkerset.x-k8s.io", "LeaderWorkerSet", true, decode_kueue_job},
    KindEntry{"trainer.kubeflow.org", "TrainJob", true, decode_kueue_job},
    KindEntry{"trainer.kubeflow.org", "TrainingRuntime", true, decode_training_runtime},
    KindEntry{"trainer.kubeflow.org", "ClusterTrainingRuntime", false, decode_training_runtime},
    KindEntry{"workload.codeflare.dev", "AppWrapper", true, decode_kueue_job},
    KindEntry{"ray.io", "RayService", true, decode_kueue_job},
    KindEntry{"sparkoperator.k8s.io", "SparkApplication", true, decode_kueue_job},
    KindEntry{"apps", "Deployment", true, decode_controller},
    KindEntry{"apps", "ReplicaSet", true, decode_controller},
    KindEntry{"apps", "StatefulSet", true, decode_controller},
    KindEntry{"apps", "DaemonSet", true, decode_daemon_set},
    KindEntry{"", "ConfigMap", true, decode_config_map},  // yunikorn, kueue, scheduler
    KindEntry{"scheduling.sigs.k8s.io", "ElasticQuota", true, decode_koordinator},
    KindEntry{"scheduling.sigs.k8s.io", "PodGroup", true, decode_koordinator},
    KindEntry{"scheduling.x-k8s.io", "ElasticQuota", true, decode_elastic_quota},
};

}  // namespace

const KindEntry* find_kindless(const Field& root) {
  // A bare YuniKorn queues.yaml given with -f: a top-level `partitions:` and no kind.
  static constexpr KindEntry k_queues_yaml{"", "queues.yaml", false, decode_bare_queues_yaml};
  return root["partitions"].present() ? &k_queues_yaml : nullptr;
}

const KindEntry* find_kind(std::string_view api_version, std::string_view kind) {
  // "policy/v1" -> "policy"; "v1" (no slash) is the core group.
  std::size_t slash = api_version.find('/');
  std::string_view group = slash == std::string_view::npos ? "" : api_version.substr(0, slash);
  for (const KindEntry& e : k_kinds) {
    if (e.kind == kind && e.group == group) {
      return &e;
    }
  }
  return nullptr;
}

}  // namespace kpreempt::load
