// SPDX-License-Identifier: Apache-2.0
// SARIF output checked against the properties SARIF 2.1.0 requires (and GitHub code scanning
// reads), with a small validator written from the specification's required fields.
#include "lint_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>

namespace {

using nlohmann::json;

// Returns the first violation found, or "" when the log has every required property.
std::string sarif_problem(const json& log) {
  if (log.value("version", "") != "2.1.0") {
    return "version must be 2.1.0";
  }
  if (!log.contains("$schema") || !log["$schema"].is_string()) {
    return "$schema missing";
  }
  if (!log.contains("runs") || !log["runs"].is_array() || log["runs"].empty()) {
    return "runs must be a non-empty array";
  }
  for (const json& run : log["runs"]) {
    const json& driver = run["tool"]["driver"];
    if (!driver.is_object() || !driver.contains("name") || !driver["name"].is_string()) {
      return "runs[].tool.driver.name missing";
    }
    const json& rules = driver.contains("rules") ? driver["rules"] : json::array();
    for (const json& r : rules) {
      if (!r.contains("id") || !r["id"].is_string()) {
        return "rules[].id missing";
      }
      for (const char* text : {"shortDescription", "fullDescription", "help"}) {
        if (r.contains(text) && !r[text]["text"].is_string()) {
          return std::string("rules[].") + text + ".text missing";
        }
      }
      std::string level = r["defaultConfiguration"].value("level", "warning");
      if (level != "error" && level != "warning" && level != "note" && level != "none") {
        return "bad defaultConfiguration.level";
      }
    }
    if (!run.contains("results") || !run["results"].is_array()) {
      return "runs[].results must be present (an empty array for a clean run)";
    }
    for (const json& res : run["results"]) {
      if (!res["message"]["text"].is_string()) {
        return "results[].message.text missing";
      }
      if (res.contains("ruleIndex")) {
        std::size_t i = res["ruleIndex"];
        if (i >= rules.size() || rules[i]["id"] != res["ruleId"]) {
          return "results[].ruleIndex does not point at its rule";
        }
      }
      for (const json& loc : res["locations"]) {
        const json& phys = loc["physicalLocation"];
        std::string uri = phys["artifactLocation"].value("uri", "");
        if (uri.empty() || uri.front() == '/' || uri.find("://") != std::string::npos) {
          return "artifactLocation.uri must be a relative reference";
        }
        if (phys.contains("region") && (phys["region"].value("startLine", 0) < 1 ||
                                        phys["region"].value("startColumn", 1) < 1)) {
          return "region lines and columns are 1-based";
        }
      }
    }
  }
  return "";
}

json sarif_of(const std::vector<kpreempt::lint::Finding>& fs) {
  std::ostringstream out;
  kpreempt::lint::Result r;
  r.findings = fs;
  r.selected = kpreempt::lint::select_rules(kpreempt::lint::Options{});
  kpreempt::lint::write(kpreempt::lint::Format::sarif, r, out);
  return json::parse(out.str());
}

}  // namespace

TEST_CASE("SARIF output of a run with findings has every required property", "[lint][sarif]") {
  auto fs = lint_test::lint(lint_test::scan(KPREEMPT_TESTDATA "/lint/PC005/bad.yaml"));
  REQUIRE_FALSE(fs.empty());
  json log = sarif_of(fs);
  CHECK(sarif_problem(log) == "");
  const json& result = log["runs"][0]["results"][0];
  CHECK(result["level"] == "error");
  const json& region = result["locations"][0]["physicalLocation"]["region"];
  CHECK(region["startLine"] == fs[0].loc.line);
  const json& rule = log["runs"][0]["tool"]["driver"]["rules"][result["ruleIndex"].get<int>()];
  CHECK(rule["name"].is_string());
  CHECK(rule["help"]["text"].is_string());
}

TEST_CASE("SARIF output of a clean run still lists the rules and an empty results array",
          "[lint][sarif]") {
  json log = sarif_of({});
  CHECK(sarif_problem(log) == "");
  CHECK(log["runs"][0]["results"].empty());
  CHECK(log["runs"][0]["tool"]["driver"]["rules"].size() == 47);
}

TEST_CASE("the SARIF validator catches missing required properties", "[lint][sarif]") {
  json log = sarif_of({});
  log["runs"][0].erase("results");
  CHECK(sarif_problem(log) != "");
  json no_version = sarif_of({});
  no_version.erase("version");
  CHECK(sarif_problem(no_version) != "");
}
