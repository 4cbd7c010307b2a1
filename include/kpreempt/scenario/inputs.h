// SPDX-License-Identifier: Apache-2.0
// The one way in: cluster dumps (YAML, JSON, folders, stdin, snapshot files, the cache) and
// what-if manifests become one snapshot and its what-if preemptors, for every command.
#pragma once

#include "kpreempt/cache/cache.h"
#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/scenario/overlay.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kpreempt::scenario {

struct InputSpec {
  std::vector<std::string> files;  // -f, or a scenario's cluster files, in order
  bool recursive = false;          // -R
  // --pod-file or a scenario's podFile: pods, and controllers (Deployment, ReplicaSet,
  // StatefulSet, DaemonSet, Job, CronJob) as the pods they would create.
  std::vector<std::string> pod_files;
  std::string pod_file_key = "--pod-file";  // how messages name them ("preemptor.podFile")
  cache::Mode cache = cache::Mode::automatic;
  load::LoadProgress* progress = nullptr;  // watched by a progress line, when not null
  // A configuration laid over the -f inputs (`kpreempt diff`): the -f objects `replaced`
  // names are left out, then `overlay` is read. The cache is not used.
  std::vector<ConfigInput> overlay;
  const std::unordered_set<std::string>* replaced = nullptr;
};

struct LoadedInputs {
  model::Snapshot snapshot;
  // Pods read from the pod files, in order, then those made from their DaemonSets.
  std::vector<model::ObjectRef> what_if_pods;
  // Kueue Workloads derived from Jobs of the pod files (indexes into kueue().workloads).
  std::vector<std::uint32_t> what_if_workloads;
};

// What a pod file may hold, for messages about one that holds none of it.
inline constexpr std::string_view k_pod_file_kinds =
    "no Pod, nor a Deployment, ReplicaSet, StatefulSet, DaemonSet, Job or CronJob with pods to "
    "create, nor a Kueue-labelled job (JobSet, Kubeflow job, TrainJob, RayJob, RayCluster, "
    "LeaderWorkerSet, AppWrapper)";

// Loads and freezes the inputs. Every problem goes to `diags`; the result is only meaningful
// when none of them is an error. Pod files that yield no preemptor are an error.
LoadedInputs load_inputs(const InputSpec& spec, std::vector<Diagnostic>& diags);

// The -f inputs alone, as the content of a snapshot file: loading and build() diagnostics kept
// apart (`kpreempt snapshot`). Cache problems become warnings in `notes`.
cache::SnapshotFile load_dump(const InputSpec& spec, std::vector<Diagnostic>& notes);

}  // namespace kpreempt::scenario
