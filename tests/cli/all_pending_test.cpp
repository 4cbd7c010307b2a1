// SPDX-License-Identifier: Apache-2.0
// `kpreempt explain --all-pending`: which preemptors it takes, the summary table, totals,
// the ExplanationList document and usage errors.
#include "support/cases.h"
#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using kpreempt::test::lines;
using kpreempt::test::Run;

const std::string k_small = KPREEMPT_TESTDATA "/cli/batch/small.yaml";
const std::string k_now = "2026-11-22T10:00:00Z";

Run all_pending(const std::string& file, std::vector<std::string> extra) {
  std::vector<std::string> args = {"explain", "-f", file, "--all-pending", "--now", k_now};
  args.insert(args.end(), extra.begin(), extra.end());
  Run r = kpreempt::test::run_cli(args);
  r.err = kpreempt::test::without_one_namespace_note(r.err);
  return r;
}

}  // namespace

TEST_CASE("all-pending prints one row per pending pod and a totals line", "[cli][batch]") {
  Run r = all_pending(k_small, {"--policy", "default"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "POD/WORKLOAD   POLICY   OUTCOME  NODE  VICTIMS\n"
        "team-b/urgent  default  preempt  n1    1\n"
        "team-b/mid-0   default  preempt  n1    1\n"
        "team-b/small   default  fits     -     0\n"
        "\n"
        "3 pending: 2 preempt, 1 fits; each on its own against the same dump (--sequential: in "
        "queue order)\n");
  CHECK(r.err.empty());
}

TEST_CASE("all-pending counts outcomes per policy when a preemptor has several", "[cli][batch]") {
  Run r = all_pending(k_small, {});
  REQUIRE(r.code == 0);
  auto out = lines(r.out);
  REQUIRE(out.size() == 9);
  CHECK(out[2] == "team-b/urgent  toleration  preempt        n1    1");
  CHECK(out[4] == "team-b/mid-0   toleration  unschedulable  -     0");
  CHECK(out.back() ==
        "3 pending: default 2 preempt, 1 fits; toleration 1 preempt, 1 fits, 1 unschedulable; "
        "each on its own against the same dump (--sequential: in queue order)");
}

TEST_CASE("all-pending wide output names the victims", "[cli][batch]") {
  Run r = all_pending(k_small, {"--policy", "default", "-o", "wide"});
  REQUIRE(r.code == 0);
  auto out = lines(r.out);
  REQUIRE(out.size() == 6);
  CHECK(out[0] ==
        "POD/WORKLOAD   PRIORITY  POLICY   OUTCOME  NODE  VICTIMS  REASON   VICTIM NAMES");
  CHECK(out[1] ==
        "team-b/urgent  2000      default  preempt  n1    1        preempt  team-a/batch-0");
}

TEST_CASE("all-pending json is an ExplanationList with a summary", "[cli][batch]") {
  Run r = all_pending(k_small, {"-o", "json"});
  REQUIRE(r.code == 0);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["apiVersion"] == "kpreempt/v1alpha1");
  CHECK(doc["kind"] == "ExplanationList");
  REQUIRE(doc["items"].size() == 3);
  CHECK(doc["items"][0]["kind"] == "Explanation");
  CHECK(doc["items"][0]["preemptor"]["name"] == "urgent");
  CHECK(doc["items"][1]["preemptor"]["name"] == "mid-0");
  CHECK(doc["items"][1]["results"][1]["policy"] == "toleration");
  CHECK(doc["items"][1]["results"][1]["outcome"] == "unschedulable");
  CHECK(doc["summary"]["pending"] == 3);
  CHECK(doc["summary"]["skipped"] == 0);
  CHECK(doc["summary"]["results"] == 6);
  CHECK(doc["summary"]["outcomes"]["preempt"] == 3);
  CHECK(doc["summary"]["byPolicy"][1]["policy"] == "toleration");
  CHECK(doc["summary"]["byPolicy"][1]["outcomes"]["unschedulable"] == 1);
}

TEST_CASE("all-pending yaml is the same document", "[cli][batch]") {
  Run r = all_pending(k_small, {"-o", "yaml", "--policy", "default"});
  REQUIRE(r.code == 0);
  CHECK(r.out.starts_with("apiVersion: kpreempt/v1alpha1\nkind: ExplanationList\nitems:\n"));
  CHECK(r.out.find("summary:\n  pending: 3\n") != std::string::npos);
}

TEST_CASE("all-pending output does not depend on the thread schedule", "[cli][batch]") {
  Run a = all_pending(KPREEMPT_TESTDATA "/cli/batch/pending-50.yaml", {"-o", "json"});
  Run b = all_pending(KPREEMPT_TESTDATA "/cli/batch/pending-50.yaml", {"-o", "json"});
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
}

TEST_CASE("all-pending explains Kueue Workloads not yet admitted after the pods", "[cli][batch]") {
  Run r = all_pending(KPREEMPT_TESTDATA "/cli/batch/kueue-small.yaml", {"-o", "json"});
  REQUIRE(r.code == 0);
  auto doc = nlohmann::json::parse(r.out);
  std::vector<std::string> kinds;
  for (const auto& item : doc["items"]) {
    kinds.push_back(item["preemptor"]["kind"]);
  }
  CHECK(std::count(kinds.begin(), kinds.end(), "Pod") == 2);
  CHECK(std::count(kinds.begin(), kinds.end(), "Workload") == 2);
  CHECK(kinds == std::vector<std::string>{"Pod", "Pod", "Workload", "Workload"});
}

TEST_CASE("a named policy that fits no preemptor skips it instead of failing", "[cli][batch]") {
  Run r = all_pending(KPREEMPT_TESTDATA "/cli/batch/kueue-small.yaml", {"--policy", "default"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("Workload ") == std::string::npos);
  CHECK(lines(r.out).back() ==
        "2 pending: 2 fits (2 more skipped: no chosen policy applies); each on its own against the "
        "same dump (--sequential: in queue order)");
}

TEST_CASE("a dump without pending pods says so and succeeds", "[cli][batch]") {
  Run r = all_pending(KPREEMPT_TESTDATA "/cli/batch/none-pending.yaml", {});
  CHECK(r.code == 0);
  CHECK(r.out == "no pending pods or workloads\n");
}

TEST_CASE("a dump without pending pods gives an empty list in json", "[cli][batch]") {
  Run r = all_pending(KPREEMPT_TESTDATA "/cli/batch/none-pending.yaml", {"-o", "json"});
  REQUIRE(r.code == 0);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["kind"] == "ExplanationList");
  CHECK(doc["items"].empty());
  CHECK(doc["summary"]["pending"] == 0);
}

TEST_CASE("a policy error in one preemptor is a usage error", "[cli][batch]") {
  Run r = all_pending(k_small, {"--policy", "default", "--set", "minCandidateNodesPercentage=200"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "kpreempt: error: DefaultPreemption.minCandidateNodesPercentage: 200 is not in the range "
        "[0, 100]\n");
  CHECK(r.out.empty());
}

TEST_CASE("all-pending excludes the single-preemptor flags", "[cli][batch]") {
  const std::string k_message =
      "kpreempt: error: --all-pending cannot be combined with --pod, --pod-file, --workload or "
      "--victim\n";
  SECTION("--pod") {
    Run r = all_pending(k_small, {"--pod", "team-b/urgent"});
    CHECK(r.code == 2);
    CHECK(r.err == k_message);
  }
  SECTION("--victim") {
    Run r = all_pending(k_small, {"--victim", "team-a/batch-0"});
    CHECK(r.code == 2);
    CHECK(r.err == k_message);
  }
  SECTION("--workload") {
    Run r = all_pending(k_small, {"--workload", "a/b"});
    CHECK(r.code == 2);
    CHECK(r.err == k_message);
  }
}

TEST_CASE("explain without a preemptor names every mode", "[cli][batch]") {
  Run r = kpreempt::test::run_cli({"explain", "-f", k_small});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "kpreempt: error: explain needs exactly one of --pod, --pod-file, --workload, "
        "--all-pending or --victim\n");
}

TEST_CASE("all-pending summarises all 50 pending pods of a generated cluster",
          "[cli][batch][e2e]") {
  Run r = kpreempt::test::run_binary(
      "explain -f testdata/cli/batch/pending-50.yaml --all-pending --policy default "
      "--now 2026-11-22T10:00:00Z",
      false);
  REQUIRE(r.code == 0);
  auto out = lines(r.out);
  REQUIRE(out.size() == 53);  // header, 50 rows, blank line, totals
  CHECK(out.back().starts_with("50 pending: "));
  std::size_t rows = std::count_if(out.begin(), out.end(), [](const std::string& l) {
    return l.find(" default ") != std::string::npos;
  });
  CHECK(rows == 50);
}

namespace {

// The results of an explanation without their per-node verdicts, which a batch leaves out.
nlohmann::json without_nodes(nlohmann::json results) {
  for (auto& r : results) {
    r.erase("nodes");
  }
  return results;
}

}  // namespace

TEST_CASE("all-pending decides each preemptor exactly as explain does alone", "[cli][batch]") {
  std::size_t compared = 0;
  const auto dirs = kpreempt::test::explain_case_dirs();
  for (const auto& dir : dirs) {
    std::vector<std::string> args =
        kpreempt::test::explain_case_args(dir, (dir / "cluster.yaml").string());
    auto subject = std::find_if(args.begin(), args.end(), [](const std::string& a) {
      return a == "--pod" || a == "--workload";
    });
    REQUIRE(subject != args.end());
    std::vector<std::string> batch_args(args.begin(), subject);
    batch_args.push_back("--all-pending");
    batch_args.insert(batch_args.end(), subject + 2, args.end());
    Run batch = kpreempt::test::run_cli(batch_args);
    INFO(dir.string() << "\n" << batch.err);
    REQUIRE(batch.code == 0);
    const nlohmann::json doc = nlohmann::json::parse(batch.out);
    for (const auto& item : doc["items"]) {
      const auto& pre = item["preemptor"];
      *subject = pre["kind"] == "Workload" ? "--workload" : "--pod";
      *(subject + 1) = pre["namespace"].get<std::string>() + "/" + pre["name"].get<std::string>();
      Run one = kpreempt::test::run_cli(args);
      INFO(*(subject + 1));
      REQUIRE(one.code == 0);
      CHECK(without_nodes(item["results"]) ==
            without_nodes(nlohmann::json::parse(one.out)["results"]));
      ++compared;
    }
  }
  CHECK(compared >= dirs.size());  // every case's own preemptor, and the other pending ones
}
