// SPDX-License-Identifier: Apache-2.0
// JSON output of every testdata/explain case and of the demo, byte for byte against the
// committed expected files: the public document must not drift by accident.
#include "support/run.h"

#include "kpreempt/policy/policy.h"

#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;
using kpreempt::test::Run;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// KPREEMPT_UPDATE_GOLDEN=1 rewrites the expected files from the current output, for a change
// to the document made on purpose; review the diff before committing it.
bool update_goldens() {
  const char* v = std::getenv("KPREEMPT_UPDATE_GOLDEN");
  return v != nullptr && std::string_view(v) == "1";
}

// The binary from the project root, with no cache, stdout only.
Run run(const std::string& args) {
  return kpreempt::test::run_shell(
      std::string("cd '" KPREEMPT_TESTDATA "/..' && KPREEMPT_CACHE_DIR=/nonexistent '") +
      KPREEMPT_BINARY + "' " + args + " 2>/dev/null");
}

// A case.yaml arg as the command line spells it: booleans in lower case, the rest verbatim.
std::string arg_text(const YAML::Node& value) {
  std::string text = value.Scalar();
  if (value.Tag() != "!" &&
      (text == "True" || text == "False" || text == "TRUE" || text == "FALSE")) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  }
  return text;
}

// The explain arguments a case stands for: its policy, preemptor, clock, release line and
// --set args.
std::vector<std::string> case_args(const fs::path& dir) {
  YAML::Node c = YAML::LoadFile((dir / "case.yaml").string());
  const YAML::Node p = c["preemptor"];
  std::string rel = fs::relative(dir, fs::path(KPREEMPT_TESTDATA).parent_path()).string();
  std::vector<std::string> args{
      "explain",
      "--no-cache",
      "-f",
      rel + "/cluster.yaml",
      "--policy",
      c["policy"].as<std::string>(),
      p["kind"].as<std::string>() == "Workload" ? "--workload" : "--pod",
      p["namespace"].as<std::string>() + "/" + p["name"].as<std::string>(),
      "--now",
      c["now"].as<std::string>()};
  if (c["upstream"]) {  // the release line the case pins, as the conformance runner passes it
    args.insert(args.end(), {"--upstream", c["policy"].as<std::string>() + "=" +
                                               c["upstream"].as<std::string>()});
  }
  for (const auto& kv : c["args"]) {
    args.insert(args.end(), {"--set", kv.first.as<std::string>() + "=" + arg_text(kv.second)});
  }
  args.insert(args.end(), {"-o", "json"});
  return args;
}

std::vector<fs::path> case_dirs(std::string_view policy) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(KPREEMPT_TESTDATA) / "explain" / policy)) {
    if (fs::exists(e.path() / "case.yaml")) {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// In process from the project root, as the binary would run there: the sanitizer build
// checks every case in seconds instead of starting a process per case.
Run run_case(const std::vector<std::string>& args) {
  struct InRoot {
    fs::path before = fs::current_path();
    InRoot() { fs::current_path(std::string(KPREEMPT_TESTDATA) + "/.."); }
    ~InRoot() { fs::current_path(before); }
  } in_root;
  return kpreempt::test::run_cli(args);
}

std::string joined(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) {
    out += (out.empty() ? "" : " ") + a;
  }
  return out;
}

}  // namespace

TEST_CASE("every policy's cases print their expected JSON byte for byte", "[cli][golden]") {
  for (const kpreempt::policy::Entry& policy : kpreempt::policy::all()) {
    std::vector<fs::path> dirs = case_dirs(policy.name);
    INFO(policy.name);
    REQUIRE_FALSE(dirs.empty());
    for (const fs::path& dir : dirs) {
      std::vector<std::string> args = case_args(dir);
      INFO(joined(args));
      Run r = run_case(args);
      CHECK(r.code == 0);
      if (update_goldens() && r.code == 0) {
        std::ofstream(dir / "expected.json", std::ios::binary) << r.out;
      }
      CHECK(r.out == slurp(dir / "expected.json"));
    }
  }
}

// Folders of other fixtures (victim-under-way: dumps for explain --victim) hold no case.yaml.
TEST_CASE("every explain case folder belongs to a registered policy", "[cli][golden]") {
  for (const auto& e : fs::directory_iterator(fs::path(KPREEMPT_TESTDATA) / "explain")) {
    INFO(e.path().filename().string());
    bool cases = false;
    for (const auto& f : fs::recursive_directory_iterator(e.path())) {
      cases = cases || f.path().filename() == "case.yaml";
    }
    CHECK((!cases || kpreempt::policy::find(e.path().filename().string()) != nullptr));
  }
}

TEST_CASE("the demo prints its expected JSON byte for byte", "[cli][golden]") {
  const std::string demo = "-f testdata/demo/cluster.yaml ";
  const std::string clock = " --now 2026-11-24T12:00:00Z -o json";
  const std::string demo_dir = KPREEMPT_TESTDATA "/demo/";
  const std::vector<std::pair<std::string, std::string>> runs{
      {"explain --no-cache " + demo + "--pod ml/trainer-0" + clock, "expected.json"},
      {"explain --no-cache " + demo + "--pod ml/trainer-0 --policy all" + clock,
       "expected-all.json"},
      {"explain --no-cache " + demo + "--all-pending" + clock, "expected-allpending.json"},
      {"matrix " + demo + "-o json", "expected-matrix.json"},
  };
  for (const auto& [args, expected] : runs) {
    INFO(args);
    Run r = run(args);
    CHECK(r.code == 0);
    if (update_goldens() && r.code == 0) {
      std::ofstream(demo_dir + expected, std::ios::binary) << r.out;
    }
    CHECK(r.out == slurp(demo_dir + expected));
  }
}
