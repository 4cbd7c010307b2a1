// SPDX-License-Identifier: Apache-2.0
// The kind decoders fill the model exactly: every field read, defaults, sorting.
#include "load/load_support.h"

#include <catch2/catch.hpp>

namespace kpreempt::load {
namespace {

using model::Quantity;
using testing::load_text;

constexpr std::string_view k_pod = R"(apiVersion: v1
kind: Pod
metadata:
  annotations: {queue: root.b, kueue.x-k8s.io/role-hash: a1b2c3d4, prometheus.io/scrape: "true"}
  creationTimestamp: "2025-01-01T00:00:00Z"
  deletionTimestamp: "2025-01-02T00:00:00Z"
  labels: {app: web, tier: front}
  name: web-0
  ownerReferences:
  - {apiVersion: apps/v1, controller: true, kind: StatefulSet, name: web, uid: u1}
  uid: abc
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: zone, operator: In, values: [a, b]}
          matchFields:
          - {key: metadata.name, operator: NotIn, values: [n9]}
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: web}}
        namespaceSelector: {}
        topologyKey: kubernetes.io/hostname
  containers:
  - name: app
    ports:
    - {containerPort: 80, hostPort: 8080, protocol: UDP, hostIP: 10.0.0.1}
    - {containerPort: 81}
    resources:
      requests: {memory: 1Gi, cpu: 0.5}
  initContainers:
  - name: proxy
    restartPolicy: Always
    resources: {requests: {cpu: 100m}}
  nodeName: n1
  nodeSelector: {disk: ssd}
  overhead: {cpu: 10m}
  preemptionPolicy: Never
  priority: -5
  priorityClassName: low
  resources: {requests: {memory: 2Gi}}
  schedulerName: default-scheduler
  tolerations:
  - {key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 30}
  topologySpreadConstraints:
  - labelSelector: {matchExpressions: [{key: app, operator: Exists}]}
    matchLabelKeys: [pod-template-hash]
    maxSkew: 2
    minDomains: 3
    topologyKey: zone
    whenUnsatisfiable: DoNotSchedule
status:
  conditions:
  - {type: PodScheduled, status: "True", lastTransitionTime: null}
  - {type: DisruptionTarget, status: "True", reason: PreemptionByScheduler,
     lastTransitionTime: "2025-01-01T00:00:05Z"}
  nominatedNodeName: n2
  phase: Running
  startTime: "2025-01-01T00:00:01Z"
)";

TEST_CASE("a pod decodes every field the model holds", "[load]") {
  auto l = load_text(k_pod);
  CHECK(l.messages.empty());
  REQUIRE(l.snapshot.pods().size() == 1);
  const model::Pod& p = l.snapshot.pods()[0];
  CHECK(p.namespace_ == "default");
  CHECK(p.name == "web-0");
  CHECK(p.uid == "abc");
  // Sorted, and only those a policy reads.
  CHECK(p.annotations ==
        model::StringMap{{"kueue.x-k8s.io/role-hash", "a1b2c3d4"}, {"queue", "root.b"}});
  CHECK(p.labels == model::StringMap{{"app", "web"}, {"tier", "front"}});
  REQUIRE(p.owners.size() == 1);
  CHECK(p.owners[0].kind == "StatefulSet");
  CHECK(p.owners[0].controller);
  CHECK(p.creation_timestamp == model::parse_time("2025-01-01T00:00:00Z"));
  CHECK(p.terminating());
  CHECK(p.node_name == "n1");
  CHECK(p.priority == -5);
  CHECK(p.priority_class_name == "low");
  CHECK(p.preemption_policy == "Never");
  CHECK(p.scheduler_name == "default-scheduler");
  CHECK(p.node_selector == model::StringMap{{"disk", "ssd"}});
  CHECK(p.has_required_node_affinity);
  REQUIRE(p.required_node_affinity.size() == 1);
  CHECK(p.required_node_affinity[0].match_expressions[0].values ==
        std::vector<std::string>{"a", "b"});
  CHECK(p.required_node_affinity[0].match_fields[0].op == "NotIn");
  CHECK(p.required_pod_affinity.empty());
  REQUIRE(p.required_pod_anti_affinity.size() == 1);
  CHECK(p.required_pod_anti_affinity[0].label_selector.match_labels ==
        model::StringMap{{"app", "web"}});
  REQUIRE(p.required_pod_anti_affinity[0].namespace_selector.has_value());
  CHECK(p.required_pod_anti_affinity[0].namespace_selector->present);
  CHECK(p.required_pod_anti_affinity[0].topology_key == "kubernetes.io/hostname");
  REQUIRE(p.tolerations.size() == 1);
  CHECK(p.tolerations[0].op == "Exists");
  REQUIRE(p.topology_spread.size() == 1);
  const model::TopologySpreadConstraint& c = p.topology_spread[0];
  CHECK(c.max_skew == 2);
  CHECK(c.min_domains == 3);
  CHECK(c.node_affinity_policy == "Honor");
  CHECK(c.node_taints_policy == "Ignore");
  CHECK(c.match_label_keys == std::vector<std::string>{"pod-template-hash"});
  CHECK(c.label_selector.match_expressions[0].op == "Exists");
  REQUIRE(p.containers.size() == 1);
  CHECK(p.containers[0].requests ==
        model::ResourceList{{"cpu", Quantity::from_milli(500)},
                            {"memory", Quantity::from_units(1024 * 1024 * 1024)}});
  REQUIRE(p.containers[0].host_ports.size() == 1);
  CHECK(p.containers[0].host_ports[0].port == 8080);
  CHECK(p.containers[0].host_ports[0].protocol == "UDP");
  CHECK(p.containers[0].host_ports[0].host_ip == "10.0.0.1");
  REQUIRE(p.init_containers.size() == 1);
  CHECK(p.init_containers[0].restart_always);
  CHECK(p.overhead == model::ResourceList{{"cpu", Quantity::from_milli(10)}});
  CHECK(p.pod_level_requests.size() == 1);
  CHECK(p.phase == "Running");
  CHECK(p.start_time == model::parse_time("2025-01-01T00:00:01Z"));
  CHECK(p.nominated_node_name == "n2");
  REQUIRE(p.conditions.size() == 2);
  CHECK_FALSE(p.conditions[0].last_transition_time.has_value());
  CHECK(p.conditions[1].reason == "PreemptionByScheduler");
  CHECK(p.loc.line == 1);
}

TEST_CASE("a node decodes name, labels, taints and allocatable", "[load]") {
  auto l = load_text(R"({"apiVersion": "v1", "kind": "Node",
  "metadata": {"name": "n1", "labels": {"b": "2", "a": "1"}},
  "spec": {"unschedulable": true, "taints": [{"key": "k", "value": "v", "effect": "NoExecute"}]},
  "status": {"allocatable": {"pods": "110", "cpu": 4, "memory": "8Gi"}}})",
                     "dump.json");
  CHECK(l.messages.empty());
  REQUIRE(l.snapshot.nodes().size() == 1);
  const model::Node& n = l.snapshot.nodes()[0];
  CHECK(n.labels == model::StringMap{{"a", "1"}, {"b", "2"}});
  CHECK(n.unschedulable);
  REQUIRE(n.taints.size() == 1);
  CHECK(n.taints[0].effect == "NoExecute");
  REQUIRE(n.allocatable.size() == 3);
  CHECK(n.allocatable[0].first == "cpu");
  CHECK(n.allocatable[0].second == Quantity::from_units(4));
  CHECK(n.has_allocatable_pods);
}

TEST_CASE("a node without allocatable pods says so", "[load]") {
  auto l = load_text(
      "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus:\n"
      "  allocatable: {cpu: '1'}\n");
  REQUIRE(l.snapshot.nodes().size() == 1);
  CHECK_FALSE(l.snapshot.nodes()[0].has_allocatable_pods);
}

TEST_CASE("a priority class decodes value, default flag, policy and annotations", "[load]") {
  auto l = load_text(R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  annotations: {note: x}
  name: high
globalDefault: true
preemptionPolicy: Never
value: 1000
)");
  REQUIRE(l.snapshot.priority_classes().size() == 1);
  const model::PriorityClass& c = l.snapshot.priority_classes()[0];
  CHECK(c.name == "high");
  CHECK(c.value == 1000);
  CHECK(c.global_default);
  CHECK(c.preemption_policy == "Never");
  CHECK(c.annotations == model::StringMap{{"note", "x"}});
}

TEST_CASE("a disruption budget decodes selector and status, v1 and v1beta1", "[load]") {
  auto l = load_text(R"(apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: b, namespace: ns}
spec:
  selector:
    matchLabels: {app: web}
status:
  disruptedPods: {web-2: "2025-01-01T00:00:00Z", web-1: "2025-01-01T00:00:00Z"}
  disruptionsAllowed: 1
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: old, namespace: ns}
spec: {}
)");
  CHECK(l.messages.empty());
  REQUIRE(l.snapshot.pdbs().size() == 2);
  const model::PodDisruptionBudget& b = l.snapshot.pdbs()[0];
  CHECK(b.namespace_ == "ns");
  CHECK(b.selector.present);
  CHECK(b.selector_valid);
  CHECK(b.has_status);
  CHECK(b.disruptions_allowed == 1);
  CHECK(b.disrupted_pods == std::vector<std::string>{"web-1", "web-2"});
  CHECK_FALSE(l.snapshot.pdbs()[1].selector.present);
  CHECK_FALSE(l.snapshot.pdbs()[1].has_status);
}

TEST_CASE("a disruption budget with an unknown operator is kept but marked invalid", "[load]") {
  auto l = load_text(R"(apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: b, namespace: ns}
spec:
  selector:
    matchExpressions:
    - {key: app, operator: Matches, values: [web]}
)");
  CHECK(l.messages ==
        std::vector<std::string>{
            "dump.yaml:7:28: warning: PodDisruptionBudget ns/b: "
            "spec.selector.matchExpressions[0].operator: \"Matches\" is not a valid label "
            "selector operator; the budget is ignored"});
  REQUIRE(l.snapshot.pdbs().size() == 1);
  CHECK_FALSE(l.snapshot.pdbs()[0].selector_valid);
}

TEST_CASE("scheduler plugin args are flattened to Plugin.arg strings", "[load]") {
  auto l = load_text(R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: DefaultPreemptionArgs
      minCandidateNodesAbsolute: 1
      minCandidateNodesPercentage: 40
    name: DefaultPreemption
  schedulerName: default-scheduler
)");
  CHECK(l.messages.empty());
  CHECK(l.snapshot.scheduler_config().plugin_args ==
        model::StringMap{{"DefaultPreemption.minCandidateNodesAbsolute", "1"},
                         {"DefaultPreemption.minCandidateNodesPercentage", "40"}});
}

}  // namespace
}  // namespace kpreempt::load
