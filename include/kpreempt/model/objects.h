// SPDX-License-Identifier: Apache-2.0
// The Kubernetes objects kpreempt reads, reduced to the fields some policy or lint rule needs.
// Field names follow the API; comments give the API path when it is not obvious.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/atom.h"
#include "kpreempt/model/quantity.h"
#include "kpreempt/model/time.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kpreempt::model {

// key -> value, sorted by key, keys unique. Atoms: a dump repeats its label keys and values
// over and over.
using StringMap = std::vector<std::pair<Atom, Atom>>;
const std::string* find(const StringMap& m, std::string_view key);
// Sets `key` to `value`, keeping the map sorted by key.
void set(StringMap& m, const std::string& key, std::string value);

// resource name -> quantity, sorted by name, names unique.
using ResourceList = std::vector<std::pair<Atom, Quantity>>;
Quantity get(const ResourceList& r, std::string_view name);  // absent = 0

struct ObjectRef {
  std::string kind;        // "Pod", "Workload", ...
  std::string namespace_;  // empty for cluster-scoped objects
  std::string name;
  friend auto operator<=>(const ObjectRef&, const ObjectRef&) = default;
};
std::string to_string(const ObjectRef& r);  // "Pod/ns/name", or "Node/name"

// Whether a pod annotation is one a policy reads: the schedulers' own domains (Kueue, YuniKorn,
// Koordinator, scheduler-plugins), YuniKorn's bare applicationId, queue and
// spark-app-selector keys, and the Job controller's batch.kubernetes.io (a cascade). The
// others are dropped when a pod is read, so that a snapshot and its cache hold no more of a
// pod than answers use. A policy that reads another key adds it here.
bool kept_pod_annotation(std::string_view key);

// metav1.LabelSelectorRequirement / v1.NodeSelectorRequirement. Operators are stored as
// written; In NotIn Exists DoesNotExist for label selectors, plus Gt Lt for node selectors.
struct Requirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;
};

// metav1.LabelSelector. `present` is false for a nil selector (which matches nothing in the
// places kpreempt uses it: PDBs, affinity terms, spread constraints).
struct LabelSelector {
  bool present = false;
  StringMap match_labels;
  std::vector<Requirement> match_expressions;
};

struct NodeSelectorTerm {
  std::vector<Requirement> match_expressions;  // against node labels
  std::vector<Requirement> match_fields;       // only metadata.name is supported upstream
};

struct Taint {
  Atom key, value, effect;  // effect: NoSchedule, PreferNoSchedule, NoExecute
};

struct Toleration {
  Atom key, op, value, effect;  // op: Equal (default) or Exists; empty effect = all
};

struct PodAffinityTerm {
  LabelSelector label_selector;
  std::vector<std::string> namespaces;
  std::optional<LabelSelector> namespace_selector;
  std::string topology_key;
};

struct TopologySpreadConstraint {
  std::int32_t max_skew = 1;
  std::string topology_key;
  std::string when_unsatisfiable;  // DoNotSchedule | ScheduleAnyway
  LabelSelector label_selector;
  std::optional<std::int32_t> min_domains;
  std::string node_affinity_policy;  // Honor (default) | Ignore
  std::string node_taints_policy;    // Ignore (default) | Honor
  std::vector<std::string> match_label_keys;
};

struct HostPort {
  std::int32_t port = 0;
  std::string protocol = "TCP";
  std::string host_ip;  // empty = 0.0.0.0
};

struct Container {
  Atom name;
  ResourceList requests;
  std::vector<HostPort> host_ports;
  bool restart_always = false;  // init containers only: a sidecar (restartPolicy: Always)
};

// What the kubelet reports for a resource set of a running pod or container after an in-place
// resize: the scheduler of v1.33+ reads it instead of the spec.
struct ResourceStatus {
  bool has_resources = false;             // status.resources set
  std::optional<ResourceList> requests;   // status.resources.requests
  std::optional<ResourceList> allocated;  // status.allocatedResources
  bool any() const { return has_resources || allocated.has_value(); }
};

// One entry of status.containerStatuses or status.initContainerStatuses.
struct ContainerStatus {
  Atom name;
  bool init = false;  // from initContainerStatuses
  ResourceStatus resources;
};

struct PodCondition {
  Atom type, status, reason;
  std::optional<Instant> last_transition_time;  // null in the API is kept as absent
};

struct OwnerReference {
  Atom kind, name, uid;  // shared by the pods of one owner
  bool controller = false;
};

struct Node {
  std::string name;
  StringMap labels;
  bool unschedulable = false;
  std::vector<Taint> taints;
  ResourceList allocatable;
  bool has_allocatable_pods = false;  // status.allocatable.pods present
  SourceLoc loc;
};

// The texts pods share (namespace, node, class, phase...) are atoms; name and uid are the
// pod's own.
struct Pod {
  Atom namespace_;
  std::string name, uid;
  StringMap labels;
  StringMap annotations;  // only those kept_pod_annotation() keeps
  std::vector<OwnerReference> owners;
  std::optional<Instant> creation_timestamp, deletion_timestamp;

  Atom node_name;                        // spec.nodeName; empty = pending
  std::optional<std::int32_t> priority;  // spec.priority as written
  Atom priority_class_name;
  Atom preemption_policy;                     // spec.preemptionPolicy as written; may be empty
  Atom scheduler_name;                        // empty when the manifest does not say
  std::vector<std::string> scheduling_gates;  // spec.schedulingGates[].name
  // spec.resourceClaims: the ResourceClaim or ResourceClaimTemplate each entry names.
  std::vector<ObjectRef> resource_claims;
  StringMap node_selector;
  std::vector<NodeSelectorTerm> required_node_affinity;  // ORed terms; empty = none
  bool has_required_node_affinity = false;  // a present but empty term list matches nothing
  std::vector<PodAffinityTerm> required_pod_affinity, required_pod_anti_affinity;
  std::vector<Toleration> tolerations;
  std::vector<TopologySpreadConstraint> topology_spread;
  std::vector<Container> containers, init_containers;
  ResourceList overhead;
  ResourceList pod_level_requests;  // spec.resources.requests

  Atom phase;  // status.phase
  std::optional<Instant> start_time;
  Atom nominated_node_name;
  std::vector<PodCondition> conditions;  // the first DisruptionTarget and PodScheduled only
  std::vector<ContainerStatus> container_statuses;  // with resources only, containers first
  ResourceStatus pod_status_resources;              // pod-level status.resources and allocated
  // The first PodResizePending condition has reason Infeasible (IsPodResizeInfeasible).
  bool resize_infeasible = false;
  // Some PodResizePending condition has reason Infeasible, or the deprecated status.resize
  // says Infeasible: YuniKorn's shim reads both.
  bool resize_infeasible_any = false;
  SourceLoc loc;

  bool terminating() const { return deletion_timestamp.has_value(); }
  // Compared as views: a phase of another length is told apart without reading its bytes,
  // and dry runs ask this of every pod they take off a node.
  bool terminal() const {
    const std::string_view p = phase.view();
    return p == "Succeeded" || p == "Failed";
  }
  // Waiting for a node: the one definition of a pod that can preempt (not yet bound, not
  // finished). A batch over the dump also skips terminating ones, which upstream never
  // schedules.
  bool pending() const { return node_name.empty() && !terminal(); }
};

// The owner reference marked controller (the ReplicaSet, Job, ... that makes the pod), or
// nullptr.
const OwnerReference* controller_of(const Pod& pod);

struct PriorityClass {
  std::string name;
  std::int32_t value = 0;
  bool global_default = false;
  std::string preemption_policy;  // empty = PreemptLowerPriority
  StringMap annotations;
  SourceLoc loc;
};

struct PodDisruptionBudget {
  std::string namespace_, name;
  LabelSelector selector;
  bool selector_valid = true;            // an unparsable selector is ignored upstream
  std::int32_t disruptions_allowed = 0;  // status.disruptionsAllowed, absent = 0
  bool has_status = false;
  std::vector<std::string> disrupted_pods;  // status.disruptedPods keys, sorted
  SourceLoc loc;
};

// One profile of a KubeSchedulerConfiguration: the scheduler name pods ask for with
// spec.schedulerName, and whether its PostFilter runs DefaultPreemption.
struct SchedulerProfile {
  std::string scheduler_name;        // default-scheduler when the profile leaves it out
  bool preemption_disabled = false;  // plugins.postFilter.disabled: DefaultPreemption or "*"
  // scheduler-plugins' CapacityScheduling enabled (multiPoint, preFilter or postFilter): the
  // `capacity` policy decides the profile's pods.
  bool capacity_scheduling = false;
  SourceLoc loc;
};

// DefaultPreemption args from a KubeSchedulerConfiguration in the dump (pluginConfig), as
// key -> value strings; --set values override them. Profiles of every configuration read.
struct SchedulerConfig {
  StringMap plugin_args;  // "DefaultPreemption.minCandidateNodesPercentage" -> "10"
  std::vector<SchedulerProfile> profiles;
  SourceLoc loc;
};

// An object that holds back admission or placement in a way no policy models (Kueue
// admission checks, MultiKueue, DRA claims): explanations warn that they ignore it.
struct UnmodelledGate {
  std::string family;  // the policy family it concerns: "kueue", or "" for every policy
  ObjectRef ref;
  std::string what;  // "admission check", "ProvisioningRequest", "MultiKueue"...
  SourceLoc loc;
};

}  // namespace kpreempt::model
