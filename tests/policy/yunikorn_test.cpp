// SPDX-License-Identifier: Apache-2.0
// YuniKorn policy: fences, priority offsets, preconditions, the required-node path and the
// resource arithmetic quirks, on small dumps written inline.
#include "kpreempt/policy/yunikorn.h"

#include "policy/yunikorn/cluster.h"
#include "policy/yunikorn/placement.h"
#include "policy/yunikorn/resources.h"
#include "support/reasons.h"

#include "kpreempt/load/load.h"
#include "kpreempt/model/snapshot.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace kpreempt {
namespace {

using policy::yunikorn::Res;

std::string config_map(const std::string& queues) {
  std::string out =
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\n  namespace: "
      "yunikorn\ndata:\n  queues.yaml: |\n    partitions:\n      - name: default\n        "
      "queues:\n          - name: root\n            submitacl: '*'\n            queues:\n";
  std::size_t start = 0;
  while (start < queues.size()) {
    std::size_t nl = queues.find('\n', start);
    out += "              " + queues.substr(start, nl - start) + "\n";
    start = nl == std::string::npos ? queues.size() : nl + 1;
  }
  return out;
}

std::string node(const std::string& name, const std::string& cpu) {
  return "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
         "\nstatus:\n  allocatable:\n    cpu: '" + cpu + "'\n    memory: 16Gi\n    pods: '110'\n";
}

struct PodSpec {
  std::string name, queue, app, created, node;
  int priority = 0;
  std::string extra_spec;  // more spec lines, two-space indented
};

std::string pod(const PodSpec& p) {
  std::string out =
      "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + p.name +
      "\n  namespace: default\n  creationTimestamp: '" + p.created +
      "'\n  labels:\n    applicationId: " + p.app + "\n    queue: " + p.queue +
      "\nspec:\n  schedulerName: yunikorn\n  priority: " + std::to_string(p.priority) + "\n" +
      p.extra_spec +
      "  containers:\n  - name: c\n    resources:\n      requests:\n        cpu: '1'\n";
  if (!p.node.empty()) {
    out += "  nodeName: " + p.node + "\nstatus:\n  phase: Running\n";
  }
  return out;
}

struct Run {
  policy::Decision d;
  std::string code_of(const std::string& name) const {
    for (const policy::NodeVerdict& n : d.nodes) {
      for (const policy::PodVerdict& p : n.pods) {
        if (p.pod.name == name) {
          return render::reason_text(p.code);
        }
      }
    }
    return "";
  }
  std::vector<std::string> victims() const {
    std::vector<std::string> out;
    for (const policy::Victim& v : d.victims) {
      out.push_back(v.ref.name);
    }
    return out;
  }
};

Run run(const std::string& dump, const std::string& preemptor,
        const std::string& now = "2026-01-01T00:10:00Z") {
  model::SnapshotBuilder b;
  std::vector<Diagnostic> diags;
  load::load_buffer(dump, "dump.yaml", b, diags);
  for (const Diagnostic& d : diags) {
    INFO(d.message);
  }
  REQUIRE(diags.empty());
  const model::Snapshot snap = std::move(b).build(diags);
  const policy::Args args;
  const policy::Input in{snap, *snap.find_pod("default", preemptor), *model::parse_time(now), args,
                         model::k_none};
  return Run{policy::decide_yunikorn(in)};
}

// Four 1-cpu pods fill a 4-cpu node: two in `victim_queue`, two in `other_queue`, and a
// pending 1-cpu ask in `ask_queue`.
std::string full_node(const std::string& queues, const std::string& victim_queue,
                      const std::string& other_queue, const std::string& ask_queue,
                      int victim_priority = 0) {
  return config_map(queues) + node("n1", "4") +
         pod({"v-1", victim_queue, "app-v", "2026-01-01T00:00:00Z", "n1", victim_priority, ""}) +
         pod({"v-2", victim_queue, "app-v", "2026-01-01T00:01:00Z", "n1", victim_priority, ""}) +
         pod({"o-1", other_queue, "app-o", "2026-01-01T00:02:00Z", "n1", 0, ""}) +
         pod({"o-2", other_queue, "app-o", "2026-01-01T00:03:00Z", "n1", 0, ""}) +
         pod({"ask", ask_queue, "app-a", "2026-01-01T00:05:00Z", "", 0, ""});
}

// A tag rule whose parent rule reads the namespace's parentqueue annotation, on a queue file
// with a configured parent `tenants` and a leaf `batch`.
std::string parentqueue_dump(const std::string& ns_annotations) {
  return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\n  namespace: "
         "yunikorn\ndata:\n  queues.yaml: |\n    partitions:\n      - name: default\n"
         "        placementrules:\n          - name: tag\n            value: namespace\n"
         "            create: true\n            parent:\n              name: tag\n"
         "              value: namespace.parentqueue\n        queues:\n          - name: root\n"
         "            queues:\n              - name: tenants\n                parent: true\n"
         "              - name: batch\n"
         "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-x\n  annotations:\n" +
         ns_annotations +
         "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: x1\n  namespace: team-x\n"
         "  creationTimestamp: '2026-01-01T00:05:00Z'\nspec:\n  schedulerName: yunikorn\n"
         "  containers:\n  - name: c\n    resources:\n      requests:\n        cpu: '1'\n";
}

struct Placed {
  std::string path;
  std::optional<Res> guaranteed, max;
};

Placed place_x1(const std::string& ns_annotations) {
  model::SnapshotBuilder b;
  std::vector<Diagnostic> diags;
  load::load_buffer(parentqueue_dump(ns_annotations), "dump.yaml", b, diags);
  REQUIRE(diags.empty());
  const model::Snapshot snap = std::move(b).build(diags);
  const model::PodId x1 = *snap.find_pod("team-x", "x1");
  const policy::yunikorn::Cluster c =
      policy::yunikorn::build_cluster(snap, x1, policy::ReleaseLine{1, 8});
  const std::uint32_t q = c.pods[x1].queue;
  if (q == policy::yunikorn::k_no_queue) {
    return {};
  }
  return {c.queues[q].q.path, c.queues[q].q.guaranteed, c.queues[q].q.max};
}

TEST_CASE("the parentqueue annotation places a namespace below a configured parent",
          "[policy][yunikorn]") {
  Placed p = place_x1(
      "    yunikorn.apache.org/parentqueue: root.tenants\n"
      "    yunikorn.apache.org/namespace.guaranteed: '{\"cpu\": \"2\", \"memory\": \"1Ki\"}'\n"
      "    yunikorn.apache.org/namespace.quota: '{\"cpu\": \"500m\", \"nvidia.com/gpu\": "
      "\"0\"}'\n");
  CHECK(p.path == "root.tenants.team-x");
  CHECK(p.guaranteed == Res{{"memory", 1024}, {"vcore", 2000}});
  // a zero entry passes the core's filter while another value is positive
  CHECK(p.max == Res{{"nvidia.com/gpu", 0}, {"vcore", 500}});

  // a short parent name is qualified with root
  CHECK(place_x1("    yunikorn.apache.org/parentqueue: tenants\n").path == "root.tenants.team-x");
  // without the annotation the parent rule does not match and nothing else places the pod
  CHECK(place_x1("    other: x\n").path.empty());
  // the parent rule may not create, so a missing parent does not match either
  CHECK(place_x1("    yunikorn.apache.org/parentqueue: root.nope\n").path.empty());
  // a leaf as the parent fails placement
  CHECK(place_x1("    yunikorn.apache.org/parentqueue: root.batch\n").path.empty());
  // a negative value or bad JSON drops the resource; the deprecated keys need no quota key
  Placed bad = place_x1(
      "    yunikorn.apache.org/parentqueue: root.tenants\n"
      "    yunikorn.apache.org/namespace.guaranteed: '{\"cpu\": \"-1\", \"memory\": \"1\"}'\n"
      "    yunikorn.apache.org/namespace.max.cpu: '3'\n");
  CHECK_FALSE(bad.guaranteed.has_value());
  CHECK(bad.max == Res{{"vcore", 3000}});
}

// A 4-cpu pod of its own application in `queue`, asking for `memory` (none when empty); running
// on `node_name`, or pending when that is empty.
std::string cpu4_pod(const std::string& name, const std::string& queue, const std::string& created,
                     const std::string& memory, const std::string& node_name) {
  std::string out = "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
                    "\n  namespace: default\n  creationTimestamp: '" + created +
                    "'\n  labels:\n    applicationId: app-" + name + "\n    queue: " + queue +
                    "\nspec:\n  schedulerName: yunikorn\n  containers:\n  - name: main\n"
                    "    resources:\n      requests:\n        cpu: '4'\n";
  if (!memory.empty()) {
    out += "        memory: '" + memory + "'\n";
  }
  if (!node_name.empty()) {
    out += "  nodeName: " + node_name + "\nstatus:\n  phase: Running\n";
  }
  return out;
}

const std::string k_worker_1 =
    "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: worker-1\nstatus:\n"
    "  allocatable:\n    cpu: '8'\n    memory: 32Gi\n    pods: '110'\n";

// The shape of testdata/advise/yunikorn/save.yaml, smaller: two 4-cpu/8Gi pods fill an 8-cpu
// node, one in `batch` (no guarantee) and one in `analytics` (guarantee vcore 2), and a pending
// 4-cpu pod in `ml` (guarantee vcore 6) asks for `ask_memory`.
std::string full_node_memory(const std::string& ask_memory) {
  return config_map(
             "- name: analytics\n  resources:\n    guaranteed: {vcore: 2}\n"
             "- name: batch\n"
             "- name: ml\n  resources:\n    guaranteed: {vcore: 6}\n") +
         k_worker_1 +
         cpu4_pod("backfill-0", "root.batch", "2026-01-01T00:01:00Z", "8Gi", "worker-1") +
         cpu4_pod("report-builder", "root.analytics", "2026-01-01T00:03:00Z", "8Gi", "worker-1") +
         cpu4_pod("trainer-0", "root.ml", "2026-01-01T00:05:00Z", ask_memory, "");
}

}  // namespace

TEST_CASE("an ask with a zero memory request reserves the node without a victim",
          "[policy][yunikorn]") {
  // Upstream's trimming (TryPreemption, StrictlyGreaterThanOnlyExisting against the empty
  // victim total) needs every ask value > 0: memory 0 keeps the first victim out, and every
  // later total exceeds the ask's 0 on memory. The node is still reserved.
  Run zero = run(full_node_memory("0"), "trainer-0");
  CHECK(zero.d.outcome == policy::Outcome::preempt);
  CHECK(zero.d.node == "worker-1");
  CHECK(zero.victims().empty());
  CHECK(zero.code_of("report-builder") == "not-needed");
  CHECK(zero.code_of("backfill-0") == "not-needed");
  CHECK(zero.d.summary.find("requests 0 of memory") != std::string::npos);
  // The same ask without the explicit zero, or with a real memory request, takes one victim.
  for (const std::string& memory : {std::string(), std::string("8Gi")}) {
    INFO("memory " << memory);
    Run r = run(full_node_memory(memory), "trainer-0");
    CHECK(r.d.outcome == policy::Outcome::preempt);
    CHECK(r.victims() == std::vector<std::string>{"report-builder"});
  }
}

TEST_CASE("a queue over its max on a key still fits an ask requesting 0 of it",
          "[policy][yunikorn]") {
  using namespace policy::yunikorn;
  // FitInMaxUndef: a negative headroom value reads as 0, a missing one as unlimited.
  const ORes headroom = Res{{"memory", -1024}, {"vcore", 2000}};
  CHECK(fits_defined(headroom, Res{{"memory", 0}, {"pods", 1}, {"vcore", 1000}}));
  CHECK_FALSE(fits_defined(headroom, Res{{"memory", 1}, {"pods", 1}, {"vcore", 1000}}));
  CHECK_FALSE(fits_defined(headroom, Res{{"pods", 1}, {"vcore", 3000}}));
  // `ml` (max memory 1Gi) already uses 8Gi and the node has room: upstream finds the ask a
  // node instead of trying preemption, which would find no candidate here.
  const std::string dump =
      config_map(
          "- name: ml\n  resources:\n    guaranteed: {vcore: 6}\n"
          "    max: {memory: 1Gi}\n") +
      k_worker_1 + cpu4_pod("trainer-old", "root.ml", "2026-01-01T00:01:00Z", "8Gi", "worker-1") +
      cpu4_pod("trainer-0", "root.ml", "2026-01-01T00:05:00Z", "0", "");
  Run r = run(dump, "trainer-0");
  CHECK(r.d.outcome == policy::Outcome::fits);
  CHECK(r.d.node == "worker-1");
  Run more = run(dump.substr(0, dump.rfind("'0'")) + "'1'\n", "trainer-0");
  CHECK(more.d.outcome == policy::Outcome::unschedulable);
}

TEST_CASE("a fenced tenant parent keeps victims inside its subtree", "[policy][yunikorn]") {
  const std::string queues =
      "- name: tenants\n  properties:\n    preemption.policy: fence\n  queues:\n"
      "    - name: a\n      resources:\n        guaranteed: {vcore: 2}\n    - name: b\n"
      "- name: batch\n";
  Run r = run(full_node(queues, "root.tenants.b", "root.batch", "root.tenants.a"), "ask");
  CHECK(r.d.outcome == policy::Outcome::preempt);
  CHECK(r.victims() == std::vector<std::string>{"v-2"});
  CHECK(r.code_of("o-2") == "outside-fence");
  CHECK(r.code_of("v-1") == "not-needed");
  CHECK(r.d.details.dump().find("\"fenceRoot\":\"root.tenants\"") != std::string::npos);
}

TEST_CASE("a priority fence with a higher offset hides a whole subtree", "[policy][yunikorn]") {
  const std::string queues =
      "- name: a\n  resources:\n    guaranteed: {vcore: 2}\n"
      "- name: vip\n  properties:\n    priority.policy: fence\n    priority.offset: \"10\"\n"
      "- name: batch\n";
  Run r = run(full_node(queues, "root.vip", "root.batch", "root.a"), "ask");
  CHECK(r.code_of("v-1") == "priority-fenced-subtree");
  CHECK(r.victims() == std::vector<std::string>{"o-2"});
}

TEST_CASE("pods above the ask's effective priority are protected", "[policy][yunikorn]") {
  const std::string queues =
      "- name: a\n  resources:\n    guaranteed: {vcore: 2}\n- name: b\n- name: c\n";
  Run r = run(full_node(queues, "root.b", "root.c", "root.a", 5), "ask");
  CHECK(r.code_of("v-2") == "higher-priority");
  CHECK(r.victims() == std::vector<std::string>{"o-2"});
}

TEST_CASE("a disabled victim queue protects its pods", "[policy][yunikorn]") {
  const std::string queues =
      "- name: a\n  resources:\n    guaranteed: {vcore: 2}\n"
      "- name: b\n  properties:\n    preemption.policy: disabled\n- name: c\n";
  Run r = run(full_node(queues, "root.b", "root.c", "root.a"), "ask");
  CHECK(r.code_of("v-1") == "queue-preemption-disabled");
  CHECK(r.victims() == std::vector<std::string>{"o-2"});
}

TEST_CASE("the preemption delay counts from the pod's creation", "[policy][yunikorn]") {
  const std::string queues =
      "- name: a\n  resources:\n    guaranteed: {vcore: 2}\n  properties:\n"
      "    preemption.delay: 10m\n- name: b\n- name: c\n";
  Run r = run(full_node(queues, "root.b", "root.c", "root.a"), "ask");
  CHECK(r.d.outcome == policy::Outcome::unschedulable);
  CHECK(testing::reason_texts(r.d).front() == "delay-not-elapsed");
  Run later = run(full_node(queues, "root.b", "root.c", "root.a"), "ask", "2026-01-01T00:15:00Z");
  CHECK(later.d.outcome == policy::Outcome::preempt);
}

TEST_CASE("a leaf with no guarantee on its path never triggers preemption", "[policy][yunikorn]") {
  Run r = run(full_node("- name: a\n- name: b\n- name: c\n", "root.b", "root.c", "root.a"), "ask");
  CHECK(r.d.outcome == policy::Outcome::unschedulable);
  CHECK(testing::reason_texts(r.d).front() == "does-not-guarantee");
}

TEST_CASE("a pending pod with no matching queue and no root.default is rejected",
          "[policy][yunikorn]") {
  Run r =
      run(full_node("- name: a\n- name: b\n- name: c\n", "root.b", "root.c", "root.nope"), "ask");
  CHECK(testing::reason_texts(r.d).front() == "rejected-by-placement");
}

TEST_CASE("a DaemonSet pod preempts on its own node regardless of queues", "[policy][yunikorn]") {
  const std::string ds =
      "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: ds\n  namespace: default\n"
      "  creationTimestamp: '2026-01-01T00:09:59Z'\n  labels:\n    applicationId: app-ds\n"
      "    queue: root.c\n  ownerReferences:\n  - apiVersion: apps/v1\n    kind: DaemonSet\n"
      "    name: agent\n    uid: x\nspec:\n  schedulerName: yunikorn\n  affinity:\n"
      "    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
      "        nodeSelectorTerms:\n        - matchFields:\n          - key: metadata.name\n"
      "            operator: In\n            values: [n1]\n  containers:\n  - name: c\n"
      "    resources:\n      requests:\n        cpu: '1'\n";
  // A second, empty node leaves root headroom (the cluster size) for the DaemonSet pod.
  Run r = run(full_node("- name: a\n- name: b\n- name: c\n", "root.b", "root.c", "root.a") +
                  node("n2", "4") + ds,
              "ds");
  CHECK(r.d.outcome == policy::Outcome::preempt);
  CHECK(testing::reason_texts(r.d).front() == "required-node-preemption");
  CHECK(r.d.node == "n1");
  // Regular pods (not originators) go first, newest first; queues play no part.
  CHECK(r.victims() == std::vector<std::string>{"o-2"});
}

TEST_CASE("victims must cover the whole ask by themselves", "[policy][yunikorn]") {
  using namespace policy::yunikorn;
  const Res ask{{"pods", 1}, {"vcore", 5000}};
  CHECK(not_covered(ask, Res{}));
  CHECK(not_covered(ask, Res{{"pods", 1}, {"vcore", 4000}}));
  CHECK_FALSE(not_covered(ask, Res{{"pods", 2}, {"vcore", 2000}}));  // the pods-count cap
  CHECK(not_covered(ask, Res{{"memory", 10}}));                      // no shared key: never covers
}

}  // namespace kpreempt
