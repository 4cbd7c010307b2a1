// SPDX-License-Identifier: Apache-2.0
#include "support/cases.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace fs = std::filesystem;

namespace kpreempt::test {

std::vector<fs::path> explain_case_dirs() {
  std::vector<fs::path> dirs;
  for (const auto& e : fs::recursive_directory_iterator(KPREEMPT_TESTDATA "/explain")) {
    if (e.is_regular_file() && e.path().filename() == "case.yaml" &&
        fs::exists(e.path().parent_path() / "cluster.yaml")) {
      dirs.push_back(e.path().parent_path());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::vector<std::string> explain_case_args(const fs::path& dir, const std::string& dump) {
  YAML::Node c = YAML::LoadFile((dir / "case.yaml").string());
  const YAML::Node& pre = c["preemptor"];
  std::string flag = pre["kind"].as<std::string>() == "Workload" ? "--workload" : "--pod";
  std::vector<std::string> args = {
      "explain",
      "-f",
      dump,
      "--policy",
      c["policy"].as<std::string>(),
      flag,
      pre["namespace"].as<std::string>() + "/" + pre["name"].as<std::string>(),
      "-o",
      "json",
      "--now",
      c["now"] ? c["now"].as<std::string>() : "2026-01-01T00:00:00Z"};
  if (c["args"] && c["args"].IsMap()) {
    for (const auto& kv : c["args"]) {
      args.push_back("--set");
      args.push_back(kv.first.as<std::string>() + "=" + kv.second.as<std::string>());
    }
  }
  return args;
}

}  // namespace kpreempt::test
