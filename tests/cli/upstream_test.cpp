// SPDX-License-Identifier: Apache-2.0
// --upstream and --set featureGates through the binary: the line each explanation names, the
// nearest-line warning, usage errors, and a resize case answered differently by two lines.
#include "support/run.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <utility>

namespace {

using kpreempt::test::Run;

Run run(const std::string& args, bool with_stderr = true) {
  return kpreempt::test::run_binary(args, with_stderr);
}

constexpr const char* k_demo =
    "explain -f testdata/demo/cluster.yaml --now 2026-11-22T10:00:00Z --pod ml/trainer-0 "
    "--policy default ";
constexpr const char* k_resize =
    "explain -f testdata/explain/default/v137-resize-allocated-only-counts/cluster.yaml "
    "--now 2026-01-01T00:00:00Z --pod default/p --policy default -o json ";

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("every explanation names the release line it mirrored", "[cli][upstream]") {
  Run newest = run(std::string(k_demo));
  REQUIRE(newest.code == 0);
  CHECK(has(newest.out, "default (kubernetes v1.37 "));
  Run older = run(std::string(k_demo) + "--upstream default=v1.35.4 -o json", false);
  REQUIRE(older.code == 0);
  CHECK(has(older.out, "\"upstreamLine\": \"v1.35\""));
  CHECK(has(older.out, "\"upstream\": \"kubernetes v1.35 "));
}

TEST_CASE("a line not modelled runs as the nearest one, with a warning naming both",
          "[cli][upstream]") {
  Run r = run(std::string(k_demo) + "--upstream default=v1.40");
  REQUIRE(r.code == 0);
  CHECK(has(r.out, "does not model default v1.40; using the nearest line it models, v1.37"));
  CHECK(has(r.out, "default (kubernetes v1.37 "));
}

TEST_CASE("bad --upstream values and gates are usage errors", "[cli][upstream]") {
  Run typo = run(std::string(k_demo) + "--upstream defualt=v1.37");
  CHECK(typo.code == 2);
  CHECK(has(typo.out, "did you mean default?"));
  Run syntax = run(std::string(k_demo) + "--upstream default");
  CHECK(syntax.code == 2);
  CHECK(has(syntax.out, "POLICY=VERSION"));
  Run gate = run(std::string(k_demo) + "--set featureGates.InPlacePodVerticalScalng=true");
  CHECK(gate.code == 2);
  CHECK(has(gate.out, "did you mean featureGates.InPlacePodVerticalScaling?"));
  Run value = run(std::string(k_demo) + "--set featureGates.GenericWorkload=maybe");
  CHECK(value.code == 2);
}

TEST_CASE("non-default gates are named in the explanation", "[cli][upstream]") {
  Run r = run(std::string(k_demo) + "--set featureGates.GenericWorkload=true -o json", false);
  REQUIRE(r.code == 0);
  CHECK(has(r.out, "\"featureGates\": {\n        \"GenericWorkload\": true"));
  CHECK(has(r.out, "GenericWorkload=true is not modelled"));
}

TEST_CASE("v1.37 counts allocatedResources without resources, v1.36 does not", "[cli][upstream]") {
  Run v137 = run(std::string(k_resize), false);
  Run v136 = run(std::string(k_resize) + "--upstream default=v1.36", false);
  REQUIRE(v137.code == 0);
  REQUIRE(v136.code == 0);
  CHECK(has(v137.out, "\"outcome\": \"preempt\""));
  CHECK(has(v137.out, "resize-effective-requests"));
  CHECK_FALSE(has(v136.out, "\"outcome\": \"preempt\""));
}

namespace {

constexpr const char* k_images =
    "explain -f testdata/cli/scheduler-images/cluster.yaml --no-cache --now "
    "2026-10-06T12:30:00Z ";

// policy -> {upstreamLine, upstreamFrom} of every result of a JSON explanation.
std::map<std::string, std::pair<std::string, std::string>> lines_of(const std::string& json) {
  std::map<std::string, std::pair<std::string, std::string>> out;
  const auto doc = nlohmann::json::parse(json);
  for (const auto& r : doc["results"]) {
    out[r["policy"]] = {r["upstreamLine"], r.value("upstreamFrom", "")};
  }
  return out;
}

}  // namespace

TEST_CASE("explain --policy all mirrors the release each scheduler of the dump runs, and says so",
          "[cli][upstream][images]") {
  Run text = run(std::string(k_images) + "--pod ml/trainer-0 --policy all");
  INFO(text.out);
  REQUIRE(text.code == 0);
  CHECK(has(text.out, "default (kubernetes v1.35 "));
  CHECK(has(text.out,
            "  upstream  v1.35 from image registry.k8s.io/kube-scheduler:v1.35.2 (Pod "
            "kube-system/kube-scheduler-cp-1, testdata/cli/scheduler-images/cluster.yaml:"));
  CHECK(has(text.out, "kueue (kueue v0.14.8 "));
  CHECK(has(text.out,
            "  upstream  v0.14 from image registry.k8s.io/kueue/kueue:v0.14.3 (Deployment "
            "kueue-system/kueue-controller-manager, "));
  CHECK(has(text.out, "yunikorn (yunikorn-core v1.7.0 "));
  CHECK(has(text.out,
            "  upstream  v1.7 from image apache/yunikorn:scheduler-1.7.0 (Deployment "
            "yunikorn/yunikorn-scheduler, "));
  // The ReplicaSet of the release before is scaled to zero: no second Kueue release.
  CHECK_FALSE(has(text.out, "v0.13"));

  Run json = run(std::string(k_images) + "--pod ml/trainer-0 --policy all -o json", false);
  REQUIRE(json.code == 0);
  const auto lines = lines_of(json.out);
  REQUIRE(lines.count("default") == 1);
  CHECK(lines.at("default").first == "v1.35");
  CHECK(has(lines.at("default").second, "image registry.k8s.io/kube-scheduler:v1.35.2 (Pod "));
  REQUIRE(lines.count("kueue") == 1);
  CHECK(lines.at("kueue").first == "v0.14");
  CHECK(has(lines.at("kueue").second, "(Deployment kueue-system/kueue-controller-manager, "));
  REQUIRE(lines.count("yunikorn") == 1);
  CHECK(lines.at("yunikorn").first == "v1.7");
  CHECK(has(lines.at("yunikorn").second, "image apache/yunikorn:scheduler-1.7.0 (Deployment"));
}

TEST_CASE("an --upstream value wins over the release of the dump's scheduler",
          "[cli][upstream][images]") {
  Run r =
      run(std::string(k_images) + "--pod ml/trainer-0 --policy all --upstream kueue=v0.19 -o json",
          false);
  REQUIRE(r.code == 0);
  const auto lines = lines_of(r.out);
  REQUIRE(lines.count("kueue") == 1);
  CHECK(lines.at("kueue").first == "v0.19");
  CHECK(has(lines.at("kueue").second,
            "--upstream kueue=v0.19, not the dump's image registry.k8s.io/kueue/kueue:v0.14.3"));
  REQUIRE(lines.count("default") == 1);
  CHECK(lines.at("default").first == "v1.35");
  // Without any scheduler image, the newest line goes without a source.
  Run plain = run(std::string(k_demo) + "-o json", false);
  REQUIRE(plain.code == 0);
  CHECK_FALSE(has(plain.out, "upstreamFrom"));
}

TEST_CASE("explain --all-pending says once per policy where its line came from",
          "[cli][upstream][images]") {
  Run r = run(std::string(k_images) + "--all-pending --policy all");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(has(r.out, "\n\ndefault upstream v1.35 from image registry.k8s.io/kube-scheduler:v1.35.2"));
  CHECK(has(r.out, "\nkueue upstream v0.14 from image registry.k8s.io/kueue/kueue:v0.14.3"));
}

TEST_CASE("a check scenario without upstream: takes the dump's line", "[cli][upstream][images]") {
  Run from_image = run("check testdata/cli/scheduler-images/kueue-from-image -o json", false);
  INFO(from_image.out);
  REQUIRE(from_image.code == 0);
  const auto doc = nlohmann::json::parse(from_image.out);
  CHECK(doc["scenarios"][0]["upstreamLine"] == "v0.14");
  CHECK(has(doc["scenarios"][0].value("upstreamFrom", ""),
            "image registry.k8s.io/kueue/kueue:v0.14.3"));
  Run pinned = run("check testdata/cli/scheduler-images/kueue-pinned -o json", false);
  INFO(pinned.out);
  REQUIRE(pinned.code == 0);
  const auto pinned_doc = nlohmann::json::parse(pinned.out);
  CHECK(pinned_doc["scenarios"][0]["upstreamLine"] == "v0.19");
  CHECK(has(pinned_doc["scenarios"][0].value("upstreamFrom", ""), "upstream: v0.19 ("));
}

TEST_CASE("workload-aware scheduling objects are named: with the gate off, pods are judged alone",
          "[cli][upstream]") {
  Run r = kpreempt::test::run_cli(
      {"explain", "--no-cache", "-f", KPREEMPT_TESTDATA "/cli/workload-aware/cluster.yaml", "--pod",
       "default/trainer-0", "--policy", "default", "--now", "2026-11-27T00:00:00Z", "-o", "json"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"outcome\": \"preempt\"") != std::string::npos);
  CHECK(r.out.find("workload-aware scheduling (PodGroup/default/trainers, Pod/default/trainer-0 "
                   "(spec.schedulingGroup))") != std::string::npos);
}
