// SPDX-License-Identifier: Apache-2.0
// YuniKorn v1.8 quota preemption: the queues it may fire for, the parent's distribution with
// its rounding and |guarantee - usage| weights, SortAllocations ties and the victim walk with
// guarantee protection; and that none of it becomes a pending pod's victims.
#include "policy/yunikorn/cluster.h"
#include "policy/yunikorn/quota.h"
#include "support/reasons.h"

#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/yunikorn.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kpreempt {
namespace {

namespace yk = policy::yunikorn;
using yk::Res;

constexpr std::int64_t k_gi = 1LL << 30;

// A queues.yaml whose partition enables quota preemption; `queues` is the YAML below root,
// indented as root's children (two spaces per level, starting at column 0).
std::string config(const std::string& queues, bool enabled = true) {
  std::string out =
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\n  namespace: "
      "yunikorn\ndata:\n  queues.yaml: |\n    partitions:\n      - name: default\n";
  if (enabled) {
    out += "        preemption:\n          quotapreemptionenabled: true\n";
  }
  out +=
      "        queues:\n          - name: root\n            submitacl: '*'\n            queues:\n";
  std::size_t start = 0;
  while (start < queues.size()) {
    std::size_t nl = queues.find('\n', start);
    out += "              " + queues.substr(start, nl - start) + "\n";
    start = nl == std::string::npos ? queues.size() : nl + 1;
  }
  return out +
         "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nstatus:\n  allocatable:\n"
         "    cpu: '64'\n    memory: 256Gi\n    pods: '110'\n";
}

struct PodSpec {
  std::string name, queue;
  std::string requests;  // "memory: 3Gi" or "cpu: '1', memory: 2Gi"
  std::string created;   // minutes:seconds after 2026-01-01T00
  std::string app;       // default: the pod's own application
  std::string extra;     // more metadata lines, two-space indented
  bool bound = true;
};

std::string pod(const PodSpec& p) {
  std::string out = "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + p.name +
                    "\n  namespace: default\n  creationTimestamp: '2026-01-01T00:" + p.created +
                    "Z'\n  labels:\n    applicationId: " + (p.app.empty() ? p.name : p.app) +
                    "\n    queue: " + p.queue + "\n" + p.extra +
                    "spec:\n  schedulerName: yunikorn\n  containers:\n  - name: c\n    "
                    "resources:\n      requests: {" +
                    p.requests + "}\n";
  if (p.bound) {
    out += "  nodeName: n1\nstatus:\n  phase: Running\n";
  }
  return out;
}

// The dump and its cluster, kept together: a Cluster refers to its snapshot.
struct World {
  std::unique_ptr<model::Snapshot> snap;
  std::unique_ptr<yk::Cluster> cluster;

  const yk::Cluster& c() const { return *cluster; }
  model::PodId id(const std::string& name) const { return *snap->find_pod("default", name); }
  std::string name(model::PodId id) const { return snap->pods()[id].name; }
  std::vector<std::string> names(const std::vector<model::PodId>& ids) const {
    std::vector<std::string> out;
    for (model::PodId id : ids) {
      out.push_back(name(id));
    }
    return out;
  }
  std::uint32_t queue(const std::string& path) const { return *cluster->find_queue(path); }
};

World world(const std::string& dump, policy::ReleaseLine line = {1, 8}) {
  model::SnapshotBuilder b;
  std::vector<Diagnostic> diags;
  load::load_buffer(dump, "dump.yaml", b, diags);
  for (const Diagnostic& d : diags) {
    INFO(d.message);
  }
  REQUIRE(diags.empty());
  World w;
  w.snap = std::make_unique<model::Snapshot>(std::move(b).build(diags));
  w.cluster = std::make_unique<yk::Cluster>(yk::build_cluster(*w.snap, model::k_none, line));
  return w;
}

// Each pod's code after the walk, by name ("quota-preemption" without its subject).
std::map<std::string, std::string> codes(const World& w, const yk::QuotaLeaf& leaf) {
  std::map<std::string, std::string> out;
  for (const yk::QuotaPod& p : leaf.pods) {
    out[w.name(p.pod)] = std::string(policy::name(p.code));
  }
  return out;
}

Res memory(std::int64_t gi) {
  return {{"memory", gi * k_gi}};
}

// A leaf with max 10Gi and guarantee 8Gi using 14Gi: the excess is 4Gi. Newest first: a 3Gi,
// b 4Gi, c 1Gi, d 2Gi, e 1Gi, f 3Gi, each its own application.
const char* const k_guarded =
    "- name: q\n  resources:\n    guaranteed: {memory: 8Gi}\n    max: {memory: 10Gi}\n"
    "  properties:\n    preemption.quota.delay: 5m\n";

std::string guarded_dump() {
  std::string out = config(k_guarded);
  const std::vector<std::pair<std::string, std::string>> pods{
      {"a", "3Gi"}, {"b", "4Gi"}, {"c", "1Gi"}, {"d", "2Gi"}, {"e", "1Gi"}, {"f", "3Gi"}};
  int minute = 9;
  for (const auto& [name, mem] : pods) {
    out += pod({name, "root.q", "memory: " + mem, fmt::format("{:02}:00", minute--), "", "", true});
  }
  return out;
}

}  // namespace

TEST_CASE("guarantee protection puts a victim back and takes it off the running total",
          "[policy][yunikorn][quota]") {
  const World w = world(guarded_dump());
  const std::vector<yk::QuotaQueue> qs = yk::quota_preemption(w.c());
  REQUIRE(qs.size() == 1);
  CHECK(qs[0].excess == memory(4));
  REQUIRE(qs[0].leaves.size() == 1);
  const yk::QuotaLeaf& leaf = qs[0].leaves[0];
  // b would take the usage to 7Gi < 8Gi: put back, and the total drops to -1Gi, so c and d still
  // go. Adding b never happened, yet subtracting it lets d in: without the quirk the total
  // would reach the excess after c. e and f would go below the guarantee.
  CHECK(codes(w, leaf) ==
        std::map<std::string, std::string>{{"a", "quota-preemption"},
                                           {"b", "would-drop-queue-below-guaranteed"},
                                           {"c", "quota-preemption"},
                                           {"d", "quota-preemption"},
                                           {"e", "would-drop-queue-below-guaranteed"},
                                           {"f", "would-drop-queue-below-guaranteed"}});
  CHECK(w.names(leaf.victims) == std::vector<std::string>{"a", "c", "d"});
  CHECK(leaf.ties.empty());
}

TEST_CASE("a guarantee already met on keys the excess lacks keeps every pod",
          "[policy][yunikorn][quota]") {
  // Over max on vcore, within the guarantee on memory: every pod taken is put back.
  std::string dump = config(
      "- name: q\n  resources:\n    guaranteed: {memory: 10Gi}\n    max: {vcore: 2}\n"
      "  properties:\n    preemption.quota.delay: 1m\n");
  dump += pod({"x", "root.q", "cpu: '2', memory: 1Gi", "01:00", "", "", true});
  dump += pod({"y", "root.q", "cpu: '1', memory: 1Gi", "02:00", "", "", true});
  const World w = world(dump);
  const std::vector<yk::QuotaQueue> qs = yk::quota_preemption(w.c());
  REQUIRE(qs.size() == 1);
  CHECK(qs[0].excess == Res{{"vcore", 1000}});
  const yk::QuotaLeaf& leaf = qs[0].leaves.at(0);
  CHECK(leaf.victims.empty());
  CHECK(codes(w, leaf) ==
        std::map<std::string, std::string>{{"x", "larger-than-excess"},
                                           {"y", "would-drop-queue-below-guaranteed"}});
}

TEST_CASE("pods larger than the excess are skipped, later ones stop at the excess",
          "[policy][yunikorn][quota]") {
  std::string dump = config(
      "- name: q\n  resources:\n    max: {memory: 4Gi}\n  properties:\n"
      "    preemption.quota.delay: 1m\n");
  dump += pod({"w", "root.q", "memory: 1Gi", "01:00", "", "", true});
  dump += pod({"y", "root.q", "memory: 2Gi", "02:00", "", "", true});
  dump += pod({"x", "root.q", "memory: 3Gi", "03:00", "", "", true});
  const World w = world(dump);
  const std::vector<yk::QuotaQueue> qs = yk::quota_preemption(w.c());
  REQUIRE(qs.size() == 1);
  CHECK(qs[0].excess == memory(2));
  const yk::QuotaLeaf& leaf = qs[0].leaves.at(0);
  CHECK(codes(w, leaf) == std::map<std::string, std::string>{{"x", "larger-than-excess"},
                                                             {"y", "quota-preemption"},
                                                             {"w", "not-needed"}});
  CHECK(w.names(leaf.victims) == std::vector<std::string>{"y"});
}

TEST_CASE("DaemonSet, terminating and unrelated pods never enter the walk",
          "[policy][yunikorn][quota]") {
  std::string dump = config(
      "- name: q\n  resources:\n    max: {memory: 1Gi}\n  properties:\n"
      "    preemption.quota.delay: 1m\n");
  dump += pod({"ds", "root.q", "memory: 1Gi", "01:00", "",
               "  ownerReferences:\n  - apiVersion: "
               "apps/v1\n    kind: DaemonSet\n    name: agent\n    uid: u1\n",
               true});
  // The DaemonSet pod needs its node in required affinity to count as one.
  dump.insert(
      dump.find("  nodeName: n1", dump.find("name: ds")),
      "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:"
      "\n        nodeSelectorTerms:\n        - matchFields:\n          - key: metadata.name"
      "\n            operator: In\n            values: [n1]\n");
  dump += pod({"gone", "root.q", "memory: 1Gi", "02:00", "",
               "  deletionTimestamp: '2026-01-01T00:09:00Z'\n", true});
  dump += pod({"cpu-only", "root.q", "cpu: '1'", "03:00", "", "", true});
  dump += pod({"m", "root.q", "memory: 1Gi", "04:00", "", "", true});
  const World w = world(dump);
  const std::vector<yk::QuotaQueue> qs = yk::quota_preemption(w.c());
  REQUIRE(qs.size() == 1);
  // Usage 3Gi (the terminating pod still counts) minus 1Gi being preempted: over by 1Gi.
  CHECK(qs[0].used == Res{{"memory", 3 * k_gi}, {"pods", 4}, {"vcore", 1000}});
  CHECK(qs[0].excess == memory(1));
  const yk::QuotaLeaf& leaf = qs[0].leaves.at(0);
  CHECK(codes(w, leaf) == std::map<std::string, std::string>{{"m", "quota-preemption"},
                                                             {"ds", "required-node"},
                                                             {"gone", "already-preempted"},
                                                             {"cpu-only", "no-common-resource"}});
}

TEST_CASE("a parent's excess is shared by |guarantee - usage| and rounded half to even",
          "[policy][yunikorn][quota]") {
  SECTION("two equal children over by one pod: each share rounds to 0") {
    std::string dump = config(
        "- name: p\n  resources:\n    max: {pods: 5}\n  properties:\n"
        "    preemption.quota.delay: 1m\n  queues:\n    - name: x\n    - name: y\n");
    for (const char* n : {"x1", "x2", "x3"}) {
      dump += pod({n, "root.p.x", "memory: 1Gi", "01:00", "", "", true});
    }
    for (const char* n : {"y1", "y2", "y3"}) {
      dump += pod({n, "root.p.y", "memory: 1Gi", "01:00", "", "", true});
    }
    const World w = world(dump);
    const std::vector<yk::QuotaQueue> qs = yk::quota_preemption(w.c());
    REQUIRE(qs.size() == 1);
    CHECK(qs[0].excess == Res{{"pods", 1}});
    REQUIRE(qs[0].leaves.size() == 2);
    for (const yk::QuotaLeaf& leaf : qs[0].leaves) {
      CHECK(leaf.excess == Res{{"pods", 0}});  // 0.5 rounds to 0
      CHECK(leaf.victims.empty());
      CHECK(leaf.pods.empty());
    }
  }
  SECTION("over by three pods: 1.5 rounds to 2 in each child, four pods go") {
    std::string dump = config(
        "- name: p\n  resources:\n    max: {pods: 3}\n  properties:\n"
        "    preemption.quota.delay: 1m\n  queues:\n    - name: x\n    - name: y\n");
    int second = 10;
    for (const char* n : {"x1", "x2", "x3", "y1", "y2", "y3"}) {
      dump += pod({n, std::string("root.p.") + n[0], "memory: 1Gi",
                   fmt::format("01:{:02}", second++), std::string("app-") + n[0], "", true});
    }
    const World w = world(dump);
    const std::vector<yk::QuotaQueue> qs = yk::quota_preemption(w.c());
    REQUIRE(qs.size() == 1);
    REQUIRE(qs[0].leaves.size() == 2);
    CHECK(qs[0].leaves[0].excess == Res{{"pods", 2}});
    CHECK(qs[0].leaves[1].excess == Res{{"pods", 2}});
    // Newest first; the originators (x1, y1) come last.
    CHECK(w.names(qs[0].leaves[0].victims) == std::vector<std::string>{"x3", "x2"});
    CHECK(w.names(qs[0].leaves[1].victims) == std::vector<std::string>{"y3", "y2"});
  }
  SECTION("a guarantee counts by how far usage is from it, under or over") {
    // z is under its vcore guarantee by 2 cpu and over its memory one: it still weighs 2 cpu
    // against w's 3 (its whole usage). u is within its guarantee and takes no share.
    std::string dump = config(
        "- name: p\n  resources:\n    max: {vcore: 4}\n  properties:\n"
        "    preemption.quota.delay: 1m\n  queues:\n"
        "    - name: z\n      resources:\n        guaranteed: {vcore: 3, memory: 1Gi}\n"
        "    - name: w\n"
        "    - name: u\n      resources:\n        guaranteed: {vcore: 1, memory: 8Gi}\n");
    dump += pod({"z1", "root.p.z", "cpu: '1', memory: 3Gi", "01:00", "", "", true});
    dump += pod({"w1", "root.p.w", "cpu: '3', memory: 1Gi", "01:00", "", "", true});
    dump += pod({"u1", "root.p.u", "cpu: '1', memory: 1Gi", "01:00", "", "", true});
    const World w = world(dump);
    const std::vector<yk::LeafShare> shares =
        yk::distribute(w.c(), w.queue("root.p"), Res{{"vcore", 1000}});
    REQUIRE(shares.size() == 2);
    CHECK(shares[0].queue == w.queue("root.p.z"));
    CHECK(shares[0].base == Res{{"memory", 2 * k_gi}, {"vcore", 2000}});
    CHECK(shares[0].share == Res{{"vcore", 400}});
    CHECK(shares[1].queue == w.queue("root.p.w"));
    CHECK(shares[1].share == Res{{"vcore", 600}});
    // The whole run: the parent uses 5 cpu against 4.
    const std::vector<yk::QuotaQueue> qs = yk::quota_preemption(w.c());
    REQUIRE(qs.size() == 1);
    CHECK(qs[0].excess == Res{{"vcore", 1000}});
    CHECK(qs[0].leaves.size() == 2);
  }
}

TEST_CASE("SortAllocations ties: equal pods, and pods neither of which is smaller",
          "[policy][yunikorn][quota]") {
  std::string dump = config("- name: q\n");
  dump += pod({"first", "root.q", "memory: 1Gi", "00:00", "app", "", true});  // originator
  dump += pod({"eq1", "root.q", "memory: 1Gi", "01:00", "app", "", true});
  dump += pod({"eq2", "root.q", "memory: 1Gi", "01:00", "app", "", true});
  dump += pod({"small", "root.q", "cpu: '1', memory: 1Gi", "02:00", "app", "", true});
  dump += pod({"large", "root.q", "cpu: '2', memory: 2Gi", "02:00", "app", "", true});
  dump += pod({"wide", "root.q", "cpu: '1', memory: 4Gi", "03:00", "app", "", true});
  dump += pod({"tall", "root.q", "cpu: '4', memory: 1Gi", "03:00", "app", "", true});
  const World w = world(dump);
  std::vector<model::PodId> pods;
  for (const char* n : {"first", "eq1", "eq2", "small", "large", "wide", "tall"}) {
    pods.push_back(w.id(n));
  }
  std::vector<std::vector<model::PodId>> ties;
  yk::sort_allocations(w.c(), pods, ties);
  CHECK(w.names(pods) ==
        std::vector<std::string>{"tall", "wide", "small", "large", "eq1", "eq2", "first"});
  REQUIRE(ties.size() == 2);
  CHECK(w.names(ties[0]) == std::vector<std::string>{"tall", "wide"});
  CHECK(w.names(ties[1]) == std::vector<std::string>{"eq1", "eq2"});
}

TEST_CASE("which queues quota preemption may fire for", "[policy][yunikorn][quota]") {
  const std::string queues =
      "- name: over\n  resources:\n    max: {memory: 1Gi}\n  properties:\n"
      "    preemption.quota.delay: 1m\n"
      "- name: nodelay\n  resources:\n    max: {memory: 1Gi}\n"
      "- name: within\n  resources:\n    max: {memory: 4Gi}\n  properties:\n"
      "    preemption.quota.delay: 1m\n"
      "- name: baddelay\n  resources:\n    max: {memory: 1Gi}\n  properties:\n"
      "    preemption.quota.delay: '30'\n"
      "- name: dyn\n  parent: true\n  childtemplate:\n    resources:\n      max: {memory: 1Gi}\n"
      "    properties:\n      preemption.quota.delay: 1m\n";
  std::string pods;
  for (const char* q : {"over", "nodelay", "within", "baddelay", "dyn.leaf"}) {
    for (const char* n : {"-1", "-2"}) {
      pods += pod({std::string(q) + n, std::string("root.") + q, "memory: 1Gi", "01:00",
                   std::string("app-") + q, "", true});
    }
  }
  // A dynamic leaf needs a rule that may create it.
  std::string with_rule = config(queues) + pods;
  with_rule.insert(
      with_rule.find("        queues:"),
      "        placementrules:\n          - name: provided\n            create: true\n");
  SECTION("v1.8 with the partition switch: only the managed queue with a delay") {
    const World w = world(with_rule);
    REQUIRE(w.c().find_queue("root.dyn.leaf"));
    const std::vector<yk::QuotaQueue> qs = yk::quota_preemption(w.c());
    REQUIRE(qs.size() == 1);
    CHECK(w.c().queues[qs[0].queue].q.path == "root.over");
    CHECK(qs[0].delay == "1m");
    CHECK_FALSE(qs[0].pending_ask);
  }
  SECTION("a pending pod at or below the queue is seen") {
    const World w =
        world(with_rule + pod({"ask", "root.over", "memory: 1Gi", "05:00", "", "", false}));
    const std::vector<yk::QuotaQueue> qs = yk::quota_preemption(w.c());
    REQUIRE(qs.size() == 1);
    CHECK(qs[0].pending_ask);
  }
  SECTION("v1.7 has no quota preemption") {
    CHECK(yk::quota_preemption(world(with_rule, {1, 7}).c()).empty());
  }
  SECTION("off unless the partition enables it") {
    std::string off = config(queues, false) + pods;
    off.insert(off.find("        queues:"),
               "        placementrules:\n          - name: provided\n            create: true\n");
    CHECK(yk::quota_preemption(world(off).c()).empty());
  }
}

TEST_CASE("quota preemption victims are never the pending pod's victims",
          "[policy][yunikorn][quota]") {
  const std::string dump =
      guarded_dump() + pod({"ask", "root.q", "memory: 1Gi", "05:30", "", "", false});
  model::SnapshotBuilder b;
  std::vector<Diagnostic> diags;
  load::load_buffer(dump, "dump.yaml", b, diags);
  REQUIRE(diags.empty());
  const model::Snapshot snap = std::move(b).build(diags);
  const model::PodId ask = *snap.find_pod("default", "ask");
  const model::Instant now = *model::parse_time("2026-01-01T00:10:00Z");
  SECTION("by default: one warning naming the queue and the key that lists them") {
    const policy::Args args;
    const policy::Decision d = policy::decide_yunikorn({snap, ask, now, args, model::k_none});
    CHECK(d.victims.empty());
    REQUIRE(d.warnings.size() == 1);
    CHECK(d.warnings[0].find("queue root.q (") != std::string::npos);
    CHECK(d.warnings[0].find("YuniKorn.quotaPreemption=assume-fired") != std::string::npos);
    CHECK_FALSE(d.details.contains("quotaPreemption"));
  }
  SECTION("assume-fired: a table and details of their own") {
    const policy::Args args(model::StringMap{{"YuniKorn.quotaPreemption", "assume-fired"}});
    const policy::Decision d = policy::decide_yunikorn({snap, ask, now, args, model::k_none});
    CHECK(d.victims.empty());
    CHECK(d.warnings.empty());
    const auto& q = d.details.at("quotaPreemption").at("queues").at(0);
    CHECK(q.at("queue") == "root.q");
    CHECK(q.at("reasons") == nlohmann::ordered_json::array({"would-fire-if-reduced"}));
    std::vector<std::string> victims;
    for (const auto& v : q.at("leaves").at(0).at("victims")) {
      victims.push_back(v.at("name").get<std::string>());
      CHECK(v.at("reason") == "quota-preemption:root.q");
    }
    CHECK(victims == std::vector<std::string>{"a", "c", "d"});
    CHECK(d.tables.back().title.starts_with("if quota preemption fires for root.q: "));
  }
  SECTION("a value that is neither note nor assume-fired is a usage error") {
    const policy::Args args(model::StringMap{{"YuniKorn.quotaPreemption", "yes"}});
    CHECK_THROWS_AS(policy::decide_yunikorn({snap, ask, now, args, model::k_none}), UsageError);
  }
}

}  // namespace kpreempt
