// SPDX-License-Identifier: Apache-2.0
// `kpreempt matrix`: cells per policy, formats and input errors.
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

Run matrix(std::vector<std::string> args) {
  args.insert(args.begin(), "matrix");
  return kpreempt::test::run_cli(args);
}

const std::string k_classes = KPREEMPT_TESTDATA "/matrix/classes.yaml";

// The cell text for preemptor -> victim in the table of `policy`.
std::string cell(const nlohmann::json& doc, const std::string& policy, const std::string& preemptor,
                 const std::string& victim) {
  for (const auto& table : doc["tables"]) {
    if (table["policy"] != policy) {
      continue;
    }
    for (const auto& row : table["rows"]) {
      if (row["preemptor"] != preemptor) {
        continue;
      }
      for (const auto& c : row["cells"]) {
        if (c["victim"] == victim) {
          return c["text"];
        }
      }
    }
  }
  return "(missing)";
}

nlohmann::json json_of(const std::string& file) {
  Run r = matrix({"-f", file, "-o", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("matrix orders classes by value and builds a table per applicable policy", "[matrix]") {
  auto doc = json_of(k_classes);
  std::vector<std::string> names;
  for (const auto& c : doc["classes"]) {
    names.push_back(c["name"]);
  }
  CHECK(names == std::vector<std::string>{"prod", "training-protected", "checkpointing", "batch",
                                          "research", "scavenger"});
  std::vector<std::string> policies;
  for (const auto& t : doc["tables"]) {
    policies.push_back(t["policy"]);
  }
  CHECK(policies == std::vector<std::string>{"default", "toleration", "yunikorn"});
}

TEST_CASE("default: only strictly lower priorities, never from a Never class", "[matrix]") {
  auto doc = json_of(k_classes);
  CHECK(cell(doc, "default", "prod", "training-protected") == "yes");
  CHECK(cell(doc, "default", "batch", "batch") == "no");
  CHECK(cell(doc, "default", "batch", "prod") == "no");
  CHECK(cell(doc, "default", "scavenger", "scavenger") == "no");
  CHECK(cell(doc, "default", "research", "scavenger") == "yes");
  CHECK(cell(doc, "default", "scavenger", "research") == "no");
}

TEST_CASE("toleration: windows, forever and the minimum preemptable priority", "[matrix]") {
  auto doc = json_of(k_classes);
  CHECK(cell(doc, "toleration", "prod", "training-protected") == "after 600s");
  CHECK(cell(doc, "toleration", "prod", "checkpointing") == "yes");  // 200000 >= 150000
  CHECK(cell(doc, "toleration", "training-protected", "checkpointing") == "never");
  CHECK(cell(doc, "toleration", "batch", "research") == "yes");
  CHECK(cell(doc, "toleration", "checkpointing", "training-protected") == "no");
}

TEST_CASE("yunikorn: equal priority may go, allow-preemption false goes last", "[matrix]") {
  auto doc = json_of(k_classes);
  CHECK(cell(doc, "yunikorn", "batch", "batch") == "yes");
  CHECK(cell(doc, "yunikorn", "batch", "research") == "last");
  CHECK(cell(doc, "yunikorn", "research", "research") == "last");
  CHECK(cell(doc, "yunikorn", "research", "batch") == "no");
  CHECK(cell(doc, "yunikorn", "scavenger", "scavenger") == "no");
}

TEST_CASE("matrix text prints aligned tables with the legend", "[matrix]") {
  Run r = matrix({"-f", k_classes});
  REQUIRE(r.code == 0);
  CHECK(
      r.out.starts_with("default: kube-scheduler DefaultPreemption\n"
                        "  PREEMPTOR \\ VICTIM           prod  training-protected  "
                        "checkpointing  batch  research  scavenger\n"
                        "  prod (200000)                no    yes                 yes      "
                        "      yes    yes       yes\n"));
  CHECK(r.out.find("  training-protected (100000)  no    no                  never") !=
        std::string::npos);
  CHECK(r.out.find("  scavenger (0, Never)") != std::string::npos);
  CHECK(r.out.find("\ntoleration: ") != std::string::npos);
  CHECK(r.out.find("\nyunikorn: ") != std::string::npos);
  CHECK(r.out.find("yes: may preempt;") != std::string::npos);
}

TEST_CASE("matrix markdown writes a GitHub table per policy", "[matrix]") {
  Run r = matrix({"-f", k_classes, "-o", "markdown"});
  REQUIRE(r.code == 0);
  CHECK(
      r.out.starts_with("### default: kube-scheduler DefaultPreemption\n\n"
                        "| preemptor \\ victim | prod | training-protected | checkpointing | "
                        "batch | research | scavenger |\n|---|---|---|---|---|---|---|\n"
                        "| **prod** (200000) | no | yes | yes | yes | yes | yes |\n"));
}

TEST_CASE("matrix shows only the default table for plain classes", "[matrix]") {
  auto doc = json_of(KPREEMPT_TESTDATA "/explain/default/preempt-basic/cluster.yaml");
  REQUIRE(doc["tables"].size() == 1);
  CHECK(doc["tables"][0]["policy"] == "default");
}

TEST_CASE("built-in system classes join the table when pods name them or when asked", "[matrix]") {
  auto plain = json_of(k_classes);
  CHECK(plain["classes"].size() == 6);
  Run r = matrix({"-f", k_classes, "--system-classes", "-o", "json"});
  REQUIRE(r.code == 0);
  auto doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["classes"].size() == 8);
  CHECK(doc["classes"][0]["name"] == "system-node-critical");
  CHECK(doc["classes"][0]["builtIn"] == true);
  CHECK(doc["classes"][1]["name"] == "system-cluster-critical");
  CHECK(cell(doc, "toleration", "system-cluster-critical", "training-protected") == "yes");
}

TEST_CASE("matrix rejects unreadable input and input without classes", "[matrix]") {
  CHECK(matrix({"-f", KPREEMPT_TESTDATA "/matrix/missing.yaml"}).code == 2);
  auto dir = std::filesystem::temp_directory_path() / "kpreempt-matrix-empty";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "nodes.yaml") << "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n";
  Run r = matrix({"-f", (dir / "nodes.yaml").string()});
  CHECK(r.code == 2);
  CHECK(r.err == "kpreempt: error: no PriorityClass in the input\n");
  CHECK(matrix({"-f", k_classes, "-o", "csv"}).code == 2);
  std::filesystem::remove_all(dir);
}
