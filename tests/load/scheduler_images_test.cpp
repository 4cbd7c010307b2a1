// SPDX-License-Identifier: Apache-2.0
// The scheduler images the loader notes: from Pods and from the workload objects of a dump,
// only what runs, never from what-if input, and never refusing a malformed workload object.
#include "load/decode.h"
#include "load/load_support.h"
#include "load/stream.h"

#include "kpreempt/load/events.h"

#include <catch2/catch.hpp>

#include <string>

namespace kpreempt::load {
namespace {

using testing::load_text;

std::string controller(const std::string& kind, const std::string& name, const std::string& image,
                       const std::string& spec_extra = "") {
  return "---\napiVersion: apps/v1\nkind: " + kind + "\nmetadata:\n  name: " + name +
         "\n  namespace: sched\nspec:\n" + spec_extra +
         "  template:\n    spec:\n      containers:\n      - name: main\n        image: " + image +
         "\n";
}

const std::string* skipped(const model::Snapshot& snap, std::string_view kind) {
  return model::find(snap.skipped_kinds(), kind);
}

}  // namespace

TEST_CASE("a dump's Deployments, StatefulSets and DaemonSets give their scheduler images",
          "[load][images]") {
  const auto loaded = load_text(
      controller("Deployment", "kueue-controller-manager", "registry.k8s.io/kueue/kueue:v0.14.3") +
      controller("StatefulSet", "koord-scheduler",
                 "ghcr.io/koordinator-sh/koord-scheduler:v1.6.0") +
      controller("DaemonSet", "kube-scheduler", "registry.k8s.io/kube-scheduler:v1.35.2") +
      controller("Deployment", "web", "registry.example.com/web:1.0"));
  CHECK(loaded.messages.empty());
  const auto& images = loaded.snapshot.scheduler_images();
  REQUIRE(images.size() == 3);
  CHECK(images[0].kind == model::SchedulerImageKind::kueue);
  CHECK(images[0].image == "registry.k8s.io/kueue/kueue:v0.14.3");
  CHECK(images[0].version == "v0.14.3");
  CHECK(images[0].owner == model::ObjectRef{"Deployment", "sched", "kueue-controller-manager"});
  CHECK(images[0].container == "main");
  CHECK(images[0].loc.line == 12);
  CHECK(images[1].owner.kind == "StatefulSet");
  CHECK(images[2].owner.kind == "DaemonSet");
  // Only the web Deployment is left unread.
  REQUIRE(skipped(loaded.snapshot, "Deployment") != nullptr);
  CHECK(*skipped(loaded.snapshot, "Deployment") == "1");
  CHECK(skipped(loaded.snapshot, "DaemonSet") == nullptr);
}

TEST_CASE("only what runs counts: no zero replicas, no finished or leaving Pod", "[load][images]") {
  const std::string pod_head =
      "---\napiVersion: v1\nkind: Pod\nmetadata:\n  namespace: kube-system\n";
  const std::string pod_spec =
      "spec:\n  containers:\n  - name: kube-scheduler\n    image: "
      "registry.k8s.io/kube-scheduler:v1.34.0\n";
  const auto loaded =
      load_text(controller("ReplicaSet", "kueue-old", "registry.k8s.io/kueue/kueue:v0.13.2",
                           "  replicas: 0\n") +
                pod_head + "  name: failed\n" + pod_spec + "status:\n  phase: Failed\n" + pod_head +
                "  name: leaving\n  deletionTimestamp: \"2026-01-01T00:00:00Z\"\n" + pod_spec +
                "status:\n  phase: Running\n" + pod_head + "  name: running\n" + pod_spec +
                "status:\n  phase: Running\n");
  CHECK(loaded.messages.empty());
  const auto& images = loaded.snapshot.scheduler_images();
  REQUIRE(images.size() == 1);
  CHECK(images[0].owner.name == "running");
  REQUIRE(skipped(loaded.snapshot, "ReplicaSet") != nullptr);
}

TEST_CASE("a malformed workload object is still only skipped", "[load][images]") {
  const auto loaded = load_text(
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: odd\nspec:\n  replicas: many\n"
      "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: odd\nspec:\n  template: [1]\n"
      "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: odd2\nspec:\n  template:\n"
      "    spec:\n      containers:\n      - name: main\n        image: {a: 1}\n      - 3\n");
  CHECK(loaded.messages.empty());
  CHECK(loaded.snapshot.scheduler_images().empty());
}

TEST_CASE("a scheduler-plugins build labelled as kube-scheduler is the default scheduler",
          "[load][images]") {
  const auto loaded = load_text(
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-scheduler-cp-1\n  namespace: "
      "kube-system\n  labels:\n    component: kube-scheduler\n    tier: control-plane\nspec:\n"
      "  containers:\n  - name: kube-scheduler\n    image: "
      "registry.k8s.io/scheduler-plugins/kube-scheduler:v0.34.7\nstatus:\n  phase: Running\n");
  REQUIRE(loaded.snapshot.scheduler_images().size() == 1);
  CHECK(loaded.snapshot.scheduler_images()[0].kind == model::SchedulerImageKind::scheduler_plugins);
  CHECK(loaded.snapshot.scheduler_images()[0].default_scheduler);
}

TEST_CASE("what-if input runs nowhere: its images say nothing", "[load][images]") {
  model::SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  std::vector<model::ObjectRef> pods;
  DecodeContext ctx{builder, diags, &pods, true};
  read_stream(*open_source(controller("Deployment", "kueue", "registry.k8s.io/kueue/kueue:v0.14.3",
                                      "  replicas: 1\n"),
                           "manifest.yaml"),
              ctx);
  model::Snapshot snap = std::move(builder).build(diags);
  CHECK(pods.size() == 1);
  CHECK(snap.scheduler_images().empty());
}

}  // namespace kpreempt::load
