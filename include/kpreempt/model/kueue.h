// SPDX-License-Identifier: Apache-2.0
// Kueue objects (kueue.x-k8s.io): ClusterQueue, Cohort, LocalQueue, ResourceFlavor, Workload,
// WorkloadPriorityClass, and the Namespaces a namespaceSelector needs.
#pragma once

#include "kpreempt/model/objects.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::model {

inline constexpr std::string_view k_kueue_queue_label = "kueue.x-k8s.io/queue-name";
// Pods with this label form one Kueue Workload, admitted all or nothing.
inline constexpr std::string_view k_kueue_pod_group_label = "kueue.x-k8s.io/pod-group-name";
inline constexpr std::string_view k_kueue_priority_label = "kueue.x-k8s.io/priority-class";
inline constexpr std::string_view k_wpc_source = "kueue.x-k8s.io/workloadpriorityclass";
inline constexpr std::string_view k_pc_source = "scheduling.k8s.io/priorityclass";

// One (flavor, resource) entry of a ClusterQueue resource group.
struct KueueQuota {
  std::string resource;
  Quantity nominal;
  std::optional<Quantity> borrowing_limit, lending_limit;
};

struct KueueFlavorQuotas {
  std::string name;  // ResourceFlavor name
  std::vector<KueueQuota> resources;
};

struct KueueResourceGroup {
  std::vector<std::string> covered_resources;
  std::vector<KueueFlavorQuotas> flavors;  // preference order
};

struct ClusterQueue {
  std::string name;
  std::string cohort;  // spec.cohort (v1beta1) or spec.cohortName (v1beta2); empty: none
  std::vector<KueueResourceGroup> resource_groups;
  LabelSelector namespace_selector;  // not present: matches no namespace
  bool namespace_selector_valid = true;
  std::string queueing_strategy = "BestEffortFIFO";
  std::string when_can_borrow = "Borrow";          // Borrow | TryNextFlavor
  std::string when_can_preempt = "TryNextFlavor";  // Preempt | TryNextFlavor
  // flavorFungibility.preference (v0.15+): BorrowingOverPreemption | PreemptionOverBorrowing;
  // empty when unset.
  std::string fungibility_preference;
  std::string within_cluster_queue = "Never";   // Never | LowerPriority | LowerOrNewer...
  std::string reclaim_within_cohort = "Never";  // Never | LowerPriority | Any
  std::string borrow_within_cohort = "Never";   // Never | LowerPriority
  std::optional<std::int32_t> max_priority_threshold;
  std::string stop_policy = "None";
  bool fair_sharing = false;  // spec.fairSharing present
  // spec.fairSharing.weight; unset: 1. Used only when the Kueue Configuration turns fair
  // sharing on.
  std::optional<Quantity> fair_weight;
  SourceLoc loc;
};

struct LocalQueue {
  std::string namespace_, name;
  std::string cluster_queue;
  std::string stop_policy = "None";
  SourceLoc loc;
};

struct ResourceFlavor {
  std::string name;
  StringMap node_labels;
  std::vector<Taint> node_taints;
  std::vector<Toleration> tolerations;
  std::string topology_name;
  SourceLoc loc;
};

struct WorkloadPriorityClass {
  std::string name;
  std::int32_t value = 0;
  SourceLoc loc;
};

struct KueueNamespace {
  std::string name;
  StringMap labels;
  StringMap annotations;  // YuniKorn reads its namespace.* and parentqueue annotations
};

// A Cohort object (v1alpha1 to v1beta2): a node of a cohort tree with quota of its own. Its
// borrowingLimit and lendingLimit apply towards its parent. A cohort a ClusterQueue names
// without an object is a root without quota.
struct KueueCohort {
  std::string name;
  std::string parent;  // spec.parentName (v1alpha1: spec.parent); empty: a root
  std::vector<KueueResourceGroup> resource_groups;
  bool fair_sharing = false;            // spec.fairSharing present
  std::optional<Quantity> fair_weight;  // spec.fairSharing.weight; unset: 1
  SourceLoc loc;
};

// Kueue's fair-sharing preemption strategies. A valid list (pkg/config/validation.go
// validStrategySets) is one of them, or both in this order.
inline constexpr std::string_view k_final_share_strategy = "LessThanOrEqualToFinalShare";
inline constexpr std::string_view k_initial_share_strategy = "LessThanInitialShare";
bool valid_strategy_set(const std::vector<std::string>& names);

// What the kueue policy reads of Kueue's own Configuration (config.kueue.x-k8s.io, kind
// Configuration), usually kept in ConfigMap kueue-system/kueue-manager-config.
struct KueueConfiguration {
  std::string api_version;  // config.kueue.x-k8s.io/v1beta1 or v1beta2
  std::string source;       // "ConfigMap kueue-system/kueue-manager-config", "Configuration"
  // Fair sharing as the controller reads it: v1beta1 fairSharing.enable, v1beta2 the presence
  // of the fairSharing block.
  bool fair_sharing = false;
  // fairSharing.preemptionStrategies after upstream's defaulting (v1beta1: both when unset).
  std::vector<std::string> preemption_strategies;
  SourceLoc loc;
};

// A container of a pod-set template: requests and limits (Kueue falls back to a limit when
// a request is missing).
struct KueueContainer {
  std::string name;
  ResourceList requests, limits;
};

struct KueuePodSet {
  std::string name = "main";
  std::int32_t count = 1;
  std::optional<std::int32_t> min_count;
  std::vector<KueueContainer> containers, init_containers;
  ResourceList overhead;
  StringMap node_selector;
  std::vector<NodeSelectorTerm> required_node_affinity;
  bool has_required_node_affinity = false;
  std::vector<Toleration> tolerations;
};

struct KueuePodSetAssignment {
  std::string name;
  StringMap flavors;  // resource -> flavor
  ResourceList resource_usage;
  std::optional<std::int32_t> count;
};

struct KueueCondition {
  std::string type, status, reason;
  std::optional<Instant> last_transition_time;
  // Kept for Evicted and Preempted only: `explain --victim` quotes them, and the preemption
  // message names the preemptor's UID. Empty for every other type.
  std::string message;
};

struct Workload {
  std::string namespace_, name;
  std::int32_t priority = 0;  // effective priority
  bool admitted = false;      // status.admission present
  SourceLoc loc;

  std::string uid;
  std::optional<Instant> creation_timestamp;
  StringMap annotations;  // workload-slice-replacement-for names the slice it scales up
  std::string queue_name;
  bool active = true;
  std::optional<std::int32_t> spec_priority;
  std::string priority_class_name, priority_class_source;
  std::vector<KueuePodSet> pod_sets;
  std::string admission_cluster_queue;  // status.admission.clusterQueue
  std::vector<KueuePodSetAssignment> assignments;
  std::vector<KueueCondition> conditions;
  std::vector<std::pair<std::string, std::int32_t>> reclaimable_pods;
  // Set when the Workload was derived from another object (a Job, JobSet, PyTorchJob, ...
  // labelled with a queue name): what it came from. `loc` then points at that object.
  std::optional<ObjectRef> derived_from;
  // A derived Workload read from a --pod-file what-if rather than from the dump.
  bool what_if = false;
  // A dumped Workload's controller owner (metadata.ownerReferences with controller: true),
  // in the Workload's namespace: the object Kueue made it for.
  std::optional<ObjectRef> owner;
  // A derived Workload whose priority still has to come from a PriorityClass, resolved
  // against the snapshot by effective_priority().
  bool priority_from_pod_class = false;
};

// One replicated Job of a Kubeflow Trainer runtime's JobSet template: its pod template as a
// pod set whose count is the Job's parallelism (default 1).
struct TrainingRuntimeJob {
  KueuePodSet pod_set;
  std::int32_t replicas = 1;
  bool trainer = false;  // labelled trainer.kubeflow.org/trainjob-ancestor-step: trainer
  std::string priority_class_name;
};

// A TrainingRuntime, or a ClusterTrainingRuntime when namespace_ is empty: what Kueue's TrainJob
// integration reads of it to build the TrainJob's JobSet.
struct TrainingRuntime {
  std::string namespace_, name;
  bool has_ml_policy = false;
  std::int32_t ml_num_nodes = 1;
  bool mpi = false, mpi_launcher_as_node = false;
  std::vector<TrainingRuntimeJob> jobs;
  SourceLoc loc;
};

// What a TrainJob changes in one replicated Job's pod template (runtimePatches, or the older
// podTemplateOverrides): the fields Kueue reads, applied as a strategic merge patch would.
struct TrainJobPodPatch {
  std::string job;
  StringMap node_selector;
  std::vector<NodeSelectorTerm> required_node_affinity;
  bool has_required_node_affinity = false;
  std::vector<Toleration> tolerations;
};

// A queue-labelled TrainJob. Its pod sets come from the runtime it names, which may be read
// after it, so it becomes its Workload when the snapshot is built (resolve_train_jobs).
struct TrainJob {
  Workload workload;  // everything but the pod sets and their PriorityClass; loc: the TrainJob
  std::string runtime_kind, runtime_name;
  std::optional<std::int32_t> num_nodes;
  ResourceList requests_per_node, limits_per_node;
  std::vector<TrainJobPodPatch> patches;
};

struct KueueObjects {
  std::vector<Workload> workloads;  // input order
  std::vector<ClusterQueue> cluster_queues;
  std::vector<LocalQueue> local_queues;
  std::vector<ResourceFlavor> flavors;
  std::vector<WorkloadPriorityClass> priority_classes;
  std::vector<KueueNamespace> namespaces;
  std::vector<KueueCohort> cohorts;
  std::vector<TrainingRuntime> training_runtimes;
  std::vector<TrainJob> train_jobs;          // empty once the snapshot is built
  std::optional<KueueConfiguration> config;  // the last one read
};

std::optional<std::uint32_t> find_workload(const KueueObjects& k, std::string_view ns,
                                           std::string_view name);
const ClusterQueue* find_cluster_queue(const KueueObjects& k, std::string_view name);
const LocalQueue* find_local_queue(const KueueObjects& k, std::string_view ns,
                                   std::string_view name);
const ResourceFlavor* find_flavor(const KueueObjects& k, std::string_view name);
const WorkloadPriorityClass* find_workload_priority_class(const KueueObjects& k,
                                                          std::string_view name);
const KueueNamespace* find_namespace(const KueueObjects& k, std::string_view name);
const KueueCondition* find_condition(const Workload& w, std::string_view type);
bool condition_true(const Workload& w, std::string_view type);
// The time Kueue orders a workload by in its queue (workload.GetQueueOrderTimestamp):
// creation, or the eviction time for a workload evicted by an admission check or a PodsReady
// timeout. One evicted by preemption keeps its creation time.
Instant queue_order_time(const Workload& w);

// Kueue's amounts: cpu in milli-cores, every other resource in whole units rounded up.
std::int64_t kueue_amount(std::string_view resource, Quantity q);
// resource -> amount, ordered by resource name.
using KueueAmounts = std::map<std::string, std::int64_t>;

// Total requests of one pod set for `count` pods: per pod, the container sum (a missing
// request falls back to the limit), raised to any single init container, plus overhead.
// Sums are exact; a total beyond int64 is clamped (the loader refuses such a pod set first,
// see pod_set_limit_error).
KueueAmounts pod_set_requests(const KueuePodSet& ps, std::int64_t count);
// Why pod_set_requests(ps, count) does not fit int64 for some resource (Kueue's int64 sum
// would wrap), naming the resource and the limit; empty when it fits.
std::string pod_set_limit_error(const KueuePodSet& ps, std::int64_t count);

// Turns each TrainJob into the Workload Kueue would create from the JobSet its runtime makes,
// appended to workloads; a TrainJob whose runtime is not in the input is an error when it is
// a what-if and a warning otherwise (its Workload, if Kueue made it, may be in the dump).
void resolve_train_jobs(KueueObjects& k, std::vector<Diagnostic>& diags);

}  // namespace kpreempt::model
