// SPDX-License-Identifier: Apache-2.0
// `kpreempt advise` under YuniKorn through the binary: queue guarantees, max, preemption
// policies and priority offsets in the queue file, and the allow-preemption annotation, each
// with the boundary the search finds and both sides run.

#include "support/run.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using kpreempt::test::Run;

namespace {

const std::string k_dir = "testdata/advise/yunikorn/";

nlohmann::json advise_json(const std::string& args) {
  Run r = kpreempt::test::run_binary(
      "advise " + args + " --policy yunikorn --now 2026-01-01T00:10:00Z -o json", false);
  INFO(r.out);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}

// The YuniKorn result of an advice document.
nlohmann::json yunikorn_result(const nlohmann::json& doc) {
  for (const auto& r : doc["results"]) {
    if (r["policy"] == "yunikorn") {
      return r;
    }
  }
  FAIL("no yunikorn result");
  return {};
}

// The suggestion that changes `field`, or null.
nlohmann::json suggestion(const nlohmann::json& result, const std::string& field) {
  for (const auto& s : result["suggestions"]) {
    if (s["field"] == field) {
      return s;
    }
  }
  return nullptr;
}

nlohmann::json no_effect(const nlohmann::json& result, const std::string& field) {
  for (const auto& n : result["noEffect"]) {
    if (n["field"] == field) {
      return n;
    }
  }
  return nullptr;
}

void check_config_map(const nlohmann::json& s) {
  CHECK(s["object"]["kind"] == "ConfigMap");
  CHECK(s["object"]["namespace"] == "yunikorn");
  CHECK(s["object"]["name"] == "yunikorn-configs");
  CHECK(s["verified"] == true);
}

const std::string k_analytics = "data.queues.yaml[root.tenants.analytics].";

nlohmann::json save_report() {
  return yunikorn_result(
      advise_json("-f " + k_dir + "save.yaml --victim analytics/report-builder"));
}

}  // namespace

TEST_CASE("yunikorn advise: the victim's queue guarantee raised to its usage saves it",
          "[cli][advise]") {
  const auto r = save_report();
  CHECK(r["already"] == false);
  CHECK(r["today"] == "evicted by ml/trainer-0");
  const auto s = suggestion(r, k_analytics + "resources.guaranteed.vcore");
  REQUIRE(!s.is_null());
  check_config_map(s);
  CHECK(s["from"] == "2");
  CHECK(s["to"] == "4");
  CHECK(s["next"] == "3999m");
  CHECK(s["sideEffects"]["changedDecisions"] == 0);
  CHECK(s["effect"].get<std::string>().starts_with("saves analytics/report-builder"));
  CHECK(s["command"] ==
        "kubectl edit configmap -n yunikorn yunikorn-configs  # root.tenants.analytics: "
        "resources.guaranteed.vcore: 4");
  // Over its guarantee on vcore, the queue stays a source of victims whatever its memory.
  const auto memory = no_effect(r, k_analytics + "resources.guaranteed.memory");
  REQUIRE(!memory.is_null());
  CHECK(memory["why"] == "raising it as far as 8Gi does not save it");
}

TEST_CASE("yunikorn advise: preemption.policy disabled on the victim's queue saves it",
          "[cli][advise]") {
  const auto r = save_report();
  const auto s = suggestion(r, k_analytics + "properties[preemption.policy]");
  REQUIRE(!s.is_null());
  check_config_map(s);
  CHECK(s["from"] == "default");
  CHECK(s["to"] == "disabled");
  CHECK(s["next"].is_null());
  CHECK(s["command"] ==
        "kubectl edit configmap -n yunikorn yunikorn-configs  # root.tenants.analytics: "
        "properties: preemption.policy: disabled");
}

TEST_CASE("yunikorn advise: a priority offset on the victim's queue puts it above the threat",
          "[cli][advise]") {
  // The trainer (priority 100) sees the report (priority 10) at 100 - offset.
  const auto r = save_report();
  const auto s = suggestion(r, k_analytics + "properties[priority.offset]");
  REQUIRE(!s.is_null());
  check_config_map(s);
  CHECK(s["from"] == "0");
  CHECK(s["to"] == "91");
  CHECK(s["next"] == "90");
  CHECK(s["command"] ==
        "kubectl edit configmap -n yunikorn yunikorn-configs  # root.tenants.analytics: "
        "properties: priority.offset: \"91\"");
}

TEST_CASE("yunikorn advise: a fence on the threat's queue keeps the victim out of its reach",
          "[cli][advise]") {
  const auto r = save_report();
  const auto s = suggestion(r, "data.queues.yaml[root.tenants.ml].properties[preemption.policy]");
  REQUIRE(!s.is_null());
  check_config_map(s);
  CHECK(s["from"] == "default");
  CHECK(s["to"] == "fence");
  CHECK(s["effect"].get<std::string>().starts_with("saves analytics/report-builder"));
}

TEST_CASE("yunikorn advise: allow-preemption false sorts the victim after the batch pod",
          "[cli][advise]") {
  const auto r = save_report();
  const auto s = suggestion(r, "metadata.annotations[yunikorn.apache.org/allow-preemption]");
  REQUIRE(!s.is_null());
  CHECK(s["object"]["kind"] == "Pod");
  CHECK(s["object"]["namespace"] == "analytics");
  CHECK(s["object"]["name"] == "report-builder");
  CHECK(s["from"] == "true");
  CHECK(s["to"] == "false");
  CHECK(s["verified"] == true);
  // The trainer still preempts: it takes the batch pod instead.
  REQUIRE(s["instead"].size() == 1);
  CHECK(s["instead"][0].get<std::string>().find("ml/trainer-0: preempts 1 pod(s)") == 0);
  CHECK(s["command"] ==
        "kubectl annotate pod -n analytics report-builder "
        "yunikorn.apache.org/allow-preemption=false --overwrite");
}

TEST_CASE("yunikorn advise: the queue max raised to usage plus the ask lets the pod fit",
          "[cli][advise]") {
  const auto r =
      yunikorn_result(advise_json("-f " + k_dir + "fit.yaml --pod analytics/etl-0 --goal fit"));
  CHECK(r["already"] == false);
  const auto s = suggestion(r, k_analytics + "resources.max.vcore");
  REQUIRE(!s.is_null());
  check_config_map(s);
  CHECK(s["from"] == "4");
  CHECK(s["to"] == "6");
  CHECK(s["next"] == "5999m");
  CHECK(s["effect"].get<std::string>().starts_with("fits in queue root.tenants.analytics"));
  // Memory has room under max: no knob for it, nor for the parent's max.
  CHECK(suggestion(r, k_analytics + "resources.max.memory").is_null());
  CHECK(no_effect(r, "data.queues.yaml[root.tenants].resources.max.vcore").is_null());
}

TEST_CASE("yunikorn advise: a guarantee on the preemptor's queue lets it preempt",
          "[cli][advise]") {
  const auto r =
      yunikorn_result(advise_json("-f " + k_dir + "place.yaml --pod ml/trainer-0 --goal place"));
  CHECK(r["already"] == false);
  const auto s = suggestion(r, "data.queues.yaml[root.tenants.ml].resources.guaranteed.vcore");
  REQUIRE(!s.is_null());
  check_config_map(s);
  CHECK(s["from"] == "unset");
  CHECK(s["to"] == "4");
  CHECK(s["next"] == "3999m");
  CHECK(s["effect"].get<std::string>().starts_with("preempts 1 pod(s) for queue root.tenants.ml"));
}

TEST_CASE("yunikorn advise: a priority offset on the preemptor's queue lifts it over its victims",
          "[cli][advise]") {
  // The sweep (priority 0) meets the analytics pods (priority 50) at 0 + offset.
  const auto r = yunikorn_result(
      advise_json("-f " + k_dir + "place.yaml --pod research/sweep-0 --goal place"));
  const auto s =
      suggestion(r, "data.queues.yaml[root.tenants.research].properties[priority.offset]");
  REQUIRE(!s.is_null());
  check_config_map(s);
  CHECK(s["from"] == "0");
  CHECK(s["to"] == "50");
  CHECK(s["next"] == "49");
  // Its guarantee already covers the ask: more of it changes nothing.
  const auto g = no_effect(r, "data.queues.yaml[root.tenants.research].resources.guaranteed.vcore");
  REQUIRE(!g.is_null());
  CHECK(g["why"] == "raising it as far as 8 does not place it");
}

TEST_CASE("yunikorn advise: a max is raised no further than the parent's max allows",
          "[cli][advise]") {
  // configvalidator.go rejects a child max above its parent's: 5, one short of usage + ask.
  const auto r = yunikorn_result(
      advise_json("-f " + k_dir + "fit-parent-max.yaml --pod analytics/etl-0 --goal fit"));
  CHECK(suggestion(r, k_analytics + "resources.max.vcore").is_null());
  const auto n = no_effect(r, k_analytics + "resources.max.vcore");
  REQUIRE(!n.is_null());
  CHECK(n["why"] == "raising it as far as 5 does not let it fit");
}
