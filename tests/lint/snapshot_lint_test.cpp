// SPDX-License-Identifier: Apache-2.0
// lint on a snapshot file: the findings its decoded objects carry, never one the YAML it was
// made from does not have.
#include "support/run.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace {

using kpreempt::test::Run;
using kpreempt::test::run_cli;
namespace fs = std::filesystem;

// "RULE object" of every finding of a `lint -o json` document, sorted.
std::vector<std::string> findings_of(const std::string& out) {
  const nlohmann::json doc = nlohmann::json::parse(out);
  std::vector<std::string> found;
  for (const auto& f : doc["findings"]) {
    found.push_back(f["rule"].get<std::string>() + " " + f["object"].get<std::string>());
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::set<std::string> rules_of(const std::vector<std::string>& findings) {
  std::set<std::string> rules;
  for (const std::string& f : findings) {
    rules.insert(f.substr(0, f.find(' ')));
  }
  return rules;
}

// Fixtures whose findings need what a snapshot does not keep: the apiVersion as written
// (PC009), controllers' pod templates (PC010, PC012, PC020) and whether `enabled: true` was
// written out or left to its default (YQ005).
const std::set<std::string> k_needs_text = {"PC009/bad.yaml", "PC010/bad.yaml",
                                            "PC012/bad.yaml", "PC012/bad-daemonset-dump.yaml",
                                            "PC020/bad.yaml", "YQ005/bad.yaml"};

}  // namespace

TEST_CASE("lint reads a snapshot file and finds what the YAML it was made from has",
          "[lint][snapshot]") {
  const fs::path kps = fs::temp_directory_path() / "kpreempt-lint-snapshot.kps";
  std::size_t compared = 0;
  for (const auto& dir : fs::directory_iterator(KPREEMPT_TESTDATA "/lint")) {
    if (!dir.is_directory() || dir.path().filename().string().size() != 5) {
      continue;  // rule folders only: PC001, KQ006, ...
    }
    for (const auto& file : fs::directory_iterator(dir.path())) {
      const std::string rel =
          dir.path().filename().string() + "/" + file.path().filename().string();
      if (run_cli({"snapshot", "-f", file.path().string(), "-o", kps.string()}).code != 0) {
        continue;  // a fixture explain refuses (syntax, bad values) makes no snapshot
      }
      CAPTURE(rel);
      Run text = run_cli({"lint", "-f", file.path().string(), "-o", "json", "--fail-on", "never",
                          "--allow-empty"});
      Run snap = run_cli(
          {"lint", "-f", kps.string(), "-o", "json", "--fail-on", "never", "--allow-empty"});
      REQUIRE(snap.code == 0);
      CHECK(snap.err.find("a snapshot file keeps decoded objects") != std::string::npos);
      const std::vector<std::string> from_text = findings_of(text.out);
      const std::vector<std::string> from_snapshot = findings_of(snap.out);
      if (!k_needs_text.contains(rel)) {
        CHECK(from_snapshot == from_text);
      } else {
        // Fewer findings, or one named by another object of the same controller.
        const std::set<std::string> text_rules = rules_of(from_text);
        for (const std::string& rule : rules_of(from_snapshot)) {
          CHECK(text_rules.contains(rule));
        }
      }
      ++compared;
    }
  }
  CHECK(compared > 100);
  fs::remove(kps);
}

TEST_CASE("a damaged snapshot file is one unreadable input, the others are still linted",
          "[lint][snapshot]") {
  const fs::path kps = fs::temp_directory_path() / "kpreempt-lint-damaged.kps";
  REQUIRE(run_cli({"snapshot", "-f", KPREEMPT_TESTDATA "/lint/PC013/bad.yaml", "-o", kps.string()})
              .code == 0);
  fs::resize_file(kps, fs::file_size(kps) / 2);
  Run r = run_cli(
      {"lint", "-f", kps.string(), "-f", KPREEMPT_TESTDATA "/lint/PC014/bad.yaml", "-o", "json"});
  CHECK(r.code == 2);
  CHECK(findings_of(r.out).size() >= 1);
  CHECK(r.err.find(kps.string() + ": error:") != std::string::npos);
  fs::remove(kps);
}
