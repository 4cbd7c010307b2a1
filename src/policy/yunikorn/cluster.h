// SPDX-License-Identifier: Apache-2.0
// The YuniKorn scheduler's view of a dump: queues with usage, applications, pod resource
// vectors and node capacity, as the k8s shim and yunikorn-core v1.7.0 would hold them.
#pragma once

#include "policy/yunikorn/resources.h"

#include "kpreempt/model/snapshot.h"
#include "kpreempt/model/yunikorn.h"
#include "kpreempt/policy/upstream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::policy::yunikorn {

inline constexpr std::uint32_t k_no_queue = UINT32_MAX;
// On a pod or its PriorityClass: "false" opts its pods out of being preempted, but last.
inline constexpr std::string_view k_allow_preemption = "yunikorn.apache.org/allow-preemption";

// One pod as the core sees it (an Allocation or an AllocationAsk).
struct YkPod {
  bool yk = false;     // schedulerName yunikorn
  bool bound = false;  // nodeName set and not terminal
  std::uint32_t queue = k_no_queue;
  std::string app;
  Res res;                  // pods: 1 + requests
  std::int64_t create = 0;  // creationTimestamp, whole seconds
  std::int32_t priority = 0;
  bool allow_preempt_self = true;
  bool originator = false;
  bool required_node = false;  // a DaemonSet pod pinned to a node
  std::string required_node_name;
  bool preempted = false;  // deletionTimestamp set: already being preempted
};

struct QueueInfo {
  model::YkQueue q;
  Res allocated;   // bound yunikorn pods, rolled up
  Res preempting;  // pods already being preempted, rolled up
};

struct Cluster {
  explicit Cluster(const model::Snapshot& s) : snap(s) {}
  const model::Snapshot& snap;
  bool has_config = false;
  bool preemption_enabled = true;
  bool quota_preemption_enabled = false;  // preemption.quotapreemptionenabled (v1.8)
  struct Rules {
    // YUNIKORN-3113 (v1.8): queue tests look only at the ask's resources, and a victim must
    // fit the ask queue's remaining guarantee.
    bool resource_wise = true;
    bool pod_level_hugepages = true;  // component-helpers v0.34 (v1.8) vs v0.32 (v1.7)
    bool newer_config_keys = true;    // quotapreemptionenabled, usergroupresolver (v1.8)
    bool quota_preemption = true;     // quota_preemptor.go exists (v1.8)
  } rules;
  std::vector<QueueInfo> queues;         // index 0 is root
  ORes root_max;                         // sum of node allocatable
  std::vector<YkPod> pods;               // by PodId
  std::vector<Res> capacity, available;  // by NodeId
  std::vector<std::string> warnings;

  std::optional<std::uint32_t> find_queue(const std::string& path) const;
  bool on_path(std::uint32_t ancestor, std::uint32_t q) const;  // ancestor-or-self
};

// Builds the view. `preemptor` is placed like a new application's pod; when no rule accepts it
// its YkPod::queue stays k_no_queue.
// The one table of what differs between the YuniKorn lines kpreempt models.
Cluster::Rules rules_for(ReleaseLine line);

// `line` selects the release line's rules (v1.7 or v1.8).
Cluster build_cluster(const model::Snapshot& snap, model::PodId preemptor, ReleaseLine line);

// Queue property readers (queue.go): effective values with upstream's fallbacks.
enum class PreemptionPolicy { normal, fence, disabled };
PreemptionPolicy preemption_policy(const model::YkQueue& q);
bool priority_fence(const model::YkQueue& q);
std::int32_t priority_offset(const model::YkQueue& q);
// preemption.delay in nanoseconds: a Go duration > 0, else 30s.
std::int64_t preemption_delay_ns(const model::YkQueue& q);
// preemption.quota.delay in nanoseconds (v1.8): a Go duration > 0, else 0 (quota preemption off).
std::int64_t quota_delay_ns(const model::YkQueue& q);

// SortAllocations' first key (preemption_utilities.go): regular 1, opted out 2, originator 3.
int allocation_type(const YkPod& p);

}  // namespace kpreempt::policy::yunikorn
