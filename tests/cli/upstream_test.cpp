// SPDX-License-Identifier: Apache-2.0
// --upstream and --set featureGates through the binary: the line each explanation names, the
// nearest-line warning, usage errors, and a resize case answered differently by two lines.
#include "support/run.h"

#include <catch2/catch.hpp>

#include <string>

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
