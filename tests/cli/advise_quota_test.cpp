// SPDX-License-Identifier: Apache-2.0
// `kpreempt advise` on ElasticQuotas: min and max of scheduler-plugins CapacityScheduling and
// of Koordinator, each searched to its exact boundary.

#include "support/run.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

namespace {

const std::string k_dir = "testdata/advise/quota/";

nlohmann::json advise_json(const std::string& policy, const std::string& args) {
  const kpreempt::test::Run r = kpreempt::test::run_binary(
      "advise -f " + k_dir + args + " --policy " + policy + " --now 2026-03-10T12:00:00Z -o json",
      false);
  INFO(r.out);
  REQUIRE(r.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["results"].size() == 1);
  REQUIRE(doc["results"][0]["policy"] == policy);
  return doc["results"][0];
}

// The suggestion or no-effect entry for `field` of ElasticQuota `ns`/`name`.
nlohmann::json entry(const nlohmann::json& list, const std::string& ns, const std::string& name,
                     const std::string& field) {
  for (const nlohmann::json& s : list) {
    if (s["object"]["kind"] == "ElasticQuota" && s["object"]["namespace"] == ns &&
        s["object"]["name"] == name && s["field"] == field) {
      return s;
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("advise saves a borrowed pod by raising its namespace's min to what it uses",
          "[cli][advise]") {
  const nlohmann::json r =
      advise_json("capacity", "capacity-borrowed.yaml --victim quota1/nginx-7c9b8d6f5-t3v8r");
  const nlohmann::json s = entry(r["suggestions"], "quota1", "quota1", "spec.min[cpu]");
  INFO(r.dump(2));
  REQUIRE(s.is_object());
  // quota1 uses 5400m: at a min of 5400m it is not over its min and no longer lends.
  CHECK(s["from"] == "4");
  CHECK(s["to"] == "5400m");
  CHECK(s["next"] == "5399m");
  CHECK(s["verified"] == true);
  CHECK(s["sideEffects"]["changedDecisions"] == 0);
  CHECK(s["command"] ==
        "kubectl patch elasticquotas.scheduling.x-k8s.io -n quota1 quota1 --type merge -p "
        "'{\"spec\":{\"min\":{\"cpu\":\"5400m\"}}}'");
}

TEST_CASE("advise lets a pod over its namespace's max fit by raising the max", "[cli][advise]") {
  const nlohmann::json r = advise_json(
      "capacity", "capacity-over-max.yaml --pod quota1/nginx-7c9b8d6f5-b6n1x --goal fit");
  const nlohmann::json s = entry(r["suggestions"], "quota1", "quota1", "spec.max[cpu]");
  INFO(r.dump(2));
  REQUIRE(s.is_object());
  // 5400m in use plus 1800m asked.
  CHECK(s["from"] == "6");
  CHECK(s["to"] == "7200m");
  CHECK(s["next"] == "7199m");
  CHECK(s["verified"] == true);
  CHECK(s["command"] ==
        "kubectl patch elasticquotas.scheduling.x-k8s.io -n quota1 quota1 --type merge -p "
        "'{\"spec\":{\"max\":{\"cpu\":\"7200m\"}}}'");
  // The min does not lift a max.
  const nlohmann::json min = entry(r["noEffect"], "quota1", "quota1", "spec.min[cpu]");
  REQUIRE(min.is_object());
  CHECK(min["why"] == "raising it as far as 7200m does not let it fit");
}

TEST_CASE("advise saves a Koordinator quota victim by raising the max that caps its runtime",
          "[cli][advise]") {
  const nlohmann::json r =
      advise_json("koordinator", "koordinator.yaml --victim default/batch-5b7d9c6f4-7pz3w");
  const nlohmann::json s = entry(r["suggestions"], "default", "quota-example", "spec.max[cpu]");
  INFO(r.dump(2));
  REQUIRE(s.is_object());
  // 38 cpu in use plus the preemptor's 4.
  CHECK(s["from"] == "40");
  CHECK(s["to"] == "42");
  CHECK(s["next"] == "41999m");
  CHECK(s["verified"] == true);
  CHECK(s["command"] ==
        "kubectl patch elasticquotas.scheduling.sigs.k8s.io -n default quota-example --type "
        "merge -p '{\"spec\":{\"max\":{\"cpu\":\"42\"}}}'");
  // The runtime never goes above max, however high the min; memory is within the limit.
  const nlohmann::json min = entry(r["noEffect"], "default", "quota-example", "spec.min[cpu]");
  REQUIRE(min.is_object());
  CHECK(min["why"] == "raising it as far as 42 does not save it");
  CHECK(entry(r["suggestions"], "default", "quota-example", "spec.max[memory]").is_null());
  CHECK(entry(r["noEffect"], "default", "quota-example", "spec.max[memory]").is_null());
}

TEST_CASE("advise lets a Koordinator pod fit by raising its quota's max", "[cli][advise]") {
  const nlohmann::json r =
      advise_json("koordinator", "koordinator.yaml --pod default/serve-8c6b4f9d7-w9e4u --goal fit");
  const nlohmann::json s = entry(r["suggestions"], "default", "quota-example", "spec.max[cpu]");
  INFO(r.dump(2));
  REQUIRE(s.is_object());
  CHECK(s["to"] == "42");
  CHECK(s["next"] == "41999m");
  CHECK(s["verified"] == true);
}

TEST_CASE("advise lets a non-preemptible Koordinator pod fit by raising its quota's min",
          "[cli][advise]") {
  const nlohmann::json r = advise_json(
      "koordinator",
      "koordinator-non-preemptible.yaml --pod default/ledger-4d8f6b2c9-s9h4d --goal fit");
  const nlohmann::json s = entry(r["suggestions"], "default", "quota-example", "spec.min[cpu]");
  INFO(r.dump(2));
  REQUIRE(s.is_object());
  // 8 cpu of non-preemptible pods run; the new one asks 4 more.
  CHECK(s["from"] == "10");
  CHECK(s["to"] == "12");
  CHECK(s["next"] == "11999m");
  CHECK(s["verified"] == true);
  CHECK(s["command"] ==
        "kubectl patch elasticquotas.scheduling.sigs.k8s.io -n default quota-example --type "
        "merge -p '{\"spec\":{\"min\":{\"cpu\":\"12\"}}}'");
  // The max is far above what the quota asks: no knob for it.
  CHECK(entry(r["noEffect"], "default", "quota-example", "spec.max[cpu]").is_null());
}

TEST_CASE("advise raises a Koordinator quota's min until its runtime share covers the pod",
          "[cli][advise]") {
  const nlohmann::json r = advise_json(
      "koordinator", "koordinator-shared.yaml --pod team-a/train-7c5e9a3b6-q1r2s --goal fit");
  const nlohmann::json s = entry(r["suggestions"], "team-a", "team-a", "spec.min[cpu]");
  INFO(r.dump(2));
  REQUIRE(s.is_object());
  // The cluster leaves 47800m beyond node agents; team-a gets its min plus a quarter (weights
  // 16:48) of what the mins leave: m + (39800m - m) / 4, with the largest remainder of the
  // split, reaches 12 cpu at m = 2733m.
  CHECK(s["from"] == "2");
  CHECK(s["to"] == "2733m");
  CHECK(s["next"] == "2732m");
  CHECK(s["verified"] == true);
}
