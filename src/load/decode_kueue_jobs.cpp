// SPDX-License-Identifier: Apache-2.0
// Kueue's job integrations beyond batch/v1 Job: each queue-labelled object becomes the
// Workload Kueue would create for it, with the pod sets of the integration's PodSets() in
// kubernetes-sigs/kueue pkg/controller/jobs/<integration> (release-0.19): their names, counts,
// order and templates. One function per kind gives the pod sets; add_derived_workload builds
// the Workload the same way for all.
#include "load/decode.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

namespace kpreempt::load {
namespace {

using PodSets = std::vector<DerivedPodSet>;

constexpr std::int64_t k_mi = 1024 * 1024;

model::Quantity cpu_milli(std::int64_t m) {
  return model::Quantity::from_milli(m);
}
model::Quantity bytes(std::int64_t b) {
  return model::Quantity::from_units(b);
}

// jobset.x-k8s.io JobSet: one pod set per replicatedJob, named after it, of replicas x the
// Job's min(parallelism, completions) pods (jobset PodSets, podsCount).
PodSets jobset_pod_sets(const Field& spec) {
  PodSets out;
  spec["replicatedJobs"].each_item([&](const Field& rj) {
    Field job = rj["template"]["spec"];
    std::int32_t per_replica = job["parallelism"].int32(1);
    per_replica = std::min(per_replica, job["completions"].int32(per_replica));
    Field replicas = rj["replicas"];
    std::int64_t count = std::int64_t{replicas.int32(1)} * per_replica;
    if (count < 0 || count > std::numeric_limits<std::int32_t>::max()) {
      replicas.fail("replicas x pods per Job is out of range");
    }
    out.push_back(DerivedPodSet{rj["name"].str(), static_cast<std::int32_t>(count),
                                job["template"]["spec"], replicas});
  });
  return out;
}

// The training-operator kinds: one pod set per replica type present, in the fixed order of
// the kind's OrderedReplicaTypes, named after the type (lowercased), of replicas pods
// (default 1). MPIJob (v2beta1) has the same shape with Launcher, Worker.
struct ReplicaKind {
  std::string_view kind, specs_field;
  std::array<std::string_view, 5> order;
};

constexpr std::array k_replica_kinds{
    ReplicaKind{"PyTorchJob", "pytorchReplicaSpecs", {"Master", "Worker"}},
    ReplicaKind{"TFJob", "tfReplicaSpecs", {"Chief", "Master", "PS", "Worker", "Evaluator"}},
    ReplicaKind{"XGBoostJob", "xgbReplicaSpecs", {"Master", "Worker"}},
    ReplicaKind{"PaddleJob", "paddleReplicaSpecs", {"Master", "Worker"}},
    ReplicaKind{"JAXJob", "jaxReplicaSpecs", {"Worker"}},
    ReplicaKind{"MPIJob", "mpiReplicaSpecs", {"Launcher", "Worker"}},
};

PodSets replica_pod_sets(const Field& spec, const ReplicaKind& k) {
  PodSets out;
  Field specs = spec[k.specs_field];
  for (std::string_view type : k.order) {
    Field r = specs[type];
    if (type.empty() || !r.present()) {
      continue;
    }
    out.push_back(DerivedPodSet{std::string(type), r["replicas"].int32(1), r["template"]["spec"],
                                r["replicas"]});
  }
  return out;
}

// KubeflowJob.PriorityClass / MPIJob.PriorityClass: runPolicy.schedulingPolicy.priorityClass,
// else the first replica type's template class (which the default rule gives too).
std::optional<std::string> run_policy_class(const Field& spec) {
  std::string c = spec["runPolicy"]["schedulingPolicy"]["priorityClass"].str();
  return c.empty() ? std::nullopt : std::optional<std::string>(c);
}

// KubeRay's sidecars, as Kueue accounts for them (raycluster/common.go, rayjob_controller.go).
model::KueueContainer fixed_container(std::string name, std::int64_t cpu_req_m,
                                      std::int64_t mem_req, std::int64_t cpu_lim_m,
                                      std::int64_t mem_lim) {
  return model::KueueContainer{std::move(name),
                               {{"cpu", cpu_milli(cpu_req_m)}, {"memory", bytes(mem_req)}},
                               {{"cpu", cpu_milli(cpu_lim_m)}, {"memory", bytes(mem_lim)}}};
}

model::KueueContainer default_submitter() {
  return fixed_container("ray-job-submitter", 500, 200 * k_mi, 1000, 1024 * k_mi);
}

// ray.io RayCluster spec (also a RayJob's rayClusterSpec): "head" of 1 pod, then one pod set
// per workerGroupSpec named after groupName, of replicas (default 1) x numOfHosts pods;
// minReplicas and maxReplicas are not read (BuildPodSets, effectiveWorkerCount).
PodSets ray_cluster_pod_sets(const Field& cluster, const model::StringMap& annotations) {
  Field head = cluster["headGroupSpec"];
  DerivedPodSet h{"head", 1, head["template"]["spec"], head};
  // GCS fault tolerance: the head's Ray container must fit KubeRay's Redis cleanup Job.
  const std::string* ft = model::find(annotations, "ray.io/ft-enabled");
  if (cluster["gcsFaultToleranceOptions"].present() || (ft != nullptr && *ft == "true")) {
    h.first_container_floor = {{"cpu", cpu_milli(200)}, {"memory", bytes(256 * k_mi)}};
  }
  if (cluster["enableInTreeAutoscaling"].boolean()) {
    Field res = cluster["autoscalerOptions"]["resources"];
    h.injected.push_back(res.present()
                             ? model::KueueContainer{"autoscaler", res["requests"].resource_list(),
                                                     res["limits"].resource_list()}
                             : fixed_container("autoscaler", 500, 512 * k_mi, 500, 512 * k_mi));
  }
  PodSets out{h};
  cluster["workerGroupSpecs"].each_item([&](const Field& g) {
    std::int64_t count = g["replicas"].int32(1);
    if (std::int32_t hosts = g["numOfHosts"].int32(1); hosts > 1) {
      count *= hosts;
    }
    if (count < 0 || count > std::numeric_limits<std::int32_t>::max()) {
      g["replicas"].fail("replicas x numOfHosts is out of range");
    }
    out.push_back(DerivedPodSet{g["groupName"].str(), static_cast<std::int32_t>(count),
                                g["template"]["spec"], g["replicas"]});
  });
  return out;
}

// RayJob: its cluster's pod sets, then by submissionMode (K8sJobMode when unset, the CRD's
// default): K8sJobMode adds "submitter" (1 pod, submitterPodTemplate or KubeRay's default
// submitter), SidecarMode adds the default submitter container to the head, others nothing.
PodSets ray_job_pod_sets(const Field& root, DecodeContext& ctx) {
  Field spec = root["spec"];
  Field cluster = spec["rayClusterSpec"];
  if (!cluster.present()) {
    ctx.warn(root, fmt::format("not modelled: RayJob {}/{} runs on an existing RayCluster "
                               "(clusterSelector); Kueue manages that cluster, not the job",
                               object_namespace(root), object_name(root)));
    return {};
  }
  PodSets out = ray_cluster_pod_sets(cluster, root["metadata"]["annotations"].string_map());
  std::string mode = spec["submissionMode"].str("K8sJobMode");
  if (mode == "K8sJobMode") {
    Field tmpl = spec["submitterPodTemplate"];
    DerivedPodSet s{"submitter", 1, tmpl["spec"], spec["submissionMode"]};
    if (!tmpl.present()) {
      s.injected.push_back(default_submitter());
    }
    out.push_back(std::move(s));
  } else if (mode == "SidecarMode") {
    out.front().injected.push_back(default_submitter());
  }
  return out;
}

// leaderworkerset.x-k8s.io LeaderWorkerSet: one Workload per group, named
// leaderworkerset-<name>-<index>; with a leaderTemplate, "leader" (1) and "worker" (size - 1),
// else "main" (size) (leaderworkerset_reconciler.go podSets).
void derive_lws(const Field& root, DecodeContext& ctx) {
  Field spec = root["spec"];
  Field lwt = spec["leaderWorkerTemplate"];
  std::int32_t size = lwt["size"].int32(1);
  PodSets sets;
  if (lwt["leaderTemplate"].present()) {
    sets.push_back(DerivedPodSet{"leader", 1, lwt["leaderTemplate"]["spec"], lwt["size"]});
    sets.push_back(DerivedPodSet{"worker", size - 1, lwt["workerTemplate"]["spec"], lwt["size"]});
  } else {
    sets.push_back(DerivedPodSet{"main", size, lwt["workerTemplate"]["spec"], lwt["size"]});
  }
  std::int32_t replicas = spec["replicas"].int32(1);
  const std::string name = object_name(root);
  for (std::int32_t i = 0; i < replicas; ++i) {
    add_derived_workload(root, fmt::format("{}-{}", name, i), sets, std::nullopt, ctx);
  }
}

const ReplicaKind* find_replica_kind(std::string_view kind) {
  for (const ReplicaKind& k : k_replica_kinds) {
    if (k.kind == kind) {
      return &k;
    }
  }
  return nullptr;
}

}  // namespace

void decode_kueue_job(const Field& root, DecodeContext& ctx) {
  const std::string kind = root["kind"].str();
  if (!kueue_queue(root)) {
    // Not managed by Kueue: nothing in kpreempt runs these operators' pods.
    ctx.out.count_skipped(kind);
    return;
  }
  const std::string name = object_name(root);
  Field spec = root["spec"];
  if (kind == "TrainJob") {
    decode_train_job(root, ctx);
    return;
  }
  if (kind == "RayService" || kind == "SparkApplication") {
    // Kueue reads a RayService's pod sets from the RayCluster it makes, a SparkApplication's
    // from the driver and executor pods the operator makes.
    if (ctx.derive_pods) {
      ctx.warn(root, fmt::format("not modelled: Kueue would admit {} {}/{} as a Workload "
                                 "kpreempt cannot derive; pass its Workload",
                                 kind, object_namespace(root), name));
    } else {
      ctx.out.count_skipped(kind);  // its Workload, once Kueue made it, is in the dump
    }
    return;
  }
  if (kind == "LeaderWorkerSet") {
    derive_lws(root, ctx);
    return;
  }
  PodSets sets;
  std::optional<std::string> priority_class;
  if (kind == "JobSet") {
    sets = jobset_pod_sets(spec);
  } else if (kind == "AppWrapper") {
    sets = appwrapper_pod_sets(root);
  } else if (const ReplicaKind* k = find_replica_kind(kind)) {
    sets = replica_pod_sets(spec, *k);
    priority_class = run_policy_class(spec);
  } else if (kind == "RayCluster") {
    sets = ray_cluster_pod_sets(spec, root["metadata"]["annotations"].string_map());
  } else if (kind == "RayJob") {
    sets = ray_job_pod_sets(root, ctx);
  }
  if (sets.empty()) {
    return;
  }
  add_derived_workload(root, name, sets, priority_class, ctx);
}

}  // namespace kpreempt::load
