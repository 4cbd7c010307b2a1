// SPDX-License-Identifier: Apache-2.0
// Decisions applied in place: the node tables follow each change, and undo restores them.

#include "kpreempt/model/snapshot_edit.h"

#include "support/builders.h"

#include <catch2/catch.hpp>

using namespace kpreempt;
using namespace kpreempt::testing;

namespace {

model::PodAffinityTerm zone_term() {
  return term(selector({{"app", "db"}}), "kubernetes.io/hostname");
}

Cluster cluster() {
  Cluster c;
  c.add(node("n1").cpu("4"))
      .add(node("n2").cpu("4"))
      .add(pod("a/x").on("n1").priority(1).cpu("1").label("app", "web"))
      .add(pod("a/y").on("n2").priority(1).cpu("2").anti_affinity(zone_term()))
      .add(pod("a/p").pending().priority(9).cpu("3").anti_affinity(zone_term()).nominated("n2"))
      .add(pdb("a/web").match_label("app", "web").allowed(1));
  return c;
}

std::vector<model::PodId> ids(std::span<const model::PodId> s) {
  return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("binding a pending pod updates its node's sums, lists and nomination", "[model][edit]") {
  const Cluster c = cluster();
  model::Snapshot snap = c.snapshot();
  const model::PodId x = c.pod_id("a/x"), y = c.pod_id("a/y"), p = c.pod_id("a/p");
  const model::NodeId n1 = *snap.find_node("n1"), n2 = *snap.find_node("n2");
  {
    model::SnapshotEdit edit(snap);
    edit.bind(p, n1, at("2026-01-01T00:00:00Z"));
    CHECK(snap.pods()[p].node_name == "n1");
    CHECK_FALSE(snap.pods()[p].pending());
    CHECK(snap.facts(p).node == n1);
    CHECK(ids(snap.pods_on(n1)) == std::vector<model::PodId>{x, p});
    CHECK(snap.node_facts(n1).requested.cpu_milli == 4000);
    CHECK(snap.nominated_to(n2).empty());
    // Node by node in id order: n1's new entry comes before n2's.
    CHECK(ids(snap.pods_with_required_anti_affinity()) == std::vector<model::PodId>{p, y});
  }
  // The edit's end undoes it.
  CHECK(snap.pods()[p].pending());
  CHECK(ids(snap.pods_on(n1)) == std::vector<model::PodId>{x});
  CHECK(snap.node_facts(n1).requested.cpu_milli == 1000);
  CHECK(ids(snap.nominated_to(n2)) == std::vector<model::PodId>{p});
  CHECK(ids(snap.pods_with_required_anti_affinity()) == std::vector<model::PodId>{y});
}

TEST_CASE("a removed victim frees its node and uses its budget's allowance", "[model][edit]") {
  const Cluster c = cluster();
  model::Snapshot snap = c.snapshot();
  const model::PodId x = c.pod_id("a/x"), y = c.pod_id("a/y");
  const model::NodeId n1 = *snap.find_node("n1"), n2 = *snap.find_node("n2");
  model::SnapshotEdit edit(snap);
  for (std::uint32_t b : snap.pdbs_of(x)) {
    edit.use_disruption(b);
    edit.use_disruption(b);  // never below zero
  }
  edit.remove(x);
  edit.remove(y);
  CHECK(snap.pods()[x].terminal());
  CHECK(snap.pods_on(n1).empty());
  CHECK(snap.node_facts(n1).requested.cpu_milli == 0);
  CHECK(snap.node_facts(n2).requested.cpu_milli == 0);
  CHECK(snap.pods_with_required_anti_affinity().empty());
  CHECK(snap.pdbs()[0].disruptions_allowed == 0);
  edit.undo();
  CHECK(snap.pods()[x].phase == "Running");
  CHECK(snap.node_facts(n1).requested.cpu_milli == 1000);
  CHECK(snap.pdbs()[0].disruptions_allowed == 1);
  CHECK(ids(snap.pods_with_required_anti_affinity()) == std::vector<model::PodId>{y});
}

TEST_CASE("a removed pod made again is pending off every node, and undo puts it back",
          "[model][edit]") {
  const Cluster c = cluster();
  model::Snapshot snap = c.snapshot();
  const model::PodId x = c.pod_id("a/x");
  const model::NodeId n1 = *snap.find_node("n1");
  const model::Instant now = at("2026-01-02T00:00:00Z");
  model::SnapshotEdit edit(snap);
  edit.remove(x);
  edit.repend(x, now);
  CHECK(snap.pods()[x].pending());
  CHECK(snap.pods()[x].phase == "Pending");
  CHECK(snap.pods()[x].node_name.empty());
  CHECK(snap.pods()[x].creation_timestamp == now);
  CHECK(snap.facts(x).node == model::k_none);
  CHECK(snap.pods_on(n1).empty());
  CHECK(snap.node_facts(n1).requested.cpu_milli == 0);
  // Bound again, it counts on its new node once.
  edit.bind(x, n1, now);
  CHECK(ids(snap.pods_on(n1)) == std::vector<model::PodId>{x});
  CHECK(snap.node_facts(n1).requested.cpu_milli == 1000);
  edit.undo();
  CHECK(snap.pods()[x].phase == "Running");
  CHECK(snap.pods()[x].node_name == "n1");
  CHECK(snap.facts(x).node == n1);
  CHECK(ids(snap.pods_on(n1)) == std::vector<model::PodId>{x});
  CHECK(snap.node_facts(n1).requested.cpu_milli == 1000);
}

TEST_CASE("a Workload admitted and evicted holds and gives back quota", "[model][edit]") {
  model::SnapshotBuilder b;
  model::Workload w;
  w.namespace_ = "team-a";
  w.name = "job-a";
  b.kueue().workloads.push_back(w);
  std::vector<Diagnostic> diags;
  model::Snapshot snap = std::move(b).build(diags);
  model::SnapshotEdit edit(snap);
  edit.admit(0, "cq", {model::KueuePodSetAssignment{"main", {{"cpu", "default"}}, {}, 1}},
             at("2026-01-01T00:00:00Z"));
  CHECK(snap.kueue().workloads[0].admitted);
  CHECK(model::condition_true(snap.kueue().workloads[0], "QuotaReserved"));
  const std::uint32_t added = edit.add(model::Workload{});
  CHECK(snap.kueue().workloads.size() == 2);
  edit.evict(0, at("2026-01-01T00:01:00Z"));
  CHECK_FALSE(snap.kueue().workloads[0].admitted);
  CHECK(model::condition_true(snap.kueue().workloads[0], "Evicted"));
  CHECK(added == 1);
  edit.undo();
  CHECK(snap.kueue().workloads.size() == 1);
  CHECK_FALSE(snap.kueue().workloads[0].admitted);
  CHECK(snap.kueue().workloads[0].conditions.empty());
}

TEST_CASE("requests read under a line's rules are worked out once and follow a bind",
          "[model][edit]") {
  Cluster c;
  c.add(node("n1").cpu("4")).add(pod("a/x").on("n1").cpu("1"));
  model::Pod with_pod_level = pod("a/p").cpu("1").build();
  with_pod_level.pod_level_requests = {{"cpu", model::Quantity::from_milli(3000)}};
  model::SnapshotBuilder b(c.snapshot());
  b.add(with_pod_level);
  std::vector<Diagnostic> diags;
  model::Snapshot snap = std::move(b).build(diags);
  // A line without PodLevelResources reads the containers only.
  const model::RequestRules no_pod_level{model::StatusRequests::ignored, false, false};
  const auto first = snap.resized_requests(no_pod_level);
  CHECK(first->empty());
  CHECK(snap.resized_requests(no_pod_level) == first);  // kept
  const model::PodId p = *snap.find_pod("a", "p");
  model::SnapshotEdit edit(snap);
  edit.bind(p, 0, at("2026-01-01T00:00:00Z"));
  const auto bound = snap.resized_requests(no_pod_level);
  REQUIRE(bound->size() == 1);
  CHECK(bound->front().first == p);
  CHECK(bound->front().second.cpu_milli == 1000);
  edit.undo();
  CHECK(snap.resized_requests(no_pod_level)->empty());
}

TEST_CASE("a class's value reaches every pod of the class and comes back on undo",
          "[model][edit]") {
  Cluster c;
  c.add(priority_class("low", 100))
      .add(node("n1").cpu("4"))
      .add(pod("a/x").on("n1").priority_class("low").cpu("1"))
      .add(pod("a/y").pending().priority_class("low").cpu("1"))
      .add(pod("a/z").on("n1").priority(7).cpu("1"));
  model::Snapshot snap = c.snapshot();
  const model::PodId x = c.pod_id("a/x"), y = c.pod_id("a/y"), z = c.pod_id("a/z");
  {
    model::SnapshotEdit edit(snap);
    edit.set_class_value(0, 5000);
    CHECK(snap.priority_classes()[0].value == 5000);
    CHECK(snap.facts(x).priority == 5000);
    CHECK(snap.facts(y).priority == 5000);
    CHECK(snap.facts(z).priority == 7);
  }
  CHECK(snap.priority_classes()[0].value == 100);
  CHECK(snap.facts(x).priority == 100);
  CHECK(snap.facts(y).priority == 100);
}

TEST_CASE("a pending pod's request and a node's cordon change in place and come back",
          "[model][edit]") {
  Cluster c;
  c.add(node("n1").cpu("4")).add(pod("a/p").pending().cpu("3").memory("1Gi"));
  model::Snapshot snap = c.snapshot();
  const model::PodId p = c.pod_id("a/p");
  const model::NodeId n1 = *snap.find_node("n1");
  {
    model::SnapshotEdit edit(snap);
    edit.set_request(p, "cpu", 1500);
    edit.set_preempt_never(p, true);
    edit.set_unschedulable(n1, true);
    CHECK(snap.facts(p).requests.cpu_milli == 1500);
    CHECK(snap.facts(p).requests.memory == 1024LL * 1024 * 1024);
    CHECK(snap.facts(p).preempt_never);
    CHECK(snap.nodes()[n1].unschedulable);
  }
  CHECK(snap.facts(p).requests.cpu_milli == 3000);
  CHECK_FALSE(snap.facts(p).preempt_never);
  CHECK_FALSE(snap.nodes()[n1].unschedulable);
}

TEST_CASE(
    "a Workload is queued by its eviction time only after an admission check or a "
    "PodsReady timeout",
    "[model][edit]") {
  model::Workload w;
  w.creation_timestamp = at("2026-11-01T00:00:00Z");
  w.conditions.push_back({"Evicted", "True", "Preempted", at("2026-11-02T00:00:00Z"), {}});
  CHECK(model::queue_order_time(w) == at("2026-11-01T00:00:00Z"));
  w.conditions.back().reason = "PodsReadyTimeout";
  CHECK(model::queue_order_time(w) == at("2026-11-02T00:00:00Z"));
  w.conditions.back().reason = "AdmissionCheck";
  CHECK(model::queue_order_time(w) == at("2026-11-02T00:00:00Z"));
  w.conditions.back().status = "False";
  CHECK(model::queue_order_time(w) == at("2026-11-01T00:00:00Z"));
}

TEST_CASE("requests read under every line's rules match a sum of each pod", "[model][edit]") {
  using model::Quantity;
  auto cpu = [](std::int64_t milli) {
    return model::ResourceList{{"cpu", Quantity::from_milli(milli)}};
  };
  Cluster c;
  c.add(node("n1").cpu("64"));
  model::SnapshotBuilder b(c.snapshot());
  // Each shape bound: plain, pod-level requests, a resize in the status, an infeasible resize
  // with and without a status, pod-level status, a sidecar and overhead.
  // Then statuses that report the spec, as a kubelet does for a pod never resized: alone,
  // with pod-level requests, with an infeasible resize, and for a sidecar.
  // The last two report the spec for one container only: an infeasible resize with a
  // sidecar that has no status, and an allocation that is not the spec.
  for (int shape = 0; shape < 14; ++shape) {
    model::Pod p = pod("a/p" + std::to_string(shape)).on("n1").cpu("1").build();
    model::ContainerStatus status{p.containers.front().name, false, {}};
    switch (shape) {
      case 1:
        p.pod_level_requests = cpu(3000);
        break;
      case 2:
        status.resources = {true, cpu(2000), cpu(2000)};
        p.container_statuses.push_back(status);
        break;
      case 3:
        status.resources = {true, cpu(500), cpu(500)};
        p.container_statuses.push_back(status);
        p.resize_infeasible = true;
        break;
      case 4:
        p.resize_infeasible = true;
        break;
      case 5:
        p.pod_level_requests = cpu(3000);
        p.pod_status_resources = {true, cpu(4000), cpu(4000)};
        break;
      case 6:
        p.init_containers.push_back({"side", cpu(250), {}, true});
        break;
      case 7:
        p.overhead = cpu(100);
        break;
      case 8:
      case 9:
      case 10:
        status.resources = {true, cpu(1000), cpu(1000)};
        p.container_statuses.push_back(status);
        p.pod_level_requests = shape == 9 ? cpu(3000) : model::ResourceList{};
        p.resize_infeasible = shape == 10;
        break;
      case 11:
        p.init_containers.push_back({"side", cpu(250), {}, true});
        p.container_statuses.push_back({"side", true, {true, cpu(250), std::nullopt}});
        status.resources = {true, std::nullopt, cpu(1000)};
        p.container_statuses.push_back(status);
        break;
      case 12:
        p.init_containers.push_back({"side", cpu(250), {}, true});
        status.resources = {true, cpu(1000), cpu(1000)};
        p.container_statuses.push_back(status);
        p.resize_infeasible = true;
        break;
      case 13:
        status.resources = {true, cpu(1000), cpu(2000)};
        p.container_statuses.push_back(status);
        break;
    }
    b.add(p);
  }
  std::vector<Diagnostic> diags;
  const model::Snapshot snap = std::move(b).build(diags);
  for (auto status : {model::StatusRequests::ignored, model::StatusRequests::container_max,
                      model::StatusRequests::max_of_sums}) {
    for (bool pod_level : {false, true}) {
      for (bool pod_level_status : {false, true}) {
        const model::RequestRules rules{status, pod_level, pod_level_status};
        model::ResizedRequests expected;
        for (model::PodId p = 0; p < snap.pods().size(); ++p) {
          const model::Resources r = model::pod_requests(snap.pods()[p], rules);
          if (snap.facts(p).node != model::k_none && !(r == model::pod_requests(snap.pods()[p]))) {
            expected.emplace_back(p, r);
          }
        }
        INFO("status " << static_cast<int>(status) << ", pod level " << pod_level
                       << ", pod-level status " << pod_level_status);
        CHECK(*snap.resized_requests(rules) == expected);
      }
    }
  }
}
