// SPDX-License-Identifier: Apache-2.0
// The text a person reads: notes that change how an answer reads, alike nodes on one line,
// the rule behind a "why" line, YAML that holds what JSON holds, and wide output to a pager
// only on a terminal.
#include "cli/pager.h"
#include "render/table.h"
#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

namespace {

namespace fs = std::filesystem;
using kpreempt::test::Run;

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

std::string node(const std::string& name) {
  return fmt::format(
      "- apiVersion: v1\n  kind: Node\n  metadata: {{name: {}}}\n"
      "  status: {{allocatable: {{cpu: '4', memory: 16Gi, pods: '110'}}}}\n",
      name);
}

std::string pod(const std::string& name, const std::string& node_name, int priority,
                const std::string& cpu) {
  return fmt::format(
      "- apiVersion: v1\n  kind: Pod\n  metadata: {{name: {}, namespace: big}}\n"
      "  spec:\n    priority: {}\n{}    containers:\n    - name: c\n"
      "      resources: {{requests: {{cpu: '{}'}}}}\n"
      "  status: {{phase: {}, startTime: '2026-11-01T00:00:00Z'}}\n",
      name, priority, node_name.empty() ? "" : "    nodeName: " + node_name + "\n", cpu,
      node_name.empty() ? "Pending" : "Running");
}

// 160 full nodes: n000 holds one victim of priority 100 (the winner), n001-n099 two of 100
// each (they lose on the sum), n100-n149 one of 200 (they lose on the highest priority) and
// n150-n159 one the preemptor cannot evict. Over 100 potential nodes upstream samples them.
const fs::path& big_dump() {
  static const fs::path path = [] {
    fs::path p = fs::temp_directory_path() / fmt::format("kpreempt-big-{}.yaml", ::getpid());
    std::ofstream out(p);
    out << "apiVersion: v1\nkind: List\nitems:\n";
    for (int i = 0; i < 160; ++i) {
      const std::string n = fmt::format("n{:03}", i);
      out << node(n);
      if (i == 0) {
        out << pod("v000", n, 100, "4");
      } else if (i < 100) {
        out << pod("v" + n + "a", n, 100, "2") << pod("v" + n + "b", n, 100, "2");
      } else {
        out << pod("v" + n, n, i < 150 ? 200 : 5000, "4");
      }
    }
    out << pod("urgent", "", 1000, "4");
    return p;
  }();
  return path;
}

// The big dump's pending pod under the default policy (`extra` may ask for all pending).
Run explain_big(const std::string& extra) {
  const std::string subject = extra == "--all-pending" ? "" : "--pod big/urgent ";
  return kpreempt::test::run_binary("explain --no-cache -f '" + big_dump().string() + "' " +
                                        subject + "--policy default --now 2026-11-25T00:00:00Z " +
                                        extra,
                                    false);
}

}  // namespace

TEST_CASE("text groups alike nodes, wide lists each", "[cli][text]") {
  Run text = explain_big("");
  INFO(text.out);
  REQUIRE(text.code == 0);
  CHECK(has(text.out, "  outcome   preempt on n000\n"));
  CHECK(has(text.out, "99 nodes like n001  lost:sum-priorities"));
  CHECK(has(text.out, "50 nodes like n100  lost:highest-victim-priority"));
  CHECK(has(text.out, "10 nodes like n150  no-victims"));
  CHECK_FALSE(has(text.out, " 1 nodes"));
  CHECK(kpreempt::test::lines(text.out).size() < 30);
  Run wide = explain_big("-o wide");
  REQUIRE(wide.code == 0);
  CHECK_FALSE(has(wide.out, "nodes like"));
  CHECK(kpreempt::test::occurrences(wide.out, "lost:highest-victim-priority") == 50);
}

TEST_CASE("a few nodes of one code are named one by one, never \"1 nodes\"", "[cli][text]") {
  Run r = kpreempt::test::run_binary(
      "explain --no-cache -f testdata/demo/cluster.yaml --pod ml/trainer-0 --policy default "
      "--now 2026-11-25T00:00:00Z",
      false);
  REQUIRE(r.code == 0);
  CHECK_FALSE(has(r.out, "1 nodes"));
  CHECK(has(r.out, "    gpu-a100-4 "));
  // Two of a code: each keeps its own detail (the PDB violations differ).
  CHECK(has(r.out, "    cpu-1 "));
  CHECK(has(r.out, "    gpu-a100-2  lost:pdb-violations"));
  CHECK(has(r.out, "  1 PDB violation(s), highest victim priority 1000"));
  CHECK(has(r.out, "    gpu-a100-3  lost:pdb-violations"));
  CHECK(has(r.out, "  2 PDB violation(s), highest victim priority 5000"));
}

TEST_CASE("text says what changes how the answer reads", "[cli][text]") {
  Run text = explain_big("");
  CHECK(has(text.out,
            "  note      the real scheduler dry-runs only a sample of the nodes, from a random "
            "offset, so it may choose another node (kpreempt tries them all)\n"));
  Run wide = explain_big("-o wide");
  CHECK(has(wide.out, "  note      the real scheduler dry-runs only a sample of the nodes"));
  Run dra = kpreempt::test::run_binary(
      "explain --no-cache -f testdata/load/real/dra-pod.yaml --policy default --pod "
      "ml/inference-0 --now 2026-11-24T12:00:00Z",
      false);
  CHECK(has(dra.out, "  note      Pod ml/inference-0 claims devices through"));
}

TEST_CASE("all-pending counts the answers upstream may give otherwise", "[cli][text]") {
  Run sampled = explain_big("--all-pending");
  CHECK(has(sampled.out,
            "\nnote: for 1 answer, the real scheduler dry-runs only a sample of the nodes"));
  Run tied = kpreempt::test::run_binary(
      "explain --no-cache -f testdata/explain/default/dryrun-two-equal-candidates/cluster.yaml "
      "--all-pending --policy default --now 2026-01-01T00:00:00Z",
      false);
  CHECK(
      has(tied.out,
          "\nnote: 1 answer names the first of several tied nodes; upstream picks any of them\n"));
}

TEST_CASE("the sum of priorities says the rule upstream applies", "[cli][text]") {
  Run plain = explain_big("");
  CHECK(has(plain.out,
            "lowest sum of victim priorities, each counted as priority + 2^31: 100 over 1 victim "
            "against 200 over 2 on n001)"));
  CHECK_FALSE(has(plain.out, "adjusted priority sum"));
  CHECK(has(plain.out, "2 victim(s), priority sum 200,"));
  Run negative = kpreempt::test::run_binary(
      "explain --no-cache -f "
      "testdata/explain/default/select-adjusted-sum-negative-priorities/cluster.yaml --pod "
      "default/p --policy default --now 2026-01-01T00:00:00Z",
      false);
  INFO(negative.out);
  CHECK(has(negative.out,
            "each counted as priority + 2^31: 0 over 2 victims against -100 over 3 on node1, "
            "fewer victims ranking first"));
}

TEST_CASE("kueue's why line names the victims' own ClusterQueue", "[cli][text]") {
  Run r = kpreempt::test::run_binary(
      "explain --no-cache -f testdata/explain/kueue/cohort-tree-reclaims-across-orgs/cluster.yaml "
      "--policy kueue --workload ml/train-2 --now 2026-01-01T12:00:00Z --upstream kueue=v0.19 -o "
      "json",
      false);
  REQUIRE(r.code == 0);
  const std::string summary = nlohmann::json::parse(r.out)["results"][0]["summary"];
  CHECK(has(summary, "of ClusterQueue batch, in cohort tree"));
  CHECK_FALSE(has(summary, "of ClusterQueue training"));
}

TEST_CASE("yaml writes quantities as strings where json does", "[cli][yaml]") {
  const std::string args =
      "explain --no-cache -f testdata/demo/cluster.yaml --pod ml/trainer-0 --policy default "
      "--now 2026-11-25T00:00:00Z -o ";
  Run json = kpreempt::test::run_binary(args + "json", false);
  Run yaml = kpreempt::test::run_binary(args + "yaml", false);
  REQUIRE(json.code == 0);
  REQUIRE(yaml.code == 0);
  const YAML::Node doc = YAML::Load(yaml.out);
  const nlohmann::json j = nlohmann::json::parse(json.out);
  REQUIRE(j["preemptor"]["requests"]["cpu"].is_string());
  CHECK(doc["preemptor"]["requests"]["cpu"].Tag() == "!");    // quoted: a string to any reader
  CHECK(has(yaml.out, "\nnow: \"2026-11-25T00:00:00Z\"\n"));  // no YAML 1.1 timestamp
  CHECK(has(yaml.out, "cpu: \"" + j["preemptor"]["requests"]["cpu"].get<std::string>() + "\""));
  // Every scalar of the YAML reads back as the JSON's, strings as strings.
  std::function<void(const YAML::Node&, const nlohmann::json&)> same =
      [&](const YAML::Node& y, const nlohmann::json& v) {
        if (v.is_object()) {
          for (const auto& [key, value] : v.items()) {
            same(y[key], value);
          }
        } else if (v.is_array()) {
          REQUIRE(y.size() == v.size());
          for (std::size_t i = 0; i < v.size(); ++i) {
            same(y[i], v[i]);
          }
        } else if (v.is_string()) {
          INFO(v.get<std::string>());
          CHECK(y.Scalar() == v.get<std::string>());
          CHECK((y.Tag() == "!" || !YAML::Load("[" + y.Scalar() + "]")[0].IsNull()));
        }
      };
  same(doc, j);
}

TEST_CASE("wide output goes through a pager only on a terminal", "[cli][pager]") {
  using kpreempt::cli::pager_command;
  CHECK(pager_command(true, nullptr, nullptr) == "less -FRX");
  CHECK(pager_command(true, nullptr, "more") == "more");
  CHECK(pager_command(true, "most", "more") == "most");
  CHECK(pager_command(true, "", "more").empty());
  CHECK(pager_command(true, nullptr, "cat").empty());
  CHECK(pager_command(true, "cat", "less").empty());
  CHECK(pager_command(false, "most", "more").empty());
  CHECK(pager_command(false, nullptr, nullptr).empty());
  CHECK(kpreempt::cli::output_width(false) == 0);
}

TEST_CASE("piped wide output runs no pager", "[cli][pager]") {
  // A pager that ran would leave its mark instead of the output.
  Run r = kpreempt::test::run_shell(
      std::string("cd '" KPREEMPT_TESTDATA "/..' && KPREEMPT_PAGER='echo PAGED' '") +
      KPREEMPT_BINARY +
      "' explain --no-cache -f testdata/demo/cluster.yaml --pod ml/trainer-0 -o wide "
      "--now 2026-11-25T00:00:00Z | cat");
  REQUIRE(r.code == 0);
  CHECK_FALSE(has(r.out, "PAGED"));
  CHECK(has(r.out, "pods considered"));
}

TEST_CASE("wide output on a terminal goes through the pager and fits its width", "[cli][pager]") {
  if (system("command -v script >/dev/null 2>&1") != 0) {
    WARN("no script(1) for a pseudo-terminal");
    return;
  }
  const std::string command =
      std::string("cd '" KPREEMPT_TESTDATA "/..' && stty cols 120 2>/dev/null; '") +
      KPREEMPT_BINARY +
      "' explain --no-cache -f testdata/demo/cluster.yaml --pod ml/trainer-0 -o wide "
      "--now 2026-11-25T00:00:00Z --color never";
  Run paged = kpreempt::test::run_shell("KPREEMPT_PAGER='sed s/^/PAGED:/' script -qec \"" +
                                        command + "\" /dev/null");
  REQUIRE(paged.code == 0);
  CHECK(has(paged.out, "PAGED:  pods considered"));
  Run plain =
      kpreempt::test::run_shell("KPREEMPT_PAGER= script -qec \"" + command + "\" /dev/null");
  REQUIRE(plain.code == 0);
  CHECK_FALSE(has(plain.out, "PAGED"));
  for (const std::string& line : kpreempt::test::lines(plain.out)) {
    INFO(line);
    CHECK(kpreempt::render::display_width(line) <= 121);  // the terminal's \r counts as one
  }
}
