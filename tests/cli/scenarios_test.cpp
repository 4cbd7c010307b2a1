// SPDX-License-Identifier: Apache-2.0
// Runs every scenario under testdata/explain/<policy>/<case>/ through the CLI in-process and
// compares outcome, node and victims with the case's expectations.
#include "kpreempt/cli/cli.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> scenario_dirs() {
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::recursive_directory_iterator(KPREEMPT_TESTDATA "/explain")) {
    if (entry.is_regular_file() && entry.path().filename() == "case.yaml") {
      dirs.push_back(entry.path().parent_path());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::vector<std::string> explain_args(const fs::path& dir, const YAML::Node& c) {
  const YAML::Node& pre = c["preemptor"];
  std::string flag = pre["kind"].as<std::string>() == "Workload" ? "--workload" : "--pod";
  std::vector<std::string> args = {
      "kpreempt", "explain",
      "-f",       (dir / "cluster.yaml").string(),
      "--policy", c["policy"].as<std::string>(),
      flag,       pre["namespace"].as<std::string>() + "/" + pre["name"].as<std::string>(),
      "-o",       "json"};
  if (c["now"]) {
    args.insert(args.end(), {"--now", c["now"].as<std::string>()});
  }
  if (c["args"] && c["args"].IsMap()) {
    for (const auto& kv : c["args"]) {
      std::string key = kv.first.as<std::string>();
      args.push_back("--set");
      args.push_back(key + "=" + kv.second.as<std::string>());
    }
  }
  return args;
}

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
  auto dirs = scenario_dirs();
  REQUIRE(!dirs.empty());
  for (const auto& dir : dirs) {
    DYNAMIC_SECTION(fs::relative(dir, KPREEMPT_TESTDATA).string()) {
      YAML::Node c = YAML::LoadFile((dir / "case.yaml").string());
      auto args = explain_args(dir, c);
      std::vector<const char*> argv;
      for (const auto& a : args) {
        argv.push_back(a.c_str());
      }
      std::ostringstream out, err;
      int code = kpreempt::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
      INFO(err.str());
      REQUIRE(code == 0);
      auto doc = nlohmann::json::parse(out.str());
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
