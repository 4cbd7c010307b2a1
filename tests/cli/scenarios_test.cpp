// SPDX-License-Identifier: Apache-2.0
// Runs every scenario under testdata/explain/<policy>/<case>/ through the CLI in-process and
// compares outcome, node and victims with the case's expectations.
#include "support/cases.h"
#include "support/run.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace {

std::set<std::string> victims_of(const nlohmann::json& result) {
  std::set<std::string> out;
  for (const auto& v : result["victims"]) {
    out.insert(v["kind"].get<std::string>() + "/" + v.value("namespace", "") + "/" +
               v["name"].get<std::string>());
  }
  return out;
}

}  // namespace

TEST_CASE("every testdata scenario gives the expected decision", "[cli][scenarios]") {
  auto dirs = kpreempt::test::explain_case_dirs();
  REQUIRE(!dirs.empty());
  for (const auto& dir : dirs) {
    DYNAMIC_SECTION(fs::relative(dir, KPREEMPT_TESTDATA).string()) {
      YAML::Node c = YAML::LoadFile((dir / "case.yaml").string());
      kpreempt::test::Run r = kpreempt::test::run_cli(
          kpreempt::test::explain_case_args(dir, (dir / "cluster.yaml").string()));
      INFO(r.err);
      REQUIRE(r.code == 0);
      auto doc = nlohmann::json::parse(r.out);
      REQUIRE(doc["results"].size() == 1);
      const auto& result = doc["results"][0];
      const YAML::Node& expect = c["expect"];
      CHECK(result["outcome"] == expect["outcome"].as<std::string>());
      if (expect["node"]) {
        CHECK(result.value("node", "") == expect["node"].as<std::string>());
      }
      if (expect["nodeOneOf"]) {
        auto allowed = expect["nodeOneOf"].as<std::vector<std::string>>();
        CHECK(std::count(allowed.begin(), allowed.end(), result.value("node", "")) == 1);
      }
      if (expect["victims"]) {
        auto want = expect["victims"].as<std::vector<std::string>>();
        CHECK(victims_of(result) == std::set<std::string>(want.begin(), want.end()));
      }
    }
  }
}
