// SPDX-License-Identifier: Apache-2.0
// `kpreempt advise` through the binary, default policy: each knob's exact boundary (the value
// that reaches the goal and the one beside it that does not), the side effects, the commands,
// the demo's answers and the usage errors.

#include "support/run.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using kpreempt::test::Run;
using nlohmann::json;

namespace {

const std::string k_cluster =
    "-f testdata/advise/default/cluster.yaml --policy default --now 2026-11-22T10:00:00Z ";
const std::string k_demo = "-f testdata/demo/cluster.yaml --now 2026-11-25T00:00:00Z ";

json advise_json(const std::string& args) {
  Run r = kpreempt::test::run_binary("advise " + args + " -o json", false);
  INFO(r.out);
  REQUIRE(r.code == 0);
  return json::parse(r.out);
}

// The suggestion of the only result that changes `field` of `name`, or null.
json suggestion(const json& doc, const std::string& name, const std::string& field) {
  REQUIRE(doc["results"].size() == 1);
  for (const json& s : doc["results"][0]["suggestions"]) {
    if (s["object"]["name"] == name && s["field"] == field) {
      return s;
    }
  }
  return nullptr;
}

void check_boundary(const json& s, const std::string& to, const std::string& next) {
  INFO(s.dump(2));
  REQUIRE(s.is_object());
  CHECK(s["to"] == to);
  CHECK(s["next"] == next);
  CHECK(s["verified"] == true);
}

}  // namespace

TEST_CASE("advise keeps a victim by its own priority: one above its equal neighbour",
          "[cli][advise]") {
  const json doc = advise_json(k_cluster + "--victim web/web-7d9f8-b2");
  CHECK(doc["apiVersion"] == "kpreempt/v1alpha1");
  CHECK(doc["kind"] == "Advice");
  CHECK(doc["goal"] == "save");
  CHECK(doc["target"] == "web/web-7d9f8-b2");
  CHECK(doc["results"][0]["today"] == "evicted by ml/train-x7k2p");
  const json s = suggestion(doc, "web-7d9f8-b2", "spec.priority");
  // At 101 the pod outranks web-7d9f8-a1 and is reprieved first; at 100 the earlier start
  // of a1 wins the tie.
  check_boundary(s, "101", "100");
  CHECK(s["sideEffects"]["changedDecisions"] == 0);
  // The command names the nearest class past the boundary, which was run too.
  CHECK(s["command"] ==
        "kubectl patch deployment -n web web -p "
        "'{\"spec\":{\"template\":{\"spec\":{\"priorityClassName\":\"mid\"}}}}'");
}

TEST_CASE("advise raises a victim's PriorityClass to the preemptor's priority", "[cli][advise]") {
  const json doc = advise_json(k_cluster + "--victim web/web-7d9f8-b2");
  const json s = suggestion(doc, "low", "value");
  check_boundary(s, "10000", "9999");
  // The report pod, also of class low, can then preempt nobody either way but its decision
  // reads other numbers.
  CHECK(s["sideEffects"]["changedDecisions"] == 1);
  CHECK(s["sideEffects"]["changed"][0] == "reports/report-5c6d7-q9");
  CHECK(s["command"].get<std::string>().find("kubectl replace --force") != std::string::npos);
}

TEST_CASE("advise tightens a PodDisruptionBudget to zero disruptions to save its pod",
          "[cli][advise]") {
  const json doc = advise_json(k_cluster + "--victim web/web-7d9f8-b2");
  const json s = suggestion(doc, "web-canary", "status.disruptionsAllowed");
  check_boundary(s, "0", "1");
  CHECK(s["object"]["kind"] == "PodDisruptionBudget");
  CHECK(s["object"]["namespace"] == "web");
}

TEST_CASE("advise shrinks the preemptor's cpu to what is free: 1 works, 1001m does not",
          "[cli][advise]") {
  const json doc = advise_json(k_cluster + "--victim web/web-7d9f8-b2");
  const json s = suggestion(doc, "train-x7k2p", "spec.containers[main].resources.requests[cpu]");
  check_boundary(s, "1", "1001m");
  CHECK(s["from"] == "4");
  // A Job's template cannot change in place: no command, a note instead.
  CHECK(s["command"].is_null());
  const json never = suggestion(doc, "train-x7k2p", "spec.preemptionPolicy");
  REQUIRE(never.is_object());
  CHECK(never["to"] == "Never");
  CHECK(never["verified"] == true);
  bool memory = false;
  for (const json& n : doc["results"][0]["noEffect"]) {
    memory = memory || n["field"] == "spec.containers[main].resources.requests[memory]";
  }
  CHECK(memory);
}

TEST_CASE("advise ranks suggestions by side effects first", "[cli][advise]") {
  const json doc = advise_json(k_cluster + "--victim web/web-7d9f8-b2");
  const json& all = doc["results"][0]["suggestions"];
  REQUIRE(all.size() >= 2);
  for (std::size_t i = 1; i < all.size(); ++i) {
    CHECK(all[i - 1]["sideEffects"]["changedDecisions"] <=
          all[i]["sideEffects"]["changedDecisions"]);
  }
  CHECK(all.back()["field"] == "value");
}

TEST_CASE("advise lets a pending pod fit by uncordoning a node or shrinking it", "[cli][advise]") {
  const json doc = advise_json(k_cluster + "--pod ml/train-x7k2p --goal fit");
  CHECK(doc["goal"] == "fit");
  const json node = suggestion(doc, "node-2", "spec.unschedulable");
  REQUIRE(node.is_object());
  CHECK(node["from"] == "true");
  CHECK(node["to"] == "false");
  CHECK(node["command"] == "kubectl uncordon node-2");
  // The report pod would then fit on node-2 too.
  CHECK(node["sideEffects"]["changedDecisions"] == 1);
  check_boundary(suggestion(doc, "train-x7k2p", "spec.containers[main].resources.requests[cpu]"),
                 "1", "1001m");
}

TEST_CASE("advise places a pod that can preempt nobody by raising its priority", "[cli][advise]") {
  const json doc = advise_json(k_cluster + "--pod reports/report-5c6d7-q9");
  CHECK(doc["goal"] == "place");
  const json s = suggestion(doc, "report-5c6d7-q9", "spec.priority");
  check_boundary(s, "101", "100");
  CHECK(s["command"].get<std::string>().find("kubectl patch deployment -n reports report") == 0);
}

TEST_CASE("advise says when the goal already holds", "[cli][advise]") {
  const json doc = advise_json(k_cluster + "--victim data/db-0");
  CHECK(doc["results"][0]["already"] == true);
  CHECK(doc["results"][0]["suggestions"].empty());
  Run text = kpreempt::test::run_binary("advise " + k_cluster + "--victim data/db-0", false);
  CHECK(text.out.find("nothing to change") != std::string::npos);
}

TEST_CASE("advise on the demo: what saves notebook-alice and lets trainer-0 fit", "[cli][advise]") {
  const json save = advise_json(k_demo + "--victim research/notebook-alice");
  const json cls = suggestion(save, "research", "value");
  check_boundary(cls, "50000", "49999");
  CHECK(cls["effect"].get<std::string>().find(
            "saves batch/etl-nightly-4kx2p, research/notebook-alice and research/notebook-bob") ==
        0);
  const json fit = advise_json(k_demo + "--pod ml/trainer-0 --goal fit");
  const json& best = fit["results"][0]["suggestions"][0];
  CHECK(best["command"] == "kubectl uncordon gpu-a100-4");
  CHECK(best["verified"] == true);
}

TEST_CASE("advise text leads with sentences and commands", "[cli][advise]") {
  Run r =
      kpreempt::test::run_binary("advise " + k_demo + "--victim research/notebook-alice", false);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("What would save research/notebook-alice") == 0);
  CHECK(r.out.find("  1. ") != std::string::npos);
  CHECK(r.out.find("checked: ") != std::string::npos);
  CHECK(r.out.find("$ kubectl patch pdb -n research notebooks") != std::string::npos);
}

TEST_CASE("advise refuses a target that does not suit the goal", "[cli][advise]") {
  Run pending = kpreempt::test::run_binary("advise " + k_cluster + "--victim ml/train-x7k2p", true);
  CHECK(pending.code == 2);
  CHECK(pending.out.find("is not running") != std::string::npos);
  Run running = kpreempt::test::run_binary("advise " + k_cluster + "--pod data/db-0", true);
  CHECK(running.code == 2);
  CHECK(running.out.find("is not pending") != std::string::npos);
  Run goal =
      kpreempt::test::run_binary("advise " + k_cluster + "--pod ml/train-x7k2p --goal save", true);
  CHECK(goal.code == 2);
  Run missing = kpreempt::test::run_binary("advise " + k_cluster + "--pod ml/train-x7k2", true);
  CHECK(missing.code == 2);
  CHECK(missing.out.find("did you mean ml/train-x7k2p") != std::string::npos);
  Run none = kpreempt::test::run_binary("advise " + k_cluster, true);
  CHECK(none.code == 2);
}

TEST_CASE("advise sizes a what-if Deployment to what the cluster holds, pods in sequence",
          "[cli][advise]") {
  const json doc = advise_json(
      "-f testdata/sequence/cluster.yaml --pod-file testdata/sequence/deployment.yaml "
      "--policy default --now 2026-11-22T10:00:00Z");
  CHECK(doc["target"] == "Deployment web/api (6 pods)");
  CHECK(doc["results"][0]["today"] == "4 of 6 pods placed (3 fit, 1 preempt)");
  const json replicas = suggestion(doc, "api", "spec.replicas");
  check_boundary(replicas, "4", "5");
  CHECK(replicas["object"]["kind"] == "Deployment");
  CHECK(replicas["command"].is_null());
  check_boundary(suggestion(doc, "api-what-if-0", "spec.containers[api].resources.requests[cpu]"),
                 "2666m", "2667m");
}
