// SPDX-License-Identifier: Apache-2.0
// The cluster snapshot every policy and lint rule reads. Built once by the loader
// (SnapshotBuilder) and immutable to them: policies simulate on their own copies. Only a
// SnapshotEdit (snapshot_edit.h) changes one, between decisions, and undoes what it did.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/daemon_set.h"
#include "kpreempt/model/elastic_quota.h"
#include "kpreempt/model/job.h"
#include "kpreempt/model/koordinator.h"
#include "kpreempt/model/kueue.h"
#include "kpreempt/model/objects.h"
#include "kpreempt/model/resources.h"
#include "kpreempt/model/scheduler_image.h"
#include "kpreempt/model/yunikorn.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kpreempt::model {

using PodId = std::uint32_t;
using NodeId = std::uint32_t;
inline constexpr std::uint32_t k_none = UINT32_MAX;

inline constexpr std::int32_t k_system_cluster_critical = 2000000000;
inline constexpr std::int32_t k_system_node_critical = 2000001000;

// What the loader and the Priority admission plugin derive for each pod.
struct PodFacts {
  std::int32_t priority = 0;
  bool preempt_never = false;  // effective preemptionPolicy == Never
  Resources requests;          // pod_requests(), scheduler units
  NodeId node = k_none;        // bound node, k_none when pending or the node is absent
};

// What the scheduler keeps per node in its NodeInfo, summed once so that a filter run on a
// simulated node need not walk the node's pods.
struct NodeFacts {
  Resources allocatable;  // scheduler units; pods = 0 when status.allocatable has no pods
  Resources requested;    // the requests of pods_on(node) added up; pods = 0
  // False when a request is negative or the sum saturated: then a sum over a subset of the
  // pods cannot be had by subtracting from `requested`, and the pods must be walked.
  bool requested_exact = true;
};

// Bound pods whose requests, read as a release line reads them (RequestRules), differ from
// PodFacts::requests, sorted by pod id.
using ResizedRequests = std::vector<std::pair<PodId, Resources>>;

class Snapshot {
 public:
  const std::vector<Node>& nodes() const { return m_nodes; }
  const std::vector<Pod>& pods() const { return m_pods; }
  const std::vector<PriorityClass>& priority_classes() const { return m_classes; }
  const std::vector<PodDisruptionBudget>& pdbs() const { return m_pdbs; }
  // The Jobs of the dump, for what their controller does with the pods they lose.
  const std::vector<Job>& jobs() const { return m_jobs; }
  const SchedulerConfig& scheduler_config() const { return m_scheduler_config; }
  // Objects whose effect on admission or placement is not modelled, in input order.
  const std::vector<UnmodelledGate>& unmodelled() const { return m_unmodelled; }
  // Objects of the quota- and queue-based schedulers, one store per family.
  const KueueObjects& kueue() const { return m_kueue; }
  const YunikornObjects& yunikorn() const { return m_yunikorn; }
  const CapacityObjects& capacity() const { return m_capacity; }
  const KoordinatorObjects& koordinator() const { return m_koordinator; }
  // The containers that run a scheduler kpreempt mirrors, in input order.
  const std::vector<SchedulerImage>& scheduler_images() const { return m_scheduler_images; }

  const PodFacts& facts(PodId id) const { return m_facts[id]; }
  // Non-terminal pods bound to the node, in input order.
  std::span<const PodId> pods_on(NodeId id) const { return m_pods_on[id]; }
  // Pending pods (other than terminal ones) whose status.nominatedNodeName is this node.
  std::span<const PodId> nominated_to(NodeId id) const { return m_nominated_to[id]; }
  const NodeFacts& node_facts(NodeId id) const { return m_derived.node_facts[id]; }
  // Node ids in node-name order, the order every per-node report and dry run follows.
  std::span<const NodeId> nodes_by_name() const { return m_derived.nodes_by_name; }
  // Pods of pods_on() with required pod anti-affinity terms, node by node in id order
  // (NodeInfo.PodsWithRequiredAntiAffinity).
  std::span<const PodId> pods_with_required_anti_affinity() const {
    return m_derived.anti_affinity_pods;
  }
  // Indexes into pdbs() of the budgets that select the pod, in input order: same namespace, a
  // valid selector that is neither nil nor empty (the scheduler's reading; the eviction API
  // reads `{}` as "every pod").
  std::span<const std::uint32_t> pdbs_of(PodId id) const;

  // The bound pods whose requests under `rules` differ from facts().requests: worked out on
  // the first ask for those rules and kept, since every decision on the snapshot asks again.
  std::shared_ptr<const ResizedRequests> resized_requests(const RequestRules& rules) const;

  std::optional<NodeId> find_node(std::string_view name) const;
  std::optional<PodId> find_pod(std::string_view ns, std::string_view name) const;
  const PriorityClass* find_priority_class(std::string_view name) const;
  const Job* find_job(std::string_view ns, std::string_view name) const;
  // PDBs of a namespace, in input order.
  std::vector<const PodDisruptionBudget*> pdbs_in(std::string_view ns) const;

  // How many documents of kinds kpreempt does not read were skipped, by kind.
  const StringMap& skipped_kinds() const { return m_skipped; }
  // How many objects were read again, identical, and merged into their first copy.
  std::uint64_t merged_duplicates() const { return m_merged; }

 private:
  friend class SnapshotBuilder;
  friend struct SnapshotCodec;  // the binary snapshot file reads and writes every member
  friend class SnapshotEdit;    // applies a decision in place, with undo

  // resized_requests() per RequestRules asked so far. A copy starts empty; SnapshotEdit
  // forgets it when a change could alter it.
  class RequestsMemo {
   public:
    RequestsMemo() = default;
    RequestsMemo(const RequestsMemo&) {}
    RequestsMemo& operator=(const RequestsMemo&) {
      forget();
      return *this;
    }
    ~RequestsMemo() = default;
    // The value for `rules`, made by `make()` the first time. Policies run on several
    // threads ask for the same rules at once; one makes it and the others wait for it.
    std::shared_ptr<const ResizedRequests> get(
        const RequestRules& rules, const std::function<std::shared_ptr<ResizedRequests>()>& make);
    void forget();

   private:
    std::mutex m_mutex;
    std::vector<std::pair<RequestRules, std::shared_ptr<const ResizedRequests>>> m_entries;
  };

  // Tables computed from the members above, by build() and again when a snapshot file is
  // read (never stored, so a file cannot make them disagree with the objects).
  struct Derived {
    std::vector<NodeFacts> node_facts;
    std::vector<NodeId> nodes_by_name;
    std::vector<PodId> anti_affinity_pods;
    std::vector<std::uint32_t> pdb_offsets;  // pod i's budgets: pdb_ids[offsets[i], offsets[i+1])
    std::vector<std::uint32_t> pdb_ids;
    mutable RequestsMemo requests;
  };
  void derive();
  // The tables again once pods from `first` on were appended and indexed: only what those
  // pods change is recomputed.
  void derive_added(PodId first);
  ResizedRequests differing_requests(PodId from, std::size_t to, const RequestRules& rules) const;
  // The tables of one node again, after SnapshotEdit changed its pods.
  void rederive_node(NodeId id);

  std::vector<Node> m_nodes;
  std::vector<Pod> m_pods;
  std::vector<PriorityClass> m_classes;
  std::vector<PodDisruptionBudget> m_pdbs;
  std::vector<Job> m_jobs;
  SchedulerConfig m_scheduler_config;
  std::vector<UnmodelledGate> m_unmodelled;
  KueueObjects m_kueue;
  YunikornObjects m_yunikorn;
  CapacityObjects m_capacity;
  KoordinatorObjects m_koordinator;
  std::vector<SchedulerImage> m_scheduler_images;
  std::vector<PodFacts> m_facts;
  std::vector<std::vector<PodId>> m_pods_on, m_nominated_to;
  std::unordered_map<std::string, NodeId> m_node_index;
  std::unordered_map<std::string, PodId> m_pod_index;  // "ns/name"
  StringMap m_skipped;
  std::uint64_t m_merged = 0;
  Derived m_derived;
};

// Collects decoded objects and freezes them into a Snapshot. Checks that need the whole
// input (duplicates, priority resolution) run in build() and report through `diags`.
class SnapshotBuilder {
 public:
  SnapshotBuilder() = default;
  // Starts again from a built snapshot (a what-if that adds pods, or a snapshot file plus
  // further inputs). When only pods are added, build() indexes those and leaves the rest as
  // it was built; anything else added or reached through a mutable accessor makes it
  // recompute every derived fact and index.
  explicit SnapshotBuilder(Snapshot base)
      : m_snap(std::move(base)), m_built_pods(static_cast<PodId>(m_snap.m_pods.size())) {}

  void add(Node n) { changed().m_nodes.push_back(std::move(n)); }
  void add(Pod p) { m_snap.m_pods.push_back(std::move(p)); }
  void add(PriorityClass c) { changed().m_classes.push_back(std::move(c)); }
  void add(PodDisruptionBudget b) { changed().m_pdbs.push_back(std::move(b)); }
  void add(Job j) { changed().m_jobs.push_back(std::move(j)); }
  void set(SchedulerConfig c) { changed().m_scheduler_config = std::move(c); }
  SchedulerConfig& scheduler_config() { return changed().m_scheduler_config; }
  void add(UnmodelledGate g) { changed().m_unmodelled.push_back(std::move(g)); }
  void add(SchedulerImage i) { changed().m_scheduler_images.push_back(std::move(i)); }
  // A what-if DaemonSet: build() makes its pods, once every node is read.
  void add(DaemonSet d) {
    changed();
    m_daemon_sets.push_back(std::move(d));
  }
  std::vector<Pod>& pods() { return changed().m_pods; }
  // The family stores are filled directly by their decoders.
  KueueObjects& kueue() { return changed().m_kueue; }
  YunikornObjects& yunikorn() { return changed().m_yunikorn; }
  CapacityObjects& capacity() { return changed().m_capacity; }
  KoordinatorObjects& koordinator() { return changed().m_koordinator; }
  void count_skipped(std::string_view kind);

  // The same object read twice (one file given twice, a dump and a manifest repeating it):
  // identical copies are merged, differing ones are an error naming both places.
  enum class Seen : std::uint8_t { first, identical, conflict };
  // `key` is "Kind/namespace/name"; `identity` the uid, or a digest of the content when the
  // object has none. `first` is set to where the object was first read, unless Seen::first.
  Seen see(const std::string& key, const std::string& identity, const SourceLoc& loc,
           SourceLoc& first);
  // Undoes see() for an object that turned out not to decode: a later copy is then the first.
  void forget(const std::string& key) { m_seen.erase(key); }
  // Whether `other` has seen an object this builder has seen too: two parts of one file
  // holding copies of an object can only be judged (merged or refused) by a one-thread read.
  [[nodiscard]] bool shares_objects_with(const SnapshotBuilder& other) const;
  // Every object key seen so far with its identity and where it was first read.
  struct SeenEntry {
    std::string key, identity;
    SourceLoc loc;
  };
  [[nodiscard]] std::vector<SeenEntry> seen_objects() const;

  // Appends what `later` collected as if its objects had followed this builder's (one part of
  // a dump read on another thread); a singleton `later` set replaces this builder's.
  void append(SnapshotBuilder&& later);
  // Moves the source line of everything read from `file` by `delta` lines: a part of a file
  // was read as if it started at line 1.
  void shift_lines(const std::string& file, std::uint32_t delta);

  // Errors (duplicates, unknown priority class of a pod without spec.priority, priority
  // values out of range) are appended to diags with Severity::error; warnings likewise.
  // The refs of the pods made from DaemonSets (expand_daemon_sets) are appended to `made`
  // when it is not null.
  Snapshot build(std::vector<Diagnostic>& diags, std::vector<ObjectRef>* made = nullptr) &&;

 private:
  struct SeenObject {
    std::string identity;
    SourceLoc loc;
  };
  // The snapshot, marked as no longer only a built one plus appended pods.
  Snapshot& changed() {
    m_built_pods.reset();
    return m_snap;
  }
  // Whether build() may index the pods from m_built_pods on alone (see index_pods()).
  [[nodiscard]] bool only_new_pods_added() const;
  // The full build's first steps: normalizing, DaemonSet pods, duplicates (the table of pod
  // names the duplicate check builds is kept as the name index).
  void prepare_all(std::vector<Diagnostic>& diags, std::vector<ObjectRef>* made);
  void index_pods(PodId first, std::vector<Diagnostic>& diags);

  Snapshot m_snap;
  // Set while m_snap is a built snapshot with pods appended after its first *m_built_pods.
  std::optional<PodId> m_built_pods;
  std::unordered_map<std::string, SeenObject> m_seen;
  std::vector<DaemonSet> m_daemon_sets;  // never in a Snapshot: made into pods by build()
};

}  // namespace kpreempt::model
