// SPDX-License-Identifier: Apache-2.0
// Release lines and feature gates: version parsing, the nearest modelled line, gate defaults by
// line, and --upstream parsing with its errors and warnings.
#include "kpreempt/policy/upstream.h"

#include "kpreempt/diag.h"
#include "kpreempt/policy/args.h"
#include "kpreempt/policy/policy.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace kpreempt::testing {
namespace {

using policy::ReleaseLine;

const policy::Entry& entry(std::string_view name) {
  const policy::Entry* e = policy::find(name);
  REQUIRE(e != nullptr);
  return *e;
}

}  // namespace

TEST_CASE("a release maps to its line, whatever patch or pre-release follows",
          "[policy][upstream]") {
  CHECK(policy::parse_release_line("v1.37") == ReleaseLine{1, 37});
  CHECK(policy::parse_release_line("1.37") == ReleaseLine{1, 37});
  CHECK(policy::parse_release_line("v1.37.2") == ReleaseLine{1, 37});
  CHECK(policy::parse_release_line("v0.19.0-rc.1") == ReleaseLine{0, 19});
  CHECK(policy::parse_release_line("v1.8.0-1") == ReleaseLine{1, 8});
  CHECK(policy::to_string(ReleaseLine{0, 14}) == "v0.14");
  for (const char* bad :
       {"", "v", "1", "v1.", "v1.x", "latest", "v1.37.", "v1.37-", "v0.0", "v1.37 ", "v1.37.2.1"}) {
    INFO(bad);
    CHECK_FALSE(policy::parse_release_line(bad).has_value());
  }
}

TEST_CASE("every policy's default is its newest line", "[policy][upstream]") {
  CHECK(policy::to_string(entry("default").newest().line) == "v1.37");
  CHECK(policy::to_string(entry("yunikorn").newest().line) == "v1.8");
  CHECK(policy::to_string(entry("kueue").newest().line) == "v0.19");
  for (const policy::Entry& e : policy::all()) {
    INFO(e.name);
    REQUIRE_FALSE(e.lines.empty());
    CHECK(&e.nearest(ReleaseLine{}) == &e.newest());
    for (std::size_t i = 1; i < e.lines.size(); ++i) {
      CHECK(e.lines[i - 1].line < e.lines[i].line);
    }
  }
}

TEST_CASE("a line that is not modelled resolves to the nearest, with a warning naming both",
          "[policy][upstream]") {
  const policy::Entry& def = entry("default");
  CHECK(def.nearest(ReleaseLine{1, 35}).line == ReleaseLine{1, 35});
  CHECK(def.nearest(ReleaseLine{1, 40}).line == ReleaseLine{1, 37});
  CHECK(def.nearest(ReleaseLine{1, 30}).line == ReleaseLine{1, 34});
  std::vector<std::string> warnings;
  const auto choices = policy::parse_upstream(
      std::vector<std::string>{"yunikorn=v1.9.0", "default=v1.35"}, &warnings);
  REQUIRE(choices.size() == 2);
  CHECK(policy::line_for(choices, entry("yunikorn")) == ReleaseLine{1, 8});
  CHECK(policy::line_for(choices, entry("default")) == ReleaseLine{1, 35});
  CHECK(policy::line_for(choices, entry("kueue")).unset());
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("v1.9") != std::string::npos);
  CHECK(warnings[0].find("v1.8") != std::string::npos);
}

TEST_CASE("upstream choices reject bad syntax and unknown policies with a suggestion",
          "[policy][upstream]") {
  CHECK_THROWS_WITH(policy::parse_upstream(std::vector<std::string>{"default"}, nullptr),
                    Catch::Contains("POLICY=VERSION"));
  CHECK_THROWS_WITH(policy::parse_upstream(std::vector<std::string>{"defualt=v1.37"}, nullptr),
                    Catch::Contains("did you mean default?"));
  CHECK_THROWS_WITH(policy::parse_upstream(std::vector<std::string>{"default=latest"}, nullptr),
                    Catch::Contains("not a release"));
}

TEST_CASE("feature gates take their defaults from the line and --set overrides them",
          "[policy][upstream]") {
  const policy::Entry& def = entry("default");
  const policy::Args none;
  const std::string gate = "InPlacePodLevelResourcesVerticalScaling";
  CHECK_FALSE(policy::gate_enabled(def.gates, ReleaseLine{1, 35}, none, gate));
  CHECK(policy::gate_enabled(def.gates, ReleaseLine{1, 36}, none, gate));
  CHECK_FALSE(policy::gate_enabled(def.gates, ReleaseLine{1, 37}, none, "GenericWorkload"));
  const policy::Args off(model::StringMap{{"featureGates." + gate, "false"}});
  CHECK_FALSE(policy::gate_enabled(def.gates, ReleaseLine{1, 37}, off, gate));
  const policy::Args bad(model::StringMap{{"featureGates." + gate, "yes"}});
  CHECK_THROWS_AS(policy::gate_enabled(def.gates, ReleaseLine{1, 37}, bad, gate), UsageError);
  const policy::Args locked(model::StringMap{{"featureGates.InPlacePodVerticalScaling", "false"}});
  CHECK_THROWS_WITH(
      policy::gate_enabled(def.gates, ReleaseLine{1, 37}, locked, "InPlacePodVerticalScaling"),
      Catch::Contains("locked"));
  CHECK_FALSE(
      policy::gate_enabled(def.gates, ReleaseLine{1, 34}, locked, "InPlacePodVerticalScaling"));
}

}  // namespace kpreempt::testing
