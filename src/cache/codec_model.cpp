// SPDX-License-Identifier: Apache-2.0
// The field lists of every struct reachable from model::Snapshot, shared by the writer and the
// reader of snapshot files. Each list is checked against the struct's member count at compile
// time; a change here needs a new k_format_version.
#include "cache/codec.h"

#include "kpreempt/cache/snapshot_file.h"
#include "kpreempt/model/snapshot.h"

#include <thread>

namespace kpreempt {

using cache::codec::fields;

template <class A>
void visit(A& a, SourceLoc& v) {
  fields<SourceLoc>(a, v.file, v.line, v.column);
}

template <class A>
void visit(A& a, Diagnostic& v) {
  fields<Diagnostic>(a, v.severity, v.loc, v.message);
}

inline void check_enum(Severity s) {
  if (s != Severity::error && s != Severity::warning && s != Severity::note) {
    throw cache::codec::DecodeError("unknown diagnostic severity");
  }
}

namespace model {

// objects.h, time.h, resources.h
template <class A>
void visit(A& a, Instant& v) {
  fields<Instant>(a, v.seconds, v.nanos);
}
template <class A>
void visit(A& a, ObjectRef& v) {
  fields<ObjectRef>(a, v.kind, v.namespace_, v.name);
}
template <class A>
void visit(A& a, Requirement& v) {
  fields<Requirement>(a, v.key, v.op, v.values);
}
template <class A>
void visit(A& a, LabelSelector& v) {
  fields<LabelSelector>(a, v.present, v.match_labels, v.match_expressions);
}
template <class A>
void visit(A& a, NodeSelectorTerm& v) {
  fields<NodeSelectorTerm>(a, v.match_expressions, v.match_fields);
}
template <class A>
void visit(A& a, Taint& v) {
  fields<Taint>(a, v.key, v.value, v.effect);
}
template <class A>
void visit(A& a, Toleration& v) {
  fields<Toleration>(a, v.key, v.op, v.value, v.effect);
}
template <class A>
void visit(A& a, PodAffinityTerm& v) {
  fields<PodAffinityTerm>(a, v.label_selector, v.namespaces, v.namespace_selector, v.topology_key);
}
template <class A>
void visit(A& a, TopologySpreadConstraint& v) {
  fields<TopologySpreadConstraint>(a, v.max_skew, v.topology_key, v.when_unsatisfiable,
                                   v.label_selector, v.min_domains, v.node_affinity_policy,
                                   v.node_taints_policy, v.match_label_keys);
}
template <class A>
void visit(A& a, HostPort& v) {
  fields<HostPort>(a, v.port, v.protocol, v.host_ip);
}
template <class A>
void visit(A& a, Container& v) {
  fields<Container>(a, v.name, v.requests, v.host_ports, v.restart_always);
}
template <class A>
void visit(A& a, ResourceStatus& v) {
  fields<ResourceStatus>(a, v.has_resources, v.requests, v.allocated);
}
template <class A>
void visit(A& a, ContainerStatus& v) {
  fields<ContainerStatus>(a, v.name, v.init, v.resources);
}
template <class A>
void visit(A& a, PodCondition& v) {
  fields<PodCondition>(a, v.type, v.status, v.reason, v.last_transition_time);
}
template <class A>
void visit(A& a, OwnerReference& v) {
  fields<OwnerReference>(a, v.kind, v.name, v.uid, v.controller);
}
template <class A>
void visit(A& a, Node& v) {
  fields<Node>(a, v.name, v.labels, v.unschedulable, v.taints, v.allocatable,
               v.has_allocatable_pods, v.loc);
}
template <class A>
void visit(A& a, Pod& v) {
  fields<Pod>(a, v.namespace_, v.name, v.uid, v.labels, v.annotations, v.owners,
              v.creation_timestamp, v.deletion_timestamp, v.node_name, v.priority,
              v.priority_class_name, v.preemption_policy, v.scheduler_name, v.scheduling_gates,
              v.resource_claims, v.node_selector, v.required_node_affinity,
              v.has_required_node_affinity, v.required_pod_affinity, v.required_pod_anti_affinity,
              v.tolerations, v.topology_spread, v.containers, v.init_containers, v.overhead,
              v.pod_level_requests, v.phase, v.start_time, v.nominated_node_name, v.conditions,
              v.container_statuses, v.pod_status_resources, v.resize_infeasible,
              v.resize_infeasible_any, v.loc);
}
template <class A>
void visit(A& a, PriorityClass& v) {
  fields<PriorityClass>(a, v.name, v.value, v.global_default, v.preemption_policy, v.annotations,
                        v.loc);
}
template <class A>
void visit(A& a, PodDisruptionBudget& v) {
  fields<PodDisruptionBudget>(a, v.namespace_, v.name, v.selector, v.selector_valid,
                              v.disruptions_allowed, v.has_status, v.disrupted_pods, v.loc);
}
// job.h
inline void check_enum(PodFailureRule::Action k) {
  if (k > PodFailureRule::Action::count) {
    throw cache::codec::DecodeError("unknown pod failure policy action");
  }
}
template <class A>
void visit(A& a, PodFailureRule& v) {
  fields<PodFailureRule>(a, v.action, v.on_exit_codes, v.conditions_true);
}
template <class A>
void visit(A& a, Job& v) {
  fields<Job>(a, v.namespace_, v.name, v.backoff_limit, v.backoff_limit_per_index,
              v.max_failed_indexes, v.failed, v.finished, v.pod_failure_policy, v.loc);
}
template <class A>
void visit(A& a, SchedulerProfile& v) {
  fields<SchedulerProfile>(a, v.scheduler_name, v.preemption_disabled, v.capacity_scheduling,
                           v.loc);
}
template <class A>
void visit(A& a, SchedulerConfig& v) {
  fields<SchedulerConfig>(a, v.plugin_args, v.profiles, v.loc);
}
template <class A>
void visit(A& a, UnmodelledGate& v) {
  fields<UnmodelledGate>(a, v.family, v.ref, v.what, v.loc);
}
template <class A>
void visit(A& a, Resources& v) {
  fields<Resources>(a, v.cpu_milli, v.memory, v.ephemeral_storage, v.pods, v.scalar);
}
template <class A>
void visit(A& a, PodFacts& v) {
  fields<PodFacts>(a, v.priority, v.preempt_never, v.requests, v.node);
}

// kueue.h
template <class A>
void visit(A& a, KueueQuota& v) {
  fields<KueueQuota>(a, v.resource, v.nominal, v.borrowing_limit, v.lending_limit);
}
template <class A>
void visit(A& a, KueueFlavorQuotas& v) {
  fields<KueueFlavorQuotas>(a, v.name, v.resources);
}
template <class A>
void visit(A& a, KueueResourceGroup& v) {
  fields<KueueResourceGroup>(a, v.covered_resources, v.flavors);
}
template <class A>
void visit(A& a, ClusterQueue& v) {
  fields<ClusterQueue>(a, v.name, v.cohort, v.resource_groups, v.namespace_selector,
                       v.namespace_selector_valid, v.queueing_strategy, v.when_can_borrow,
                       v.when_can_preempt, v.fungibility_preference, v.within_cluster_queue,
                       v.reclaim_within_cohort, v.borrow_within_cohort, v.max_priority_threshold,
                       v.stop_policy, v.fair_sharing, v.fair_weight, v.loc);
}
template <class A>
void visit(A& a, LocalQueue& v) {
  fields<LocalQueue>(a, v.namespace_, v.name, v.cluster_queue, v.stop_policy, v.loc);
}
template <class A>
void visit(A& a, ResourceFlavor& v) {
  fields<ResourceFlavor>(a, v.name, v.node_labels, v.node_taints, v.tolerations, v.topology_name,
                         v.loc);
}
template <class A>
void visit(A& a, WorkloadPriorityClass& v) {
  fields<WorkloadPriorityClass>(a, v.name, v.value, v.loc);
}
template <class A>
void visit(A& a, KueueNamespace& v) {
  fields<KueueNamespace>(a, v.name, v.labels, v.annotations);
}
template <class A>
void visit(A& a, KueueCohort& v) {
  fields<KueueCohort>(a, v.name, v.parent, v.resource_groups, v.fair_sharing, v.fair_weight, v.loc);
}
template <class A>
void visit(A& a, KueueContainer& v) {
  fields<KueueContainer>(a, v.name, v.requests, v.limits);
}
template <class A>
void visit(A& a, KueuePodSet& v) {
  fields<KueuePodSet>(a, v.name, v.count, v.min_count, v.containers, v.init_containers, v.overhead,
                      v.node_selector, v.required_node_affinity, v.has_required_node_affinity,
                      v.tolerations);
}
template <class A>
void visit(A& a, KueuePodSetAssignment& v) {
  fields<KueuePodSetAssignment>(a, v.name, v.flavors, v.resource_usage, v.count);
}
template <class A>
void visit(A& a, KueueCondition& v) {
  fields<KueueCondition>(a, v.type, v.status, v.reason, v.last_transition_time, v.message);
}
template <class A>
void visit(A& a, Workload& v) {
  fields<Workload>(a, v.namespace_, v.name, v.priority, v.admitted, v.loc, v.uid,
                   v.creation_timestamp, v.annotations, v.queue_name, v.active, v.spec_priority,
                   v.priority_class_name, v.priority_class_source, v.pod_sets,
                   v.admission_cluster_queue, v.assignments, v.conditions, v.reclaimable_pods,
                   v.derived_from, v.what_if, v.owner, v.priority_from_pod_class);
}
template <class A>
void visit(A& a, TrainingRuntimeJob& v) {
  fields<TrainingRuntimeJob>(a, v.pod_set, v.replicas, v.trainer, v.priority_class_name);
}
template <class A>
void visit(A& a, TrainingRuntime& v) {
  fields<TrainingRuntime>(a, v.namespace_, v.name, v.has_ml_policy, v.ml_num_nodes, v.mpi,
                          v.mpi_launcher_as_node, v.jobs, v.loc);
}
template <class A>
void visit(A& a, TrainJobPodPatch& v) {
  fields<TrainJobPodPatch>(a, v.job, v.node_selector, v.required_node_affinity,
                           v.has_required_node_affinity, v.tolerations);
}
template <class A>
void visit(A& a, TrainJob& v) {
  fields<TrainJob>(a, v.workload, v.runtime_kind, v.runtime_name, v.num_nodes, v.requests_per_node,
                   v.limits_per_node, v.patches);
}
template <class A>
void visit(A& a, KueueConfiguration& v) {
  fields<KueueConfiguration>(a, v.api_version, v.source, v.fair_sharing, v.preemption_strategies,
                             v.loc);
}
template <class A>
void visit(A& a, KueueObjects& v) {
  fields<KueueObjects>(a, v.workloads, v.cluster_queues, v.local_queues, v.flavors,
                       v.priority_classes, v.namespaces, v.cohorts, v.training_runtimes,
                       v.train_jobs, v.config);
}

// yunikorn.h
template <class A>
void visit(A& a, YkResources& v) {
  fields<YkResources>(a, v.guaranteed, v.max);
}
template <class A>
void visit(A& a, YkChildTemplate& v) {
  fields<YkChildTemplate>(a, v.properties, v.resources, v.max_applications);
}
template <class A>
void visit(A& a, YkQueueConfig& v) {
  fields<YkQueueConfig>(a, v.name, v.parent, v.resources, v.max_applications, v.properties,
                        v.child_template, v.queues, v.has_limits, v.loc);
}
template <class A>
void visit(A& a, YkPlacementRule& v) {
  fields<YkPlacementRule>(a, v.name, v.create, v.value, v.parent, v.loc);
}
template <class A>
void visit(A& a, YkPartition& v) {
  fields<YkPartition>(a, v.name, v.queues, v.placement_rules, v.preemption_enabled,
                      v.quota_preemption_enabled, v.user_group_resolver, v.newer_keys, v.has_limits,
                      v.loc);
}
template <class A>
void visit(A& a, YunikornConfig& v) {
  fields<YunikornConfig>(a, v.partitions, v.source, v.loc);
}
template <class A>
void visit(A& a, YunikornObjects& v) {
  fields<YunikornObjects>(a, v.configs, v.defaults);
}

// elastic_quota.h, koordinator.h
template <class A>
void visit(A& a, ElasticQuota& v) {
  fields<ElasticQuota>(a, v.namespace_, v.name, v.min, v.max, v.loc);
}
template <class A>
void visit(A& a, CapacityObjects& v) {
  fields<CapacityObjects>(a, v.quotas);
}
template <class A>
void visit(A& a, KoordElasticQuota& v) {
  fields<KoordElasticQuota>(a, v.namespace_, v.name, v.min, v.max, v.parent, v.is_parent,
                            v.allow_lent_resource, v.tree_id, v.is_root, v.shared_weight,
                            v.namespaces, v.labels, v.annotations, v.loc);
}
template <class A>
void visit(A& a, KoordPodGroup& v) {
  fields<KoordPodGroup>(a, v.namespace_, v.name, v.min_member, v.schedule_timeout_seconds,
                        v.annotations, v.loc);
}
template <class A>
void visit(A& a, KoordinatorObjects& v) {
  fields<KoordinatorObjects>(a, v.quotas, v.pod_groups);
}

// scheduler_image.h
inline void check_enum(SchedulerImageKind k) {
  if (k > SchedulerImageKind::koordinator) {
    throw cache::codec::DecodeError("unknown scheduler image kind");
  }
}
template <class A>
void visit(A& a, SchedulerImage& v) {
  fields<SchedulerImage>(a, v.kind, v.image, v.version, v.default_scheduler, v.owner, v.container,
                         v.loc);
}

struct SnapshotCodec {
  // Snapshot is not an aggregate, so its members are counted by a twin of the same layout:
  // a member added to Snapshot changes its size and stops the build here.
  struct Twin {
    std::vector<Node> nodes;
    std::vector<Pod> pods;
    std::vector<PriorityClass> classes;
    std::vector<PodDisruptionBudget> pdbs;
    std::vector<Job> jobs;
    SchedulerConfig scheduler_config;
    std::vector<UnmodelledGate> unmodelled;
    KueueObjects kueue;
    YunikornObjects yunikorn;
    CapacityObjects capacity;
    KoordinatorObjects koordinator;
    std::vector<SchedulerImage> scheduler_images;
    std::vector<PodFacts> facts;
    std::vector<std::vector<PodId>> pods_on, nominated_to;
    std::unordered_map<std::string, NodeId> node_index;
    std::unordered_map<std::string, PodId> pod_index;
    StringMap skipped;
    std::uint64_t merged = 0;
    Snapshot::Derived derived;
  };
  static_assert(sizeof(Twin) == sizeof(Snapshot),
                "Snapshot gained or lost a member: add it to SnapshotCodec in "
                "src/cache/codec_model.cpp and bump k_format_version");

  // The two hash indexes and the derived tables are not stored: they are rebuilt, as build()
  // does.
  // Pods and their facts, the bulk of a snapshot, are chunked to be decoded on several cores.
  template <class A>
  static void visit(A& a, Snapshot& s) {
    cache::codec::Chunked<Pod> pods{s.m_pods};
    cache::codec::Chunked<PodFacts> facts{s.m_facts};
    a(s.m_nodes, pods, s.m_classes, s.m_pdbs, s.m_jobs, s.m_scheduler_config, s.m_unmodelled,
      s.m_kueue, s.m_yunikorn, s.m_capacity, s.m_koordinator, s.m_scheduler_images, facts,
      s.m_pods_on, s.m_nominated_to, s.m_skipped, s.m_merged);
  }

  static void check_ids(const std::vector<std::vector<std::uint32_t>>& lists, std::size_t size) {
    for (const auto& list : lists) {
      for (std::uint32_t id : list) {
        if (id >= size) {
          throw cache::codec::DecodeError("a pod index is out of range");
        }
      }
    }
  }

  // Policies index vectors with these ids without checking; a file must not make them lie.
  static void check(const Snapshot& s) {
    const std::size_t nodes = s.m_nodes.size();
    if (s.m_facts.size() != s.m_pods.size() || s.m_pods_on.size() != nodes ||
        s.m_nominated_to.size() != nodes) {
      throw cache::codec::DecodeError("the pod and node tables disagree");
    }
    for (const PodFacts& f : s.m_facts) {
      if (f.node != k_none && f.node >= nodes) {
        throw cache::codec::DecodeError("a node index is out of range");
      }
    }
    check_ids(s.m_pods_on, s.m_pods.size());
    check_ids(s.m_nominated_to, s.m_pods.size());
  }

  static void index(Snapshot& s) {
    s.m_node_index.clear();
    s.m_pod_index.clear();
    s.m_node_index.reserve(s.m_nodes.size());
    s.m_pod_index.reserve(s.m_pods.size());
    for (NodeId i = 0; i < s.m_nodes.size(); ++i) {
      s.m_node_index.emplace(s.m_nodes[i].name, i);
    }
    for (PodId i = 0; i < s.m_pods.size(); ++i) {
      const Pod& p = s.m_pods[i];
      std::string key;
      key.reserve(p.namespace_.size() + 1 + p.name.size());
      s.m_pod_index.emplace(key.append(p.namespace_).append(1, '/').append(p.name), i);
    }
  }

  static void decode(cache::codec::Reader& r, Snapshot& s) {
    r(s);
    check(s);
    // The two read the objects and fill separate members: one on another core.
    std::jthread indexer([&s] { index(s); });
    s.derive();
  }
};

template <class A>
void visit(A& a, Snapshot& s) {
  SnapshotCodec::visit(a, s);
}

}  // namespace model

namespace cache::codec {

std::string encode_payload(const SnapshotFile& file) {
  Writer w;
  w(file.load_diags, file.build_diags, file.snapshot);
  return w.finish();
}

void decode_payload(std::string_view payload, SnapshotFile& file, Reader::Release release) {
  Reader r(payload, std::move(release));
  r.read_atoms();
  r(file.load_diags, file.build_diags);
  model::SnapshotCodec::decode(r, file.snapshot);
  if (!r.done()) {
    throw DecodeError("bytes are left over after the snapshot");
  }
}

}  // namespace cache::codec
}  // namespace kpreempt
