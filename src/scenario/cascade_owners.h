// SPDX-License-Identifier: Apache-2.0
// What the owners of a round's victims do with them before the next round: a ReplicaSet,
// StatefulSet or DaemonSet makes the pod again; a Job does while its failure accounting allows
// (backoffLimit, backoffLimitPerIndex, podFailurePolicy); Kueue queues an evicted Workload
// again at once; a bare pod is gone.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/model/snapshot_edit.h"
#include "kpreempt/render/cascade.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kpreempt::scenario {

// A victim as a cascade names it: "ns/name" for a pod, "Workload ns/name" otherwise.
std::string ref_text(const model::ObjectRef& r);

// One victim and how it went: kube-scheduler and the schedulers built on its preemption
// (Koordinator, CapacityScheduling) set a DisruptionTarget condition on the pods they preempt;
// YuniKorn's shim deletes them without one (yunikorn-k8shim pkg/client SchedulerKubeClient
// Delete), so no podFailurePolicy rule on that condition matches its victims.
struct Eviction {
  model::ObjectRef victim;
  bool disruption_target = true;
};

class Owners {
 public:
  // `backoff_limit`: the limit of a Job that is not in the dump.
  explicit Owners(std::int64_t backoff_limit) : m_backoff_limit(backoff_limit) {}

  // Brings back, through `edit`, what the owners of `evicted` make again; says in `r` what
  // came back and what is gone.
  void bring_back(model::Snapshot& snap, model::SnapshotEdit& edit, model::Instant now,
                  const std::vector<Eviction>& evicted, render::CascadeRound& r);

 private:
  // A Job's accounting as the cascade goes on, from its status when the dump was taken.
  struct JobState {
    std::int64_t failed = 0;
    std::map<std::string, std::int64_t> index_failures;  // completion index -> failures
    std::set<std::string> failed_indexes;
    bool failed_job = false;
    std::string why_failed;
  };
  struct Fate {
    bool again = false;
    std::string text;         // in parentheses after the pod's name
    bool job_failed = false;  // just now: its controller deletes the Job's other pods
  };

  Fate job_fate(const model::Snapshot& snap, const model::Pod& pod, const std::string& job_name,
                const Eviction& e);
  Fate index_failure(const model::Job& job, JobState& s, const model::Pod& pod,
                     const std::string& by, const std::string& fail_index_rule);
  Fate count_failure(const model::Job* job, JobState& s, const std::string& by);
  // Deletes the other live pods of the Job that owns `pod`.
  static void fail_job(model::Snapshot& snap, model::SnapshotEdit& edit, const model::Pod& pod,
                       render::CascadeRound& r);

  std::int64_t m_backoff_limit;
  std::map<std::string, JobState> m_jobs;  // "ns/name"
};

}  // namespace kpreempt::scenario
