// SPDX-License-Identifier: Apache-2.0
// A DaemonSet read as what-if input: one pending pod per node its controller would run it on,
// made when the snapshot is built over the dump's nodes.
#include "load/decode.h"
#include "load/stream.h"

#include "kpreempt/load/events.h"
#include "kpreempt/model/daemon_set.h"

#include <catch2/catch.hpp>

#include <string>

namespace kpreempt::load {
namespace {

struct Expanded {
  model::Snapshot snapshot;
  std::vector<std::string> messages;  // loader and builder diagnostics, formatted
  std::vector<model::ObjectRef> pods;
};

void read(std::string_view text, const std::string& name, DecodeContext& ctx) {
  try {
    read_stream(*open_source(text, name), ctx);
  } catch (const InputError& e) {
    ctx.diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
}

// Reads `cluster` as a dump, then `manifest` as --pod-file does, into one builder.
Expanded expand(std::string_view cluster, std::string_view manifest) {
  model::SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  std::vector<model::ObjectRef> pods;
  DecodeContext dump{builder, diags, nullptr, false};
  read(cluster, "cluster.yaml", dump);
  DecodeContext what_if{builder, diags, &pods, true};
  read(manifest, "ds.yaml", what_if);
  model::Snapshot snap = std::move(builder).build(diags, &pods);
  std::vector<std::string> messages;
  for (const Diagnostic& d : diags) {
    messages.push_back(format(d));
  }
  return Expanded{std::move(snap), std::move(messages), std::move(pods)};
}

std::vector<std::string> names(const Expanded& e) {
  std::vector<std::string> out;
  for (const model::ObjectRef& r : e.pods) {
    out.push_back(r.namespace_ + "/" + r.name);
  }
  return out;
}

const model::Pod& pod(const Expanded& e, std::string_view ns, std::string_view name) {
  auto id = e.snapshot.find_pod(ns, name);
  REQUIRE(id.has_value());
  return e.snapshot.pods()[*id];
}

// A node named `name` with `labels` and `taints` written as flow YAML.
std::string node(const std::string& name, const std::string& labels = "{}",
                 const std::string& taints = "[]") {
  return "---\napiVersion: v1\nkind: Node\nmetadata: {name: " + name + ", labels: " + labels +
         "}\nspec: {taints: " + taints + "}\nstatus: {allocatable: {cpu: '4', pods: '110'}}\n";
}

// A DaemonSet kube-system/agent whose pod template spec has `spec` added (YAML at an indent of
// six spaces).
std::string daemon_set(const std::string& spec = "") {
  return R"(apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata:
      labels: {app: agent, tier: node}
    spec:
      containers:
      - name: agent
        image: registry.example/agent:1.0
        resources: {requests: {cpu: 100m}}
)" + spec;
}

bool has_toleration(const model::Pod& p, std::string_view key, std::string_view effect) {
  return std::any_of(p.tolerations.begin(), p.tolerations.end(), [&](const model::Toleration& t) {
    return t.key == key && t.op == "Exists" && t.effect == effect && t.value.empty();
  });
}

}  // namespace

TEST_CASE("a DaemonSet becomes one pending pod per node, in node-name order", "[daemonset]") {
  Expanded e = expand(node("worker-b") + node("worker-a") + node("worker-c"), daemon_set());
  REQUIRE(e.messages.empty());
  CHECK(names(e) == std::vector<std::string>{"kube-system/agent-what-if-worker-a",
                                             "kube-system/agent-what-if-worker-b",
                                             "kube-system/agent-what-if-worker-c"});
  const model::Pod& p = pod(e, "kube-system", "agent-what-if-worker-b");
  CHECK(p.node_name.empty());
  CHECK(p.pending());
  CHECK(p.phase == "Pending");
  CHECK(p.labels == model::StringMap{{"app", "agent"}, {"tier", "node"}});
  REQUIRE(p.owners.size() == 1);
  CHECK(p.owners[0].kind == "DaemonSet");
  CHECK(p.owners[0].name == "agent");
  CHECK(p.owners[0].controller);
  // Pinned to its node the way the controller pins it, so the scheduler considers no other.
  REQUIRE(p.has_required_node_affinity);
  REQUIRE(p.required_node_affinity.size() == 1);
  CHECK(p.required_node_affinity[0].match_expressions.empty());
  REQUIRE(p.required_node_affinity[0].match_fields.size() == 1);
  const model::Requirement& r = p.required_node_affinity[0].match_fields[0];
  CHECK(r.key == "metadata.name");
  CHECK(r.op == "In");
  CHECK(r.values == std::vector<std::string>{"worker-b"});
  CHECK(model::daemon_target_node(p) == "worker-b");
  CHECK(p.loc.file == "ds.yaml");
  CHECK(p.loc.line == 7);  // spec.template
}

TEST_CASE("a DaemonSet runs only on nodes its node selector matches", "[daemonset]") {
  Expanded e =
      expand(node("gpu-1", "{accelerator: nvidia}") + node("cpu-1", "{accelerator: none}") +
                 node("gpu-2", "{accelerator: nvidia}") + node("bare"),
             daemon_set("      nodeSelector: {accelerator: nvidia}\n"));
  REQUIRE(e.messages.empty());
  CHECK(names(e) == std::vector<std::string>{"kube-system/agent-what-if-gpu-1",
                                             "kube-system/agent-what-if-gpu-2"});
  // The node selector stays on the pod.
  CHECK(pod(e, "kube-system", "agent-what-if-gpu-1").node_selector ==
        model::StringMap{{"accelerator", "nvidia"}});
}

TEST_CASE("a DaemonSet's required node affinity picks the nodes, then gives way to the node's",
          "[daemonset]") {
  Expanded e = expand(node("arm-1", "{kubernetes.io/arch: arm64}") +
                          node("amd-1", "{kubernetes.io/arch: amd64}") +
                          node("arm-2", "{kubernetes.io/arch: arm64}"),
                      daemon_set(R"(      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions:
              - {key: kubernetes.io/arch, operator: In, values: [arm64]}
)"));
  REQUIRE(e.messages.empty());
  CHECK(names(e) == std::vector<std::string>{"kube-system/agent-what-if-arm-1",
                                             "kube-system/agent-what-if-arm-2"});
  const model::Pod& p = pod(e, "kube-system", "agent-what-if-arm-2");
  REQUIRE(p.required_node_affinity.size() == 1);
  CHECK(p.required_node_affinity[0].match_expressions.empty());
  CHECK(p.required_node_affinity[0].match_fields[0].values == std::vector<std::string>{"arm-2"});
}

TEST_CASE("a node with a NoSchedule or NoExecute taint the pod does not tolerate gets no pod",
          "[daemonset]") {
  const std::string cluster =
      node("plain") + node("infra", "{}", "[{key: dedicated, value: infra, effect: NoSchedule}]") +
      node("draining", "{}", "[{key: maintenance, effect: NoExecute}]") +
      node("soft", "{}", "[{key: dedicated, value: infra, effect: PreferNoSchedule}]");
  SECTION("without a toleration") {
    Expanded e = expand(cluster, daemon_set());
    REQUIRE(e.messages.empty());
    CHECK(names(e) == std::vector<std::string>{"kube-system/agent-what-if-plain",
                                               "kube-system/agent-what-if-soft"});
  }
  SECTION("with the template's tolerations") {
    Expanded e = expand(cluster, daemon_set(R"(      tolerations:
      - {key: dedicated, operator: Equal, value: infra, effect: NoSchedule}
      - {key: maintenance, operator: Exists}
)"));
    REQUIRE(e.messages.empty());
    CHECK(names(e) == std::vector<std::string>{
                          "kube-system/agent-what-if-draining", "kube-system/agent-what-if-infra",
                          "kube-system/agent-what-if-plain", "kube-system/agent-what-if-soft"});
  }
}

TEST_CASE("the controller's own tolerations let its pods on nodes in trouble", "[daemonset]") {
  const std::string cluster =
      node("not-ready", "{}", "[{key: node.kubernetes.io/not-ready, effect: NoExecute}]") +
      node("unreachable", "{}", "[{key: node.kubernetes.io/unreachable, effect: NoExecute}]") +
      node("disk", "{}", "[{key: node.kubernetes.io/disk-pressure, effect: NoSchedule}]") +
      node("memory", "{}", "[{key: node.kubernetes.io/memory-pressure, effect: NoSchedule}]") +
      node("pid", "{}", "[{key: node.kubernetes.io/pid-pressure, effect: NoSchedule}]") +
      node("cordoned", "{}", "[{key: node.kubernetes.io/unschedulable, effect: NoSchedule}]") +
      node("no-network", "{}",
           "[{key: node.kubernetes.io/network-unavailable, effect: NoSchedule}]");
  SECTION("without hostNetwork the network-unavailable taint keeps it off") {
    Expanded e = expand(cluster, daemon_set());
    CHECK(e.pods.size() == 6);
    CHECK(e.snapshot.find_pod("kube-system", "agent-what-if-no-network") == std::nullopt);
    const model::Pod& p = pod(e, "kube-system", "agent-what-if-disk");
    CHECK(p.tolerations.size() == 6);
    CHECK(has_toleration(p, "node.kubernetes.io/not-ready", "NoExecute"));
    CHECK(has_toleration(p, "node.kubernetes.io/unreachable", "NoExecute"));
    CHECK(has_toleration(p, "node.kubernetes.io/unschedulable", "NoSchedule"));
    CHECK_FALSE(has_toleration(p, "node.kubernetes.io/network-unavailable", "NoSchedule"));
  }
  SECTION("with hostNetwork it tolerates network-unavailable too") {
    Expanded e = expand(cluster, daemon_set("      hostNetwork: true\n"));
    REQUIRE(e.messages.empty());
    CHECK(e.pods.size() == 7);
    const model::Pod& p = pod(e, "kube-system", "agent-what-if-no-network");
    CHECK(has_toleration(p, "node.kubernetes.io/network-unavailable", "NoSchedule"));
  }
}

TEST_CASE("a toleration the controller adds is not repeated", "[daemonset]") {
  model::Pod p;
  p.tolerations = {{"node.kubernetes.io/not-ready", "Exists", "", "NoExecute"},
                   {"node.kubernetes.io/unreachable", "", "", "NoExecute"}};
  model::add_daemon_tolerations(p, true);
  CHECK(p.tolerations.size() == 8);  // the second differs in operator: added
  CHECK(p.tolerations[0].key == "node.kubernetes.io/not-ready");
  CHECK(p.tolerations[2].key == "node.kubernetes.io/unreachable");
  CHECK(p.tolerations[2].op == "Exists");
  CHECK(p.tolerations.back().key == "node.kubernetes.io/network-unavailable");
}

TEST_CASE("a node that runs a pod of the DaemonSet already gets no other", "[daemonset]") {
  const std::string cluster = node("node-a") + node("node-b") + node("node-c") + node("node-d") +
                              R"(---
apiVersion: v1
kind: Pod
metadata:
  name: agent-x7k2p
  namespace: kube-system
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: u1, controller: true}]
spec:
  nodeName: node-b
  containers: [{name: agent}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata:
  name: agent-q9w4z
  namespace: kube-system
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: u1, controller: true}]
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchFields: [{key: metadata.name, operator: In, values: [node-d]}]
  containers: [{name: agent}]
status: {phase: Pending}
---
apiVersion: v1
kind: Pod
metadata:
  name: agent-f4iled
  namespace: kube-system
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: u1, controller: true}]
spec:
  nodeName: node-a
  containers: [{name: agent}]
status: {phase: Failed}
---
apiVersion: v1
kind: Pod
metadata:
  name: agent-other
  namespace: monitoring
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: u2, controller: true}]
spec:
  nodeName: node-c
  containers: [{name: agent}]
status: {phase: Running}
)";
  Expanded e = expand(cluster, daemon_set());
  // A finished pod is replaced; a pod of another namespace's DaemonSet is not this one's.
  CHECK(names(e) == std::vector<std::string>{"kube-system/agent-what-if-node-a",
                                             "kube-system/agent-what-if-node-c"});
  CHECK(e.messages ==
        std::vector<std::string>{"ds.yaml:1:1: note: DaemonSet kube-system/agent: 2 of the 4 nodes "
                                 "it would run on run a pod of it already; no pod is made for "
                                 "them"});
}

TEST_CASE("a DaemonSet whose every node runs its pod already makes none, with a warning",
          "[daemonset]") {
  const std::string cluster = node("only") + R"(---
apiVersion: v1
kind: Pod
metadata:
  name: agent-x7k2p
  namespace: kube-system
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: u1, controller: true}]
spec:
  nodeName: only
  containers: [{name: agent}]
status: {phase: Running}
)";
  Expanded e = expand(cluster, daemon_set());
  CHECK(e.pods.empty());
  CHECK(e.messages == std::vector<std::string>{
                          "ds.yaml:1:1: warning: DaemonSet kube-system/agent: every node it would "
                          "run on (1) runs a pod of it already; no pod to create"});
}

TEST_CASE("a DaemonSet no node would run says why, and makes no pod", "[daemonset]") {
  const std::string cluster =
      node("cpu-1", "{accelerator: none}") +
      node("gpu-1", "{accelerator: nvidia}",
           "[{key: nvidia.com/gpu, value: present, effect: NoSchedule}]") +
      node("gpu-2", "{accelerator: nvidia}", "[{key: nvidia.com/gpu, effect: NoExecute}]");
  Expanded e = expand(cluster, daemon_set("      nodeSelector: {accelerator: nvidia}\n"));
  CHECK(e.pods.empty());
  CHECK(e.snapshot.pods().empty());
  CHECK(e.messages ==
        std::vector<std::string>{
            "ds.yaml:1:1: warning: DaemonSet kube-system/agent: no node would run its pod: 1 node "
            "does not match its node selector and required node affinity; 2 nodes have a "
            "NoSchedule or NoExecute taint it does not tolerate (first: gpu-1 "
            "nvidia.com/gpu=present:NoSchedule)"});
}

TEST_CASE("a DaemonSet over a dump without nodes makes no pod", "[daemonset]") {
  Expanded e = expand("", daemon_set());
  CHECK(e.pods.empty());
  CHECK(e.messages == std::vector<std::string>{"ds.yaml:1:1: warning: DaemonSet "
                                               "kube-system/agent: the input holds no node; no "
                                               "pod to create"});
}

TEST_CASE("a template's nodeName limits a DaemonSet to that node", "[daemonset]") {
  Expanded e = expand(node("node-a") + node("node-b"), daemon_set("      nodeName: node-b\n"));
  REQUIRE(e.pods.size() == 1);
  CHECK(e.pods[0].name == "agent-what-if-node-b");
  Expanded none = expand(node("node-a"), daemon_set("      nodeName: node-z\n"));
  CHECK(none.pods.empty());
  CHECK(none.messages == std::vector<std::string>{
                             "ds.yaml:1:1: warning: DaemonSet kube-system/agent: no node would run "
                             "its pod: 1 node is not its spec.template.spec.nodeName \"node-z\""});
}

TEST_CASE("a DaemonSet's pods take their priority from the template's PriorityClass",
          "[daemonset]") {
  const std::string cluster = R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: node-agents}
value: 900000
)" + node("node-a");
  Expanded e = expand(cluster, daemon_set("      priorityClassName: node-agents\n"));
  REQUIRE(e.messages.empty());
  auto id = e.snapshot.find_pod("kube-system", "agent-what-if-node-a");
  REQUIRE(id.has_value());
  CHECK(e.snapshot.facts(*id).priority == 900000);
  CHECK(e.snapshot.facts(*id).node == model::k_none);
}

TEST_CASE("in a cluster dump a DaemonSet is skipped, not expanded", "[daemonset]") {
  Expanded e = expand(node("node-a") + "---\n" + daemon_set(), "");
  CHECK(e.pods.empty());
  CHECK(e.snapshot.pods().empty());
  CHECK(e.snapshot.skipped_kinds() == model::StringMap{{"DaemonSet", "1"}});
}

TEST_CASE("a DaemonSet without a pod template is refused", "[daemonset]") {
  Expanded e = expand(node("node-a"),
                      "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec: {}\n");
  CHECK(e.pods.empty());
  REQUIRE(e.messages.size() == 1);
  CHECK_THAT(e.messages[0], Catch::Contains("DaemonSet default/agent: spec.template: required "
                                            "field is missing"));
}

}  // namespace kpreempt::load
