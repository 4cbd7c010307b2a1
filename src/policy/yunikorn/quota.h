// SPDX-License-Identifier: Apache-2.0
// Quota preemption (yunikorn-core v1.8.0 pkg/scheduler/objects/quota_preemptor.go, queue.go
// shouldTriggerPreemption): what it would evict from each managed queue whose usage is above its
// max. Its timer starts at a config reload a dump cannot show, so this answers "if it fires",
// apart from any pending pod's decision: its victims are never a pending pod's victims.
#pragma once

#include "policy/yunikorn/cluster.h"

#include "kpreempt/policy/reason.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kpreempt::policy::yunikorn {

// One pod of a leaf as the run judged it.
struct QuotaPod {
  model::PodId pod = model::k_none;
  Code code{};  // quota_preemption when taken, else why not
  std::string detail;
};

// One leaf's run (tryPreemptionInternal): the excess it enforces and its walk.
struct QuotaLeaf {
  std::uint32_t queue = k_no_queue;
  Res excess;                         // its preemptable resource
  std::optional<Res> base;            // under a parent: what its share was weighed by
  std::vector<QuotaPod> pods;         // candidates in walk order, then the pods filtered out
  std::vector<model::PodId> victims;  // in walk order
  // Runs of candidates that SortAllocations leaves in Go map order (equal, or not comparable).
  std::vector<std::vector<model::PodId>> ties;
};

// A queue quota preemption may fire for, and what its run would take.
struct QuotaQueue {
  std::uint32_t queue = k_no_queue;
  std::string delay;  // preemption.quota.delay as written
  Res max, used, preempting;
  Res excess;                     // setPreemptableResources: empty when preempting covers it
  bool pending_ask = false;       // a pending ask at or below it (TryAllocate only visits those)
  std::vector<QuotaLeaf> leaves;  // the queue itself, or every leaf a parent distributes to
};

// Every managed queue with a quota delay whose usage exceeds its max, in tree order, with the
// run each would start; empty when the partition does not enable quota preemption or the line
// has none (v1.7). Each run is computed on the dump as it is, independently of the others.
// Without `runs`, only the queues and their excess (leaves and pending_ask stay empty).
std::vector<QuotaQueue> quota_preemption(const Cluster& c, bool runs = true);

// SortAllocations on candidates of one leaf; appends the runs whose order upstream leaves to
// chance to `ties`.
void sort_allocations(const Cluster& c, std::vector<model::PodId>& pods,
                      std::vector<std::vector<model::PodId>>& ties);

// getChildQueuesPreemptableResource: the share of `excess` each leaf below `parent` enforces,
// with the |guarantee - usage| (or usage) it was weighed by, in tree order.
struct LeafShare {
  std::uint32_t queue = k_no_queue;
  Res share, base;
};
std::vector<LeafShare> distribute(const Cluster& c, std::uint32_t parent, const Res& excess);

}  // namespace kpreempt::policy::yunikorn
