// SPDX-License-Identifier: Apache-2.0
// `kpreempt advise` under PreemptionToleration: the victim's PriorityClass annotations
// minimum-preemptable-priority and toleration-seconds, each searched to its exact boundary.

#include "support/run.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

namespace {

const std::string k_dir = "testdata/advise/toleration/";
const std::string k_min_key =
    "preemption-toleration.scheduling.x-k8s.io/minimum-preemptable-priority";
const std::string k_seconds_key = "preemption-toleration.scheduling.x-k8s.io/toleration-seconds";

nlohmann::json advise_json(const std::string& file, const std::string& victim) {
  const kpreempt::test::Run r =
      kpreempt::test::run_binary("advise -f " + k_dir + file + " --victim " + victim +
                                     " --policy toleration --now 2026-03-10T12:00:00Z -o json",
                                 false);
  INFO(r.out);
  REQUIRE(r.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["results"].size() == 1);
  REQUIRE(doc["results"][0]["policy"] == "toleration");
  return doc["results"][0];
}

std::string annotation(const std::string& key) {
  return "metadata.annotations[" + key + "]";
}

// The suggestion or no-effect entry for the annotation `key` of PriorityClass `cls`.
nlohmann::json entry(const nlohmann::json& list, const std::string& cls, const std::string& key) {
  for (const nlohmann::json& s : list) {
    if (s["object"]["kind"] == "PriorityClass" && s["object"]["name"] == cls &&
        s["field"] == annotation(key)) {
      return s;
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("advise raises toleration-seconds to one second past the victim's age", "[cli][advise]") {
  const nlohmann::json r = advise_json("window-expired.yaml", "ml/trainer-0");
  const nlohmann::json s = entry(r["suggestions"], "toleration-policy-sample", k_seconds_key);
  INFO(r.dump(2));
  REQUIRE(s.is_object());
  // Scheduled at 10:00:00, --now 12:00:00: a window of 7200 s ends exactly now (preemptable),
  // one of 7201 s ends a second later.
  CHECK(s["from"] == "3600");
  CHECK(s["to"] == "7201");
  CHECK(s["next"] == "7200");
  CHECK(s["verified"] == true);
  CHECK(s["sideEffects"]["changedDecisions"] == 0);
  CHECK(s["command"] == "kubectl annotate priorityclass toleration-policy-sample " + k_seconds_key +
                            "=7201 --overwrite");
  // The minimum already exceeds every pending priority: only the window is short.
  const nlohmann::json min = entry(r["noEffect"], "toleration-policy-sample", k_min_key);
  REQUIRE(min.is_object());
  CHECK(min["why"] == "already at its limit");
}

TEST_CASE(
    "advise sets a minimum above the preemptor, with toleration-seconds -1 for a class "
    "without a window",
    "[cli][advise]") {
  const nlohmann::json r = advise_json("no-policy.yaml", "reports/report-0");
  const nlohmann::json s = entry(r["suggestions"], "batch", k_min_key);
  INFO(r.dump(2));
  REQUIRE(s.is_object());
  // No annotations: the minimum defaults to value + 1; the preemptor has priority 9000.
  CHECK(s["from"] == "8001");
  CHECK(s["to"] == "9001");
  CHECK(s["next"] == "9000");
  CHECK(s["verified"] == true);
  CHECK(s["command"] == "kubectl annotate priorityclass batch " + k_min_key + "=9001 " +
                            k_seconds_key + "=-1 --overwrite");
  bool forever_noted = false;
  for (const auto& n : s["notes"]) {
    forever_noted =
        forever_noted || n.get<std::string>().find("sets it to -1") != std::string::npos;
  }
  CHECK(forever_noted);
  // A window alone does nothing while the preemptor reaches the minimum.
  const nlohmann::json seconds = entry(r["noEffect"], "batch", k_seconds_key);
  REQUIRE(seconds.is_object());
  CHECK(seconds["why"] == "raising it as far as -1 does not save it");
}

TEST_CASE("advise raises a minimum the preemptor reaches by one, leaving a forever window alone",
          "[cli][advise]") {
  const nlohmann::json r = advise_json("reaches-minimum.yaml", "batch/etl-0");
  const nlohmann::json s = entry(r["suggestions"], "low-non-preempted", k_min_key);
  INFO(r.dump(2));
  REQUIRE(s.is_object());
  // A preemptor whose priority equals the minimum may preempt: 10000 reaches 10000.
  CHECK(s["from"] == "10000");
  CHECK(s["to"] == "10001");
  CHECK(s["next"] == "10000");
  CHECK(s["verified"] == true);
  CHECK(s["command"] ==
        "kubectl annotate priorityclass low-non-preempted " + k_min_key + "=10001 --overwrite");
  const nlohmann::json seconds = entry(r["noEffect"], "low-non-preempted", k_seconds_key);
  REQUIRE(seconds.is_object());
  CHECK(seconds["why"] == "already at its limit");
}
