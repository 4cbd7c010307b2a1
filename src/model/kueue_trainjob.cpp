// SPDX-License-Identifier: Apache-2.0
// Kueue's TrainJob integration (pkg/controller/jobs/trainjob) asks the Kubeflow Trainer runtime
// for the JobSet it would make and takes that JobSet's pod sets. What decides them, from
// kubeflow/trainer pkg/runtime: the runtime's replicated Jobs in order; each counts its
// parallelism, the trainer step counts mlPolicy.numNodes, then the ML policy plugins set the
// trainer step (the "node" Job under MPI, less one for a launcher run as a node) to the
// TrainJob's trainer.numNodes; resourcesPerNode merges into the trainer step's "node"
// container per resource; Kueue sets each Job's parallelism and completions to that count, and
// the JobSet integration counts replicas x count pods.
#include "kpreempt/model/kueue.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace kpreempt::model {
namespace {

const TrainingRuntime* find_runtime(const KueueObjects& k, const TrainJob& tj) {
  // runtimeRef.kind defaults to ClusterTrainingRuntime; a TrainingRuntime is the TrainJob's
  // namespace's.
  const bool cluster = tj.runtime_kind != "TrainingRuntime";
  const std::string ns = cluster ? "" : tj.workload.namespace_;
  for (const TrainingRuntime& r : k.training_runtimes) {
    if (r.name == tj.runtime_name && r.namespace_ == ns) {
      return &r;
    }
  }
  return nullptr;
}

bool has_own_workload(const KueueObjects& k, const TrainJob& tj) {
  const ObjectRef self{"TrainJob", tj.workload.namespace_, tj.workload.derived_from->name};
  return std::any_of(k.workloads.begin(), k.workloads.end(),
                     [&](const Workload& w) { return w.owner == self; });
}

// Sets `key` to `value` in a list of pairs: replaced where the key is, appended otherwise.
template <class Pairs, class Value>
void upsert(Pairs& pairs, const std::string& key, const Value& value) {
  auto at =
      std::find_if(pairs.begin(), pairs.end(), [&key](const auto& e) { return e.first == key; });
  if (at != pairs.end()) {
    at->second = value;
  } else {
    pairs.emplace_back(key, value);
  }
}

void merge_resources(ResourceList& into, const ResourceList& over) {
  for (const auto& [name, q] : over) {
    upsert(into, name, q);
  }
}

void apply_resources(const TrainJob& tj, KueuePodSet& ps) {
  for (KueueContainer& c : ps.containers) {
    if (c.name == "node") {
      merge_resources(c.requests, tj.requests_per_node);
      merge_resources(c.limits, tj.limits_per_node);
      return;
    }
  }
}

// A strategic merge patch of the pod spec: nodeSelector merges per key; tolerations and the
// required node affinity terms have no merge key, so a patch's list replaces the template's.
void apply_patch(const TrainJobPodPatch& p, KueuePodSet& ps) {
  for (const auto& [key, value] : p.node_selector) {
    upsert(ps.node_selector, key, value);
  }
  std::sort(ps.node_selector.begin(), ps.node_selector.end());
  if (!p.tolerations.empty()) {
    ps.tolerations = p.tolerations;
  }
  if (p.has_required_node_affinity) {
    ps.required_node_affinity = p.required_node_affinity;
    ps.has_required_node_affinity = true;
  }
}

struct Step {
  const TrainingRuntimeJob* job;
  KueuePodSet pod_set;
  std::int32_t count;
};

std::vector<Step> runtime_steps(const TrainingRuntime& rt, const TrainJob& tj) {
  std::vector<Step> steps;
  for (const TrainingRuntimeJob& j : rt.jobs) {
    Step s{&j, j.pod_set, j.pod_set.count};
    const bool trainer_step = j.trainer && rt.has_ml_policy;
    if (trainer_step) {
      s.count = rt.ml_num_nodes;
    }
    const bool launcher_as_node = rt.mpi && rt.mpi_launcher_as_node && j.pod_set.name == "node";
    if (trainer_step || launcher_as_node) {  // an empty resourcesPerNode changes nothing
      apply_resources(tj, s.pod_set);
    }
    for (const TrainJobPodPatch& p : tj.patches) {
      if (p.job == j.pod_set.name) {
        apply_patch(p, s.pod_set);
      }
    }
    steps.push_back(std::move(s));
  }
  return steps;
}

// The ML policy plugins' EnforceMLPolicy: MPI sizes the Job named "node"; torch, JAX and the
// plain policy size the first trainer step.
void apply_num_nodes(const TrainingRuntime& rt, const TrainJob& tj, std::vector<Step>& steps) {
  if (!tj.num_nodes) {
    return;
  }
  const std::int32_t n = *tj.num_nodes;
  for (Step& s : steps) {
    if (rt.mpi && s.pod_set.name == "node") {
      s.count = rt.mpi_launcher_as_node ? std::max(n - 1, 1) : n;
      return;
    }
    if (!rt.mpi && s.job->trainer) {
      s.count = n;
      return;
    }
  }
}

std::string missing_runtime(const TrainJob& tj) {
  const bool cluster = tj.runtime_kind != "TrainingRuntime";
  return fmt::format(
      "TrainJob {}/{}: its runtime {} \"{}\" is not in the input; Kueue reads the TrainJob's pod "
      "sets from it (`kubectl get {} -o yaml` prints it)",
      tj.workload.namespace_, tj.workload.derived_from->name,
      cluster ? "ClusterTrainingRuntime" : "TrainingRuntime", tj.runtime_name,
      cluster ? "clustertrainingruntimes"
              : fmt::format("trainingruntimes -n {}", tj.workload.namespace_));
}

// The Workload of one TrainJob, or a diagnostic when it cannot be built.
std::optional<Workload> train_job_workload(const TrainingRuntime& rt, const TrainJob& tj,
                                           std::vector<Diagnostic>& diags) {
  std::vector<Step> steps = runtime_steps(rt, tj);
  apply_num_nodes(rt, tj, steps);
  Workload w = tj.workload;
  for (Step& s : steps) {
    const std::int64_t count = std::int64_t{s.job->replicas} * s.count;
    if (count < 0 || count > std::numeric_limits<std::int32_t>::max()) {
      diags.push_back({Severity::error, tj.workload.loc,
                       fmt::format("TrainJob {}/{}: replicated Job {}: replicas x pods per Job is "
                                   "out of range",
                                   w.namespace_, w.derived_from->name, s.pod_set.name)});
      return std::nullopt;
    }
    s.pod_set.count = static_cast<std::int32_t>(count);
    if (std::string limit = pod_set_limit_error(s.pod_set, count); !limit.empty()) {
      diags.push_back({Severity::error, tj.workload.loc,
                       fmt::format("TrainJob {}/{}: total requests out of range: {}", w.namespace_,
                                   w.derived_from->name, limit)});
      return std::nullopt;
    }
    if (w.priority_from_pod_class && w.priority_class_name.empty() &&
        !s.job->priority_class_name.empty()) {
      w.priority_class_name = s.job->priority_class_name;  // extractPriorityFromPodSets
      w.priority_class_source = std::string(k_pc_source);
    }
    w.pod_sets.push_back(std::move(s.pod_set));
  }
  return w;
}

}  // namespace

void resolve_train_jobs(KueueObjects& k, std::vector<Diagnostic>& diags) {
  std::vector<TrainJob> jobs = std::move(k.train_jobs);
  k.train_jobs.clear();
  for (const TrainJob& tj : jobs) {
    const bool what_if = tj.workload.what_if;
    if (!what_if && has_own_workload(k, tj)) {
      continue;  // Kueue made its Workload already; the dump holds it
    }
    const TrainingRuntime* rt = find_runtime(k, tj);
    if (rt == nullptr) {
      diags.push_back({what_if ? Severity::error : Severity::warning, tj.workload.loc,
                       missing_runtime(tj) + (what_if ? "" : "; its Workload is not derived")});
      continue;
    }
    if (std::optional<Workload> w = train_job_workload(*rt, tj, diags)) {
      k.workloads.push_back(std::move(*w));
    }
  }
}

}  // namespace kpreempt::model
