// SPDX-License-Identifier: Apache-2.0
// A preemption cascade: every pending preemptor decided in queue order, each by the policy of
// its own scheduler and on the cluster the decisions before it left, round after round; between
// rounds the victims' owners bring them back (a ReplicaSet's or StatefulSet's pod, a Job's while
// its backoff limits and pod failure policy allow, a DaemonSet's on its node) and evicted
// Workloads are queued again. It stops once a round evicts nobody, when a state repeats (a loop) or
// after the last round.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/render/cascade.h"
#include "kpreempt/scenario/sequence.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kpreempt::scenario {

struct CascadeOptions {
  std::size_t rounds = 20;
  // spec.backoffLimit of a Job the dump does not hold (the Job's own fields when it does).
  std::int64_t backoff_limit = 6;
  model::Instant now;
};

// The run that decides a pod (or, with k_none, a Workload); nullptr: none takes it, it is left
// out of every round.
using RunFor =
    std::function<const SequenceRun*(const model::Snapshot&, model::PodId, std::uint32_t)>;

// A second kube-scheduler's name and the policy that decides its pods (a scheduler-plugins
// build running CapacityScheduling next to the default scheduler).
struct NamedScheduler {
  std::string name;
  const policy::Entry* policy = nullptr;
};

// The profiles of the dump's KubeSchedulerConfigurations that enable CapacityScheduling under
// a name of their own, each decided by the `capacity` policy (what --policy all picks).
std::vector<NamedScheduler> capacity_schedulers(const model::Snapshot& snap);

// The policies a cascade runs, each with its args and release line: pods of a named scheduler
// get its policy, other kube-scheduler pods `kube`'s, YuniKorn's and Koordinator's pods
// theirs, Workloads Kueue's.
class CascadePolicies {
 public:
  using ArgsFor = std::function<policy::Args(const policy::Entry&)>;
  // `upstream`: the release lines asked for (--upstream, a scenario's upstream); the dump's
  // scheduler images name the others.
  CascadePolicies(const policy::Entry& kube, const std::vector<NamedScheduler>& named,
                  const ArgsFor& args_for, const std::vector<policy::UpstreamChoice>& upstream,
                  const model::Snapshot& snap, model::Instant now);

  const SequenceRun* run_for(const model::Snapshot& snap, model::PodId pod,
                             std::uint32_t workload) const;
  RunFor runner() const;

 private:
  std::vector<std::unique_ptr<policy::Args>> m_args;
  std::vector<std::unique_ptr<SequenceRun>> m_runs;  // kube, yunikorn, koordinator, kueue, named
  std::vector<std::string> m_named;                  // the names of m_runs[4...]
};

// Runs the cascade on `snap`; `snap` is as before when it returns.
render::Cascade run_cascade(model::Snapshot& snap, const CascadeOptions& o, const RunFor& run_for);

// The state a loop is found by: the pods bound on each node, the pending preemptors and the
// admitted Workloads, as one comparable text.
std::string cascade_state(const model::Snapshot& snap);

// Why the preemptor (`pod`, or with k_none `workload`) may evict the victims of `d`, in one
// sentence of what the snapshot holds: priorities and their classes, the YuniKorn queue over
// its guarantee, the Kueue ClusterQueue's preemption policy, the schedulers sharing the node.
std::string eviction_cause(const model::Snapshot& snap, model::PodId pod, std::uint32_t workload,
                           const policy::Decision& d);

// What every cascade assumes, said with its answer.
std::vector<std::string> cascade_assumptions();

}  // namespace kpreempt::scenario
