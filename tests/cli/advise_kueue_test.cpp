// SPDX-License-Identifier: Apache-2.0
// `kpreempt advise` with the kueue policy through the binary: the ClusterQueue quotas,
// preemption policies and WorkloadPriorityClass values that admit a Workload or save an
// admitted one, each at its exact boundary.

#include "support/run.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using kpreempt::test::Run;

namespace {

const std::string k_now = " --now 2026-03-01T00:00:00Z";
const std::string k_dir = "testdata/advise/kueue/";

nlohmann::json advise_json(const std::string& args) {
  Run r = kpreempt::test::run_binary("advise --policy kueue " + args + k_now + " -o json", false);
  INFO(r.out);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}

const nlohmann::json& kueue_result(const nlohmann::json& doc) {
  REQUIRE(doc["results"].size() == 1);
  REQUIRE(doc["results"][0]["policy"] == "kueue");
  return doc["results"][0];
}

// The suggestion on `field` of `name`, for a choice knob the one that sets `to`.
nlohmann::json suggestion(const nlohmann::json& doc, const std::string& name,
                          const std::string& field, const std::string& to = "") {
  for (const auto& s : kueue_result(doc)["suggestions"]) {
    if (s["object"]["name"] == name && s["field"] == field && (to.empty() || s["to"] == to)) {
      return s;
    }
  }
  FAIL("no suggestion on " + field + " of " + name + ": " + doc.dump(2));
  return {};
}

bool no_effect(const nlohmann::json& doc, const std::string& name, const std::string& field) {
  for (const auto& n : kueue_result(doc)["noEffect"]) {
    if (n["object"]["name"] == name && n["field"] == field) {
      return true;
    }
  }
  return false;
}

void check_boundary(const nlohmann::json& s, const std::string& from, const std::string& to,
                    const std::string& next) {
  INFO(s.dump(2));
  CHECK(s["from"] == from);
  CHECK(s["to"] == to);
  CHECK(s["next"] == next);
  CHECK(s["verified"] == true);
}

const std::string k_cpu = "spec.resourceGroups[0].flavors[default-flavor].resources[cpu].";

}  // namespace

TEST_CASE("kueue admit: team-a's cpu nominalQuota admits the Workload from 6 on", "[cli][advise]") {
  const auto doc = advise_json("-f " + k_dir + "admit.yaml --workload team-a/job-big-eeaaa");
  const auto s = suggestion(doc, "team-a", k_cpu + "nominalQuota");
  check_boundary(s, "4", "6", "5999m");
  CHECK(s["object"]["kind"] == "ClusterQueue");
  CHECK(s["command"] ==
        "kubectl patch clusterqueue team-a --type json -p "
        "'[{\"op\":\"replace\",\"path\":\"/spec/resourceGroups/0/flavors/0/resources/0/"
        "nominalQuota\",\"value\":\"6\"}]'");
  CHECK(s["sideEffects"]["changedDecisions"] == 0);
  // Memory is not short: more of it admits nothing.
  CHECK(no_effect(doc, "team-a",
                  "spec.resourceGroups[0].flavors[default-flavor].resources[memory].nominalQuota"));
}

TEST_CASE("kueue admit: team-a's cpu borrowingLimit admits the Workload from 3 on",
          "[cli][advise]") {
  const auto doc = advise_json("-f " + k_dir + "admit.yaml --workload team-a/job-big-eeaaa");
  const auto s = suggestion(doc, "team-a", k_cpu + "borrowingLimit");
  check_boundary(s, "1", "3", "2999m");
  CHECK(s["command"] ==
        "kubectl patch clusterqueue team-a --type json -p "
        "'[{\"op\":\"add\",\"path\":\"/spec/resourceGroups/0/flavors/0/resources/0/"
        "borrowingLimit\",\"value\":\"3\"}]'");
}

TEST_CASE("kueue fit: the nominalQuota knob holds without preemption, no class knob",
          "[cli][advise]") {
  const auto doc =
      advise_json("-f " + k_dir + "admit.yaml --workload team-a/job-big-eeaaa --goal fit");
  check_boundary(suggestion(doc, "team-a", k_cpu + "nominalQuota"), "4", "6", "5999m");
  for (const auto& s : kueue_result(doc)["suggestions"]) {
    CHECK(s["object"]["kind"] != "WorkloadPriorityClass");
  }
}

TEST_CASE("kueue admit: team-d's cpu lendingLimit admits team-c's Workload from 3 on",
          "[cli][advise]") {
  const auto doc = advise_json("-f " + k_dir + "admit.yaml --workload team-c/job-big-7ae0f");
  const auto s = suggestion(doc, "team-d", k_cpu + "lendingLimit");
  check_boundary(s, "1", "3", "2999m");
  CHECK(s["command"] ==
        "kubectl patch clusterqueue team-d --type json -p "
        "'[{\"op\":\"add\",\"path\":\"/spec/resourceGroups/0/flavors/0/resources/0/"
        "lendingLimit\",\"value\":\"3\"}]'");
  check_boundary(suggestion(doc, "team-c", k_cpu + "nominalQuota"), "2", "4", "3999m");
}

TEST_CASE("kueue admit: WorkloadPriorityClass batch above prod lets the Workload preempt",
          "[cli][advise]") {
  const auto doc = advise_json("-f " + k_dir + "admit.yaml --workload team-a/job-big-eeaaa");
  const auto s = suggestion(doc, "batch", "value");
  check_boundary(s, "100", "501", "500");
  CHECK(s["object"]["kind"] == "WorkloadPriorityClass");
  CHECK(s["command"] ==
        "kubectl patch workloadpriorityclass batch --type merge -p '{\"value\":501}'");
  // team-c's pending batch Workload rises with it, but asks for more than team-c's nominal
  // quota, which Kueue never preempts for without borrowWithinCohort.
  CHECK(s["sideEffects"]["changedDecisions"] == 0);
  const auto c = advise_json("-f " + k_dir + "admit.yaml --workload team-c/job-big-7ae0f");
  CHECK(no_effect(c, "batch", "value"));
}

TEST_CASE("kueue save: the victim's ClusterQueue stops borrowing at a cpu nominalQuota of 6",
          "[cli][advise]") {
  const auto doc =
      advise_json("-f " + k_dir + "save.yaml --victim workload/team-b/job-sweep-9977e");
  check_boundary(suggestion(doc, "team-b", k_cpu + "nominalQuota"), "4", "6", "5999m");
}

TEST_CASE("kueue save: the threat's reclaimWithinCohort Never saves the victim, Any does not",
          "[cli][advise]") {
  const auto doc =
      advise_json("-f " + k_dir + "save.yaml --victim workload/team-b/job-sweep-9977e");
  const auto s = suggestion(doc, "team-a", "spec.preemption.reclaimWithinCohort", "Never");
  CHECK(s["from"] == "LowerPriority");
  CHECK(s["verified"] == true);
  CHECK(s["command"] ==
        "kubectl patch clusterqueue team-a --type merge -p "
        "'{\"spec\":{\"preemption\":{\"reclaimWithinCohort\":\"Never\"}}}'");
  for (const auto& x : kueue_result(doc)["suggestions"]) {
    CHECK(!(x["field"] == "spec.preemption.reclaimWithinCohort" && x["to"] == "Any"));
  }
  CHECK(no_effect(doc, "team-a", "spec.preemption.borrowWithinCohort.policy"));
  // Lending less does not help: team-a reclaims its own nominal quota.
  CHECK(no_effect(doc, "team-b", k_cpu + "lendingLimit"));
}

TEST_CASE("kueue save: the victim's WorkloadPriorityClass at the threat's priority saves it",
          "[cli][advise]") {
  const auto doc =
      advise_json("-f " + k_dir + "save.yaml --victim workload/team-b/job-sweep-9977e");
  const auto s = suggestion(doc, "batch", "value");
  check_boundary(s, "100", "500", "499");
  // team-c's notebook shares the class, so team-c's training job no longer preempts it.
  CHECK(s["sideEffects"]["changedDecisions"] == 1);
}

TEST_CASE("kueue save: withinClusterQueue Never keeps a ClusterQueue's own Workload",
          "[cli][advise]") {
  const auto doc =
      advise_json("-f " + k_dir + "save.yaml --victim workload/team-c/job-notebook-708b0");
  const auto s = suggestion(doc, "team-c", "spec.preemption.withinClusterQueue", "Never");
  CHECK(s["from"] == "LowerPriority");
  CHECK(s["verified"] == true);
  CHECK(s["command"] ==
        "kubectl patch clusterqueue team-c --type merge -p "
        "'{\"spec\":{\"preemption\":{\"withinClusterQueue\":\"Never\"}}}'");
  check_boundary(suggestion(doc, "team-c", k_cpu + "nominalQuota"), "2", "4", "3999m");
}

TEST_CASE("kueue save: the victim's lendingLimit below 1 leaves the borrower short",
          "[cli][advise]") {
  const auto doc =
      advise_json("-f " + k_dir + "save-borrow.yaml --victim workload/team-b/job-sweep-9977e");
  const auto s = suggestion(doc, "team-b", k_cpu + "lendingLimit");
  check_boundary(s, "8", "999m", "1");
  CHECK(s["command"] ==
        "kubectl patch clusterqueue team-b --type json -p "
        "'[{\"op\":\"add\",\"path\":\"/spec/resourceGroups/0/flavors/0/resources/0/"
        "lendingLimit\",\"value\":\"999m\"}]'");
}

TEST_CASE("kueue save: borrowWithinCohort Never stops preemption while borrowing",
          "[cli][advise]") {
  const auto doc =
      advise_json("-f " + k_dir + "save-borrow.yaml --victim workload/team-b/job-sweep-9977e");
  const auto b = suggestion(doc, "team-a", "spec.preemption.borrowWithinCohort.policy", "Never");
  CHECK(b["from"] == "LowerPriority");
  CHECK(b["verified"] == true);
  CHECK(b["command"] ==
        "kubectl patch clusterqueue team-a --type merge -p "
        "'{\"spec\":{\"preemption\":{\"borrowWithinCohort\":{\"policy\":\"Never\"}}}}'");
  // reclaimWithinCohort Never is only valid with borrowWithinCohort Never: both are set.
  const auto r = suggestion(doc, "team-a", "spec.preemption.reclaimWithinCohort", "Never");
  CHECK(r["command"] ==
        "kubectl patch clusterqueue team-a --type merge -p "
        "'{\"spec\":{\"preemption\":{\"reclaimWithinCohort\":\"Never\",\"borrowWithinCohort\":{"
        "\"policy\":\"Never\"}}}}'");
}

TEST_CASE("kueue place: a Pod of the pod integration has the knobs of its ClusterQueue",
          "[cli][advise]") {
  const auto doc = advise_json("-f " + k_dir + "pod.yaml --pod team-a/trainer");
  check_boundary(suggestion(doc, "team-a", k_cpu + "nominalQuota"), "4", "6", "5999m");
  check_boundary(suggestion(doc, "batch", "value"), "100", "501", "500");
}
