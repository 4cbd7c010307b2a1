// SPDX-License-Identifier: Apache-2.0
// `kpreempt check`: output formats and exit codes, in-process and through the real binary.
#include "support/run.h"

#include "kpreempt/cli/cli.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using kpreempt::test::Run;

Run check(std::vector<std::string> args) {
  args.insert(args.begin(), "check");
  return kpreempt::test::run_cli(args);
}

// The binary, run from the project root so paths in its output are relative.
Run binary(const std::string& args) {
  return kpreempt::test::run_binary(args, true);
}

const std::string k_check = KPREEMPT_TESTDATA "/check";
const std::string k_failing = KPREEMPT_TESTDATA "/check-failing";

}  // namespace

TEST_CASE("check passes every example scenario", "[check]") {
  Run r = check({k_check});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out ==
        "PASS batch-spares-training\n"
        "PASS prod-after-training-hour\n"
        "PASS prod-cascade-settles\n"
        "PASS prod-respects-training-hour\n"
        "PASS what-if-batch-burst\n"
        "5 passed, 0 failed\n");
}

TEST_CASE("a failing scenario says what differs and exits 1", "[check]") {
  Run r = check({k_failing});
  CHECK(r.code == 1);
  CHECK(r.out ==
        "FAIL batch-expected-unschedulable: outcome preempt, expected unschedulable; victims "
        "[Pod/research/notebook-a, Pod/research/notebook-b], expected []\n"
        "FAIL prod-cascade-too-many-evictions: cascade: 2 evictions in 2 rounds, expected at "
        "most 1\n"
        "0 passed, 2 failed\n");
}

TEST_CASE("check -o json lists each scenario with its problems", "[check]") {
  Run r = check({k_check, k_failing, "-o", "json"});
  CHECK(r.code == 1);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["passed"] == 5);
  CHECK(doc["failed"] == 2);
  REQUIRE(doc["scenarios"].size() == 7);
  const auto& settles = doc["scenarios"][2]["cascade"];
  CHECK(settles["rounds"] == 2);
  CHECK(settles["evictions"] == 2);
  CHECK(settles["settled"] == true);
  CHECK(settles["loop"].is_null());
  CHECK(doc["scenarios"][0].contains("cascade") == false);
  CHECK(doc["scenarios"][6]["problems"][0] ==
        "cascade: 2 evictions in 2 rounds, expected at most 1");
  const auto& failing = doc["scenarios"][5];
  CHECK(failing["name"] == "batch-expected-unschedulable");
  CHECK(failing["path"] == k_failing + "/batch-expected-unschedulable/case.yaml");
  CHECK(failing["policy"] == "default");
  CHECK(failing["passed"] == false);
  CHECK(failing["problems"][0] == "outcome preempt, expected unschedulable");
}

TEST_CASE("check -o junit writes one testcase per scenario", "[check]") {
  Run r = check({k_check, k_failing, "-o", "junit"});
  CHECK(r.code == 1);
  CHECK(
      r.out.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"kpreempt "
                        "check\" tests=\"7\" failures=\"2\" errors=\"0\">\n"));
  CHECK(r.out.find("<testcase classname=\"toleration\" name=\"prod-respects-training-hour\"") !=
        std::string::npos);
  CHECK(r.out.find("<failure message=\"outcome preempt, expected unschedulable; victims "
                   "[Pod/research/notebook-a, Pod/research/notebook-b], expected []\">") !=
        std::string::npos);
  CHECK(r.out.find("<failure message=\"cascade: 2 evictions in 2 rounds, expected at most 1\">") !=
        std::string::npos);
  CHECK(r.out.ends_with("</testsuite>\n"));
}

TEST_CASE("a broken case file is located and nothing runs", "[check]") {
  auto dir = std::filesystem::temp_directory_path() / "kpreempt-check-bad";
  std::filesystem::create_directories(dir / "typo");
  std::ofstream(dir / "typo" / "case.yaml")
      << "policy: default\ncluster: " << k_check << "/cluster.yaml\n"
      << "preemptor: {namespace: batch, name: etl-0}\nexpect:\n  outcome: preempt\n"
      << "  maxVictim: 2\n";
  Run r = check({dir.string(), "--allow-outside"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == (dir / "typo" / "case.yaml").string() +
                     ":6:3: error: unknown key \"expect.maxVictim\"; did you mean "
                     "\"maxVictims\"?\n");
  std::filesystem::remove_all(dir);
}

TEST_CASE("a missing preemptor is an input error, exit 2", "[check]") {
  auto dir = std::filesystem::temp_directory_path() / "kpreempt-check-missing";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "case.yaml")
      << "policy: default\ncluster: " << k_check << "/cluster.yaml\n"
      << "preemptor: {namespace: batch, name: etl-9}\nexpect: {outcome: preempt}\n";
  Run r = check({(dir / "case.yaml").string(), "--allow-outside"});
  CHECK(r.code == 2);
  CHECK(r.err == (dir / "case.yaml").string() +
                     ":3:12: error: preemptor: no Pod batch/etl-9 in the cluster files; did you "
                     "mean batch/etl-0?\n");
  CHECK(r.out ==
        "FAIL kpreempt-check-missing: error: preemptor: no Pod batch/etl-9 in the cluster "
        "files; did you mean batch/etl-0?\n"
        "0 passed, 1 failed\n");
  std::filesystem::remove_all(dir);
}

TEST_CASE("check without a scenario is a usage error", "[check]") {
  CHECK(check({}).code == 2);
  CHECK(check({k_check, "-o", "xml"}).code == 2);
}

TEST_CASE("the binary checks the examples and exits 0", "[check][e2e]") {
  Run r = binary("check testdata/check");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.ends_with("5 passed, 0 failed\n"));
}

TEST_CASE("the binary exits 1 on the deliberately failing scenario", "[check][e2e]") {
  Run r = binary("check testdata/check-failing");
  CHECK(r.code == 1);
  CHECK(r.out.find("FAIL batch-expected-unschedulable: outcome preempt, expected "
                   "unschedulable") != std::string::npos);
  CHECK(r.out.find("FAIL prod-cascade-too-many-evictions: cascade: 2 evictions in 2 rounds, "
                   "expected at most 1\n") != std::string::npos);
}

TEST_CASE("every explain testdata case passes as a check scenario", "[check][e2e]") {
  Run r = binary("check testdata/explain");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("FAIL") == std::string::npos);
}

TEST_CASE("a scenario's podFile may be any manifest explain --pod-file takes", "[check]") {
  Run r = check({KPREEMPT_TESTDATA "/check-controllers"});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out ==
        "PASS what-if-deployment\n"
        "PASS what-if-job\n"
        "2 passed, 0 failed\n");
}

namespace {

// A folder holding `secret.txt` (several long lines) and, in scenario/, a case file.
std::filesystem::path outside_fixture(const std::string& name, const std::string& case_text) {
  auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "scenario");
  std::ofstream secret(dir / "secret.txt");
  for (int i = 1; i <= 5; ++i) {
    secret << "line-" << i << "-secret:" << std::string(100, 'x') << "\n";
  }
  std::ofstream(dir / "scenario" / "case.yaml") << case_text;
  return dir;
}

}  // namespace

TEST_CASE("scenario paths outside the folder searched are refused without being read", "[check]") {
  auto dir = outside_fixture("kpreempt-check-outside",
                             "policy: default\ncluster: ../../secret.txt\n"
                             "preemptor: {podFile: /etc/passwd}\nexpect: {outcome: fits}\n");
  const std::string scenario = (dir / "scenario").string();
  Run r = check({scenario});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == scenario +
                     "/case.yaml:2:10: error: cluster: \"../../secret.txt\" is outside the "
                     "scenario folder \"" +
                     dir.string() + "/\"; give --allow-outside to read it\n" + scenario +
                     "/case.yaml:3:22: error: preemptor.podFile: \"/etc/passwd\" is outside the "
                     "scenario folder \"" +
                     dir.string() + "/\"; give --allow-outside to read it\n");
  std::filesystem::remove_all(dir);
}

TEST_CASE("a file read with --allow-outside is quoted as a short excerpt, never whole", "[check]") {
  auto dir = outside_fixture("kpreempt-check-excerpt",
                             "policy: default\ncluster: ../secret.txt\n"
                             "preemptor: {name: p}\nexpect: {outcome: fits}\n");
  Run r = check({(dir / "scenario").string(), "--allow-outside"});
  CHECK(r.code == 2);
  INFO(r.err);
  CHECK(r.err.find("line-1-secret:xxxx") != std::string::npos);
  CHECK(r.err.find("line-2-secret") == std::string::npos);
  CHECK(r.err.find(std::string(61, 'x')) == std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a misspelt args key is located in the case file with a suggestion", "[check]") {
  auto dir = std::filesystem::temp_directory_path() / "kpreempt-check-args";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(k_check + "/cluster.yaml", dir / "cluster.yaml",
                             std::filesystem::copy_options::overwrite_existing);
  std::ofstream(dir / "case.yaml")
      << "policy: default\npreemptor: {namespace: batch, name: etl-0}\n"
      << "args:\n  minCandidateNodesPercentag: 20\nexpect: {outcome: preempt}\n";
  Run r = check({dir.string()});
  CHECK(r.code == 2);
  CHECK(r.err == (dir / "case.yaml").string() +
                     ":4:3: error: args: unknown key \"minCandidateNodesPercentag\" for policy "
                     "default; did you mean DefaultPreemption.minCandidateNodesPercentage?\n");
  std::filesystem::remove_all(dir);
}
