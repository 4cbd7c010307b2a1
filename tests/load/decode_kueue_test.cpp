// SPDX-License-Identifier: Apache-2.0
// The Kueue decoders: ClusterQueue (v1beta1 and v1beta2 spellings), Cohort, LocalQueue,
// ResourceFlavor, Workload, WorkloadPriorityClass, Namespace and queue-labelled Jobs.
#include "load/load_support.h"

#include <catch2/catch.hpp>

namespace kpreempt::load {
namespace {

using model::Quantity;
using testing::load_text;

constexpr std::string_view k_cluster_queue = R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: team-a}
spec:
  cohort: research
  namespaceSelector: {}
  flavorFungibility: {whenCanBorrow: TryNextFlavor}
  preemption:
    withinClusterQueue: LowerPriority
    reclaimWithinCohort: Any
    borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 100}
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: on-demand
      resources:
      - {name: cpu, nominalQuota: "8", borrowingLimit: "2", lendingLimit: 500m}
      - {name: memory, nominalQuota: 32Gi}
)";

TEST_CASE("a ClusterQueue decodes quotas, limits and preemption settings", "[load][kueue]") {
  auto loaded = load_text(k_cluster_queue);
  REQUIRE(loaded.messages.empty());
  const auto& cqs = loaded.snapshot.kueue().cluster_queues;
  REQUIRE(cqs.size() == 1);
  const model::ClusterQueue& cq = cqs[0];
  CHECK(cq.cohort == "research");
  CHECK(cq.namespace_selector.present);
  CHECK(cq.when_can_borrow == "TryNextFlavor");
  CHECK(cq.when_can_preempt == "TryNextFlavor");
  CHECK(cq.within_cluster_queue == "LowerPriority");
  CHECK(cq.reclaim_within_cohort == "Any");
  CHECK(cq.borrow_within_cohort == "LowerPriority");
  CHECK(cq.max_priority_threshold == 100);
  REQUIRE(cq.resource_groups.size() == 1);
  const auto& cpu = cq.resource_groups[0].flavors[0].resources[0];
  CHECK(cpu.nominal == Quantity::from_units(8));
  CHECK(cpu.borrowing_limit == Quantity::from_units(2));
  CHECK(cpu.lending_limit == Quantity::from_milli(500));
  CHECK_FALSE(cq.resource_groups[0].flavors[0].resources[1].borrowing_limit.has_value());
}

TEST_CASE("a ClusterQueue without preemption or selector takes Kueue's defaults", "[load][kueue]") {
  auto loaded = load_text(R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: q}
spec:
  cohortName: shared
  flavorFungibility: {whenCanBorrow: MayStopSearch}
)");
  const model::ClusterQueue& cq = loaded.snapshot.kueue().cluster_queues.at(0);
  CHECK(cq.cohort == "shared");
  CHECK_FALSE(cq.namespace_selector.present);
  CHECK(cq.when_can_borrow == "Borrow");
  CHECK(cq.within_cluster_queue == "Never");
  CHECK(cq.reclaim_within_cohort == "Never");
  CHECK(cq.borrow_within_cohort == "Never");
  CHECK(cq.stop_policy == "None");
}

TEST_CASE("a bad nominal quota is an error naming the field", "[load][kueue]") {
  auto loaded = load_text(R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: team-a}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources:
      - {name: cpu, nominalQuota: x}
)");
  REQUIRE(loaded.messages.size() == 1);
  CHECK_THAT(loaded.messages[0],
             Catch::Contains("error: ClusterQueue team-a: "
                             "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: \"x\" "
                             "is not a quantity"));
}

TEST_CASE("a Cohort decodes its parent and quota of its own", "[load][kueue]") {
  auto loaded = load_text(R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: important-org}
spec:
  parentName: root-cohort
  fairSharing: {weight: "0.75"}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default-flavor
      resources:
      - {name: cpu, nominalQuota: 3, borrowingLimit: "1", lendingLimit: 4}
---
apiVersion: kueue.x-k8s.io/v1alpha1
kind: Cohort
metadata: {name: root-cohort}
)");
  REQUIRE(loaded.messages.empty());
  const auto& cohorts = loaded.snapshot.kueue().cohorts;
  REQUIRE(cohorts.size() == 2);
  CHECK(cohorts[0].name == "important-org");
  CHECK(cohorts[0].parent == "root-cohort");
  CHECK(cohorts[0].fair_sharing);
  REQUIRE(cohorts[0].resource_groups.size() == 1);
  const auto& cpu = cohorts[0].resource_groups[0].flavors.at(0).resources.at(0);
  CHECK(cpu.nominal == Quantity::from_units(3));
  CHECK(cpu.borrowing_limit == Quantity::from_units(1));
  CHECK(cpu.lending_limit == Quantity::from_units(4));
  CHECK(cohorts[1].parent.empty());
  CHECK(cohorts[1].resource_groups.empty());
  CHECK(cohorts[0].loc.line == 1);
}

TEST_CASE("a Cohort's bad quota is an error naming the field", "[load][kueue]") {
  auto loaded = load_text(R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: org}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources:
      - {name: cpu, nominalQuota: "1", lendingLimit: lots}
)");
  REQUIRE(loaded.messages.size() == 1);
  CHECK_THAT(loaded.messages[0],
             Catch::Contains("Cohort org: "
                             "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: "
                             "\"lots\" is not a quantity"));
}

TEST_CASE("an admitted Workload keeps its admission, conditions and reclaimable pods",
          "[load][kueue]") {
  auto loaded = load_text(R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: w, namespace: ns, uid: u1, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  queueName: lq
  priority: 7
  priorityClassName: high
  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass
  podSets:
  - name: workers
    count: 3
    template:
      spec:
        containers:
        - name: c
          resources: {limits: {cpu: "1"}}
status:
  admission:
    clusterQueue: team-a
    podSetAssignments:
    - {name: workers, count: 3, flavors: {cpu: on-demand}, resourceUsage: {cpu: "3"}}
  conditions:
  - {type: QuotaReserved, status: "True", reason: QuotaReserved,
     lastTransitionTime: "2026-01-01T01:00:00Z"}
  reclaimablePods: [{name: workers, count: 1}]
)");
  REQUIRE(loaded.messages.empty());
  const model::Workload& w = loaded.snapshot.kueue().workloads.at(0);
  CHECK(w.priority == 7);
  CHECK(w.admitted);
  CHECK(w.admission_cluster_queue == "team-a");
  CHECK(w.pod_sets.at(0).count == 3);
  CHECK(w.pod_sets[0].containers.at(0).limits.size() == 1);
  CHECK(w.assignments.at(0).count == 3);
  CHECK(*model::find(w.assignments[0].flavors, "cpu") == "on-demand");
  CHECK(model::condition_true(w, "QuotaReserved"));
  CHECK(w.reclaimable_pods.at(0).second == 1);
  // Limits stand in for missing requests.
  CHECK(model::pod_set_requests(w.pod_sets[0], 2).at("cpu") == 2000);
}

TEST_CASE("a Workload without priority has priority 0 whatever its class", "[load][kueue]") {
  auto loaded = load_text(R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: w}
spec: {queueName: lq, priorityClassName: high}
)");
  const model::Workload& w = loaded.snapshot.kueue().workloads.at(0);
  CHECK(w.namespace_ == "default");
  CHECK(w.priority == 0);
  CHECK_FALSE(w.admitted);
}

TEST_CASE("a queue-labelled Job becomes a pending Workload", "[load][kueue]") {
  auto loaded = load_text(R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: WorkloadPriorityClass
metadata: {name: urgent}
value: 500
---
apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: ml
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: urgent}
spec:
  parallelism: 4
  completions: 3
  template:
    spec:
      containers:
      - name: c
        resources: {requests: {cpu: 500m}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: plain, namespace: ml}
spec: {}
)");
  REQUIRE(loaded.messages.empty());
  const auto& wls = loaded.snapshot.kueue().workloads;
  REQUIRE(wls.size() == 1);
  const model::Workload& w = wls[0];
  CHECK(w.name == "job-train");
  CHECK(w.queue_name == "lq");
  CHECK(w.priority == 500);
  CHECK(w.pod_sets.at(0).count == 3);  // min(parallelism, completions)
  REQUIRE(w.derived_from.has_value());
  CHECK(w.derived_from->kind == "Job");
  CHECK(w.derived_from->name == "train");
  CHECK(w.loc.line == 6);
  CHECK_FALSE(w.admitted);
}

TEST_CASE("ResourceFlavors, LocalQueues and Namespaces are decoded", "[load][kueue]") {
  auto loaded = load_text(R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: spot}
spec:
  nodeLabels: {instance: spot}
  nodeTaints: [{key: spot, value: "true", effect: NoSchedule}]
  tolerations: [{key: gpu, operator: Exists}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: lq, namespace: ns}
spec: {clusterQueue: team-a, stopPolicy: Hold}
---
apiVersion: v1
kind: Namespace
metadata: {name: ns, labels: {team: a}}
)");
  REQUIRE(loaded.messages.empty());
  const auto& k = loaded.snapshot.kueue();
  CHECK(k.flavors.at(0).node_taints.at(0).effect == "NoSchedule");
  CHECK(k.flavors[0].tolerations.at(0).op == "Exists");
  CHECK(model::find_local_queue(k, "ns", "lq")->stop_policy == "Hold");
  CHECK(*model::find(model::find_namespace(k, "ns")->labels, "team") == "a");
}

}  // namespace
}  // namespace kpreempt::load
