// SPDX-License-Identifier: Apache-2.0
// Kind decoders: one function per kind, found through one table (kinds.cpp) by API group and
// kind, plus the pieces of API shape several kinds share.
#pragma once

#include "load/value.h"

#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"
#include "kpreempt/model/kueue.h"
#include "kpreempt/model/objects.h"
#include "kpreempt/model/snapshot.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace kpreempt::load {

struct DecodeContext {
  model::SnapshotBuilder& out;
  std::vector<Diagnostic>& diags;
  std::vector<model::ObjectRef>* pods = nullptr;
  bool derive_pods = false;  // LoadOptions::derive_pods: controllers become their pods
  LoadProgress* progress = nullptr;
  // Objects named from metadata.generateName so far, per prefix (name_from_generate_name).
  std::map<std::string, unsigned, std::less<>> generated_names{};
  // Set when the stream held something only the whole file can settle (a List's kind lent
  // to items after them, generated names numbered per file): a part of a split List is then
  // read again with the rest.
  bool whole_stream_only = false;
  std::size_t objects = 0;                                        // objects read, each counted once
  const std::unordered_set<std::string>* skip_objects = nullptr;  // LoadOptions::skip_objects
  bool content_identity = false;                                  // LoadOptions::content_identity

  void warn(const Field& at, const std::string& message) const;
};

// Decodes the object whose root map is `root` into ctx.out. Throws InputError on bad input.
using DecodeFn = void (*)(const Field& root, DecodeContext& ctx);

struct KindEntry {
  std::string_view group;  // API group, "" for the core group
  std::string_view kind;
  bool namespaced = false;
  DecodeFn decode = nullptr;
};

// The entry for an object's apiVersion ("policy/v1", "v1") and kind, or nullptr.
const KindEntry* find_kind(std::string_view api_version, std::string_view kind);

void decode_node(const Field& root, DecodeContext& ctx);
void decode_pod(const Field& root, DecodeContext& ctx);
// The metadata, spec and status fields of a Pod or of a pod template at `root`, all but the
// name (a template has none); loc is root's.
model::Pod decode_pod_fields(const Field& root);
void decode_priority_class(const Field& root, DecodeContext& ctx);
void decode_pdb(const Field& root, DecodeContext& ctx);
void decode_scheduler_config(const Field& root, DecodeContext& ctx);
// A ConfigMap whose data values hold a KubeSchedulerConfiguration: reads each; false when
// none does.
bool decode_scheduler_config_map(const Field& root, const std::string& ns, const std::string& name,
                                 DecodeContext& ctx);

// A Kueue Configuration (config.kueue.x-k8s.io v1beta1, v1beta2): what the kueue policy reads
// of it, fair sharing (decode_kueue_config.cpp).
void decode_kueue_config(const Field& root, DecodeContext& ctx);
// ConfigMap kueue-system/kueue-manager-config: the Configuration in its data; false for any
// other ConfigMap.
bool decode_kueue_config_map(const Field& root, const std::string& ns, const std::string& name,
                             DecodeContext& ctx);
// Reads the YAML or JSON documents held in one ConfigMap data value into a snapshot part of
// their own; their messages name `what` and point at the lines of the dump.
model::SnapshotBuilder read_embedded(const Field& value, const std::string& what,
                                     DecodeContext& ctx);

// Kueue kinds, Namespaces and Kueue-managed Jobs (decode_kueue.cpp dispatches on kind).
void decode_kueue(const Field& root, DecodeContext& ctx);
// The Kueue job integrations (decode_kueue_jobs.cpp): JobSet, the Kubeflow training jobs,
// MPIJob, RayJob, RayCluster, LeaderWorkerSet, AppWrapper and TrainJob labelled with a queue
// become the Workloads Kueue would create; RayService and SparkApplication are recognised and
// said not to be modelled.
void decode_kueue_job(const Field& root, DecodeContext& ctx);

// One pod set of a Workload derived from a job: its name (lowercased as Kueue does), pod
// count, the pod template's spec, where the count was read (for errors), and what the
// job's operator adds to the pods beyond the template.
struct DerivedPodSet {
  std::string name;
  std::int32_t count = 1;
  Field spec;
  Field count_at;
  std::vector<model::KueueContainer> injected{};  // sidecar containers
  model::ResourceList first_container_floor{};    // raises the first container's requests
};
// The value of the object's kueue.x-k8s.io/queue-name label, if any.
std::optional<std::string> kueue_queue(const Field& root);
// Adds the pending Workload Kueue would create for `root` (a queue-labelled job), named
// <lowercase kind>-<stem>, with `pod_sets` in order; its PriorityClass is `priority_class`
// when given, else the first pod set's template class (the WorkloadPriorityClass label wins).
void add_derived_workload(const Field& root, const std::string& stem,
                          const std::vector<DerivedPodSet>& pod_sets,
                          const std::optional<std::string>& priority_class, DecodeContext& ctx);
// One pod set of a derived Workload, from its template.
model::KueuePodSet build_pod_set(const DerivedPodSet& d);
// The Workload add_derived_workload makes, without pod sets; `pod_class` is the PriorityClass
// its pod sets name, if known ("" resolves to the default class).
model::Workload derived_workload(const Field& root, const std::string& stem,
                                 const std::string& pod_class, DecodeContext& ctx);
// The same for an object of `kind` made from `root`, labelled by `meta` (a CronJob's
// jobTemplate.metadata makes its Jobs' labels).
model::Workload derived_workload_of(std::string_view kind, const Field& root, const Field& meta,
                                    const std::string& stem, const std::string& pod_class,
                                    DecodeContext& ctx);
// The Workload of Kueue's Job integration for the Job `job` (root itself, or a CronJob's
// jobTemplate), named job-<stem>: one pod set "main" of min(parallelism, completions) pods.
void add_job_workload(const Field& root, const Field& job, const std::string& stem,
                      DecodeContext& ctx);
// TrainJob (decode_trainjob.cpp): kept for the snapshot build, which reads its runtime.
void decode_train_job(const Field& root, DecodeContext& ctx);
// TrainingRuntime and ClusterTrainingRuntime: the JobSet templates TrainJobs name.
void decode_training_runtime(const Field& root, DecodeContext& ctx);
// The pod sets of an AppWrapper's components, named <name>-<index> (decode_appwrapper.cpp).
std::vector<DerivedPodSet> appwrapper_pod_sets(const Field& root);
// Decodes what Kueue reads of a pod template's spec into `ps`.
void decode_pod_template(const Field& spec, model::KueuePodSet& ps);
// Raises `resource` in `requests` to at least `floor` (Kueue's MergeResourceListKeepMax).
void raise_request(model::ResourceList& requests, const std::string& resource,
                   model::Quantity floor);

// Deployments, ReplicaSets, StatefulSets and CronJobs: with derive_pods, the pods their
// controller would create; otherwise counted as skipped (decode_controllers.cpp).
void decode_controller(const Field& root, DecodeContext& ctx);
// DaemonSets: with derive_pods, a model::DaemonSet the snapshot build makes into a pod per
// node; in a dump, read only for the scheduler images, otherwise counted as skipped.
void decode_daemon_set(const Field& root, DecodeContext& ctx);
// Notes the containers of `pod_spec` (a Pod's spec or a template's) that run a scheduler
// kpreempt mirrors, as model::SchedulerImage of `owner`; `labels` are the pod's. Dump input
// only (nothing with derive_pods); never refuses input. Whether any was noted.
bool record_scheduler_images(const Field& pod_spec, const model::StringMap& labels,
                             const model::ObjectRef& owner, DecodeContext& ctx);
// The same for the pod template of a Deployment, ReplicaSet, StatefulSet or DaemonSet of
// kind `kind` at `root`, unless it is scaled to zero.
bool record_template_images(const Field& root, const std::string& kind, DecodeContext& ctx);
// batch/v1 Jobs: their failure accounting (record_job), and a Kueue Workload when labelled
// with a queue (decode_kueue), else with derive_pods the Job's pods.
void decode_batch_job(const Field& root, DecodeContext& ctx);
// The Job's failure accounting (model::Job), for what its controller does with a pod it
// loses; every Job, dump or what-if (decode_job.cpp).
void record_job(const Field& root, DecodeContext& ctx);
// Koordinator ElasticQuota and PodGroup (decode_koordinator.cpp dispatches on kind).
void decode_koordinator(const Field& root, DecodeContext& ctx);
// CapacityScheduling ElasticQuota (decode_capacity.cpp).
void decode_elastic_quota(const Field& root, DecodeContext& ctx);
// ConfigMaps yunikorn/yunikorn-configs and yunikorn-defaults; other ConfigMaps are ignored.
void decode_config_map(const Field& root, DecodeContext& ctx);
// AdmissionCheck, ProvisioningRequest, MultiKueue and DRA objects, kept by name only.
void decode_unmodelled(const Field& root, DecodeContext& ctx);
// A bare YuniKorn queues.yaml document (top-level `partitions:`, no kind).
void decode_bare_queues_yaml(const Field& root, DecodeContext& ctx);

// The entry for a document without a kind that is still read (a bare queues.yaml), or
// nullptr; the stream reader consults it before refusing a document that has no kind.
const KindEntry* find_kindless(const Field& root);

// Shared API shapes.
model::LabelSelector decode_label_selector(const Field& f);
model::Requirement decode_requirement(const Field& f);
std::vector<model::NodeSelectorTerm> decode_node_selector_terms(const Field& f);
// Why metav1.LabelSelectorAsSelector would refuse the selector, with the field at fault; an
// empty message when it is valid.
struct SelectorProblem {
  std::string message;
  std::optional<Field> at;
};
SelectorProblem check_label_selector(const Field& f);

// metadata.namespace, with the API server's default for namespaced objects.
std::string object_namespace(const Field& root);
// The API server's name rules (k8s.io/apimachinery IsDNS1123Label, IsDNS1123Subdomain).
bool dns1123_label(std::string_view s);
bool dns1123_subdomain(std::string_view s);
// A DNS-1123 subdomain, or a name made from metadata.generateName (document_rules.h).
bool valid_object_name(std::string_view s);
// metadata.name; an object without one is refused.
std::string object_name(const Field& root);

}  // namespace kpreempt::load
