// SPDX-License-Identifier: Apache-2.0
// `kpreempt lint -R` over testdata/lint/tree, a repository layout with good manifests, a Helm
// chart, a kustomization, files that are not manifests and real mistakes: every format carries
// the same findings, the unreadable file, the counts and the exit status.
#include "support/run.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

namespace {

using kpreempt::test::Run;

const std::string k_tree = "lint -R -f testdata/lint/tree";

Run run(const std::string& args) {
  return kpreempt::test::run_binary(args, false);
}

// Standard error alone.
std::string err_of(const std::string& args) {
  return kpreempt::test::run_shell(std::string("cd '" KPREEMPT_TESTDATA "/..' && '") +
                                   KPREEMPT_BINARY + "' " + args + " 2>&1 >/dev/null")
      .out;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::string k_summary =
    "kpreempt: linted 10 objects from 6 files: 5 findings (3 errors, 0 warnings, 2 info); "
    "1 file not readable; 4 files skipped; 1 object of other kinds ignored\n";

}  // namespace

TEST_CASE("lint of a repository tree reports every finding and the unreadable file",
          "[lint][e2e][tree]") {
  Run r = run(k_tree);
  CHECK(r.code == 2);
  CHECK(has(r.out,
            "testdata/lint/tree/apps/reports.yaml:12:11: error: CronJob/shop/nightly-report: "
            "pod template names PriorityClass \"bacth\", which no input defines (and no "
            "--baseline was given): admission refuses its pods; did you mean batch? [PC010]\n"));
  CHECK(has(r.out,
            "testdata/lint/tree/platform/priorityclasses.yaml:20:1: error: "
            "PriorityClass/platform-critical: value 1500000000 is above 1000000000"));
  CHECK(has(r.out,
            "testdata/lint/tree/platform/priorityclasses.yaml:8:1: error: "
            "PriorityClass/batch: class batch is declared again with value 100"));
  CHECK(has(r.out, "testdata/lint/tree/apps/batch-class.yaml:2:1 declares value 500"));
  CHECK_FALSE(has(r.out, "charts/shop/templates/deployment.yaml"));
  CHECK_FALSE(has(r.out, ".github"));
  // The chart's plain class may be used by its unread templates: not reported unused.
  CHECK_FALSE(has(r.out, "shop-checkout"));
}

TEST_CASE("lint prints the summary and one diagnostic per unreadable file on stderr",
          "[lint][e2e][tree]") {
  std::string err = err_of(k_tree);
  CHECK(err == "testdata/lint/tree/docs/mkdocs.yml:1:1: error: not linted: object has no kind\n" +
                   k_summary);
}

TEST_CASE("lint --exclude skips a file and leaves the findings to decide the exit status",
          "[lint][e2e][tree]") {
  Run r = run(k_tree + " --exclude docs");
  CHECK(r.code == 1);
  CHECK(err_of(k_tree + " --exclude docs") ==
        "kpreempt: linted 10 objects from 6 files: 5 findings (3 errors, 0 warnings, 2 info); "
        "5 files skipped; 1 object of other kinds ignored\n");
  CHECK(run(k_tree + " --exclude 'docs/*.yml' --fail-on never").code == 0);
}

TEST_CASE("every format carries the findings, the unreadable file and the counts",
          "[lint][e2e][tree]") {
  SECTION("json") {
    Run r = run(k_tree + " -o json");
    CHECK(r.code == 2);
    auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["summary"]["objects"] == 10);
    CHECK(doc["summary"]["files"] == 6);
    CHECK(doc["summary"]["findings"] == 5);
    CHECK(doc["summary"]["unreadable_files"] == 1);
    CHECK(doc["summary"]["skipped_files"] == 4);
    CHECK(doc["findings"].size() == 5);
    CHECK(doc["unreadable"][0]["file"] == "testdata/lint/tree/docs/mkdocs.yml");
    CHECK(doc["skipped"].size() == 4);
  }
  SECTION("sarif") {
    Run r = run(k_tree + " -o sarif");
    CHECK(r.code == 2);
    auto run0 = nlohmann::json::parse(r.out)["runs"][0];
    CHECK(run0["results"].size() == 5);
    const auto& inv = run0["invocations"][0];
    CHECK(inv["executionSuccessful"] == false);
    REQUIRE(inv["toolExecutionNotifications"].size() == 1);
    const auto& note = inv["toolExecutionNotifications"][0];
    CHECK(note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
          "testdata/lint/tree/docs/mkdocs.yml");
    CHECK(note["locations"][0]["physicalLocation"]["region"]["startLine"] == 1);
    CHECK(run0["properties"]["objects"] == 10);
  }
  SECTION("junit") {
    Run r = run(k_tree + " -o junit");
    CHECK(r.code == 2);
    CHECK(has(r.out, "tests=\"48\" failures=\"3\" errors=\"1\""));
    CHECK(has(r.out, "<error type=\"unreadable-input\""));
    CHECK(has(r.out, "<property name=\"objects\" value=\"10\"/>"));
    CHECK(has(r.out, "<failure type=\"PC010\""));
    CHECK_FALSE(has(r.out, "<failure type=\"PC018\""));
  }
  SECTION("github") {
    Run r = run(k_tree + " -o github");
    CHECK(r.code == 2);
    CHECK(has(r.out,
              "::error file=testdata/lint/tree/apps/reports.yaml,line=12,col=11,"
              "title=PC010::"));
    CHECK(has(r.out, "::notice file=testdata/lint/tree/platform/priorityclasses.yaml"));
    CHECK(has(r.out,
              "::warning file=testdata/lint/tree/docs/mkdocs.yml,line=1,col=1,"
              "title=kpreempt%3A input not linted::not linted: object has no kind\n"));
    CHECK(has(r.out, "::notice title=kpreempt lint::linted 10 objects from 6 files"));
  }
  SECTION("text") {
    Run r = run(k_tree);
    std::size_t lines = 0;
    for (char c : r.out) {
      lines += c == '\n' ? 1U : 0U;
    }
    CHECK(lines == 5);
  }
}

TEST_CASE("linting nothing is an error unless --allow-empty", "[lint][e2e]") {
  SECTION("a folder of sub-folders without -R") {
    CHECK(run("lint -f testdata/lint/tree").code == 2);
    CHECK(err_of("lint -f testdata/lint/tree") ==
          "kpreempt: note: testdata/lint/tree: 6 sub-folders not read without -R\n"
          "kpreempt: error: linted 0 objects from 0 files: 0 findings (nothing to lint; "
          "--allow-empty accepts that)\n");
    CHECK(run("lint -f testdata/lint/tree --allow-empty").code == 0);
  }
  SECTION("an empty file") {
    CHECK(run("lint -f /dev/null").code == 2);
  }
  SECTION("manifests no selected rule reads") {
    CHECK(run("lint queues -f testdata/lint/tree/apps/web.yaml").code == 2);
    CHECK(err_of("lint queues -f testdata/lint/tree/apps/web.yaml") ==
          "kpreempt: error: linted 0 objects from 1 file: 0 findings; 2 objects of other kinds "
          "ignored (nothing to lint; --allow-empty accepts that)\n");
  }
}

TEST_CASE("a file read only in part is not linted at all", "[lint][e2e]") {
  // Its objects before the error would make classes look unused that later pods use.
  Run r = run("lint -f testdata/lint/partial/anchored.yaml -o json");
  CHECK(r.code == 2);
  CHECK_FALSE(has(r.out, "PC018"));
  CHECK(has(err_of("lint -f testdata/lint/partial/anchored.yaml"),
            "kpreempt: error: linted 0 objects from 0 files: 0 findings; 1 file not readable"));
}

TEST_CASE("junit fails only what --fail-on fails", "[lint][e2e]") {
  Run info = run("lint -f testdata/lint/PC016/bad.yaml -o junit --fail-on never");
  CHECK(info.code == 0);
  CHECK_FALSE(has(info.out, "<failure"));
  CHECK(has(info.out, "<system-out>"));
  Run gated = run("lint -f testdata/lint/PC016/bad.yaml -o junit --fail-on info");
  CHECK(gated.code == 1);
  CHECK(has(gated.out, "<failure type=\"PC016\""));
}

TEST_CASE("lint skips a FIFO named like a manifest and a folder link loop, and says so",
          "[lint][e2e][tree]") {
  std::string dir = kpreempt::test::run_shell("mktemp -d").out;
  dir.erase(dir.find_last_not_of('\n') + 1);
  std::string setup = "cd '" + dir +
                      "' && cp '" KPREEMPT_TESTDATA
                      "/lint/tree/platform/priorityclasses.yaml' pc.yaml && mkfifo queue.yaml && "
                      "mkdir sub && ln -s .. sub/up";
  REQUIRE(kpreempt::test::run_shell(setup).code == 0);
  // Reading the FIFO would block: the run ends only because it is never opened.
  Run r = run("lint -R -f '" + dir + "' -o json --fail-on never");
  kpreempt::test::run_shell("rm -rf '" + dir + "'");
  CHECK(r.code == 0);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["summary"]["files"] == 1);
  REQUIRE(doc["skipped"].size() == 2);
  CHECK(doc["skipped"][0]["file"] == dir + "/queue.yaml");
  CHECK(doc["skipped"][0]["reason"] == "not a regular file");
  CHECK(doc["skipped"][1]["file"] == dir + "/sub/up");
  CHECK(doc["skipped"][1]["reason"] == "a folder already read (a link loop?)");
}

TEST_CASE("a file name with control characters cannot forge output in any lint format",
          "[lint][e2e][tree]") {
  std::string dir = kpreempt::test::run_shell("mktemp -d").out;
  dir.erase(dir.find_last_not_of('\n') + 1);
  // A PriorityClass with a finding (PC005: two globalDefault classes), in a file whose name
  // holds an escape sequence, a newline and a GitHub workflow command.
  std::string setup =
      "cd '" + dir +
      "' && name=$(printf 'pc\\033[2J\\n::error file=x::forged.yaml') && "
      "printf 'apiVersion: scheduling.k8s.io/v1\\nkind: PriorityClass\\nmetadata:\\n"
      "  name: a\\nvalue: 1\\nglobalDefault: true\\n---\\n"
      "apiVersion: scheduling.k8s.io/v1\\nkind: PriorityClass\\nmetadata:\\n"
      "  name: b\\nvalue: 2\\nglobalDefault: true\\n' > \"$name\"";
  REQUIRE(kpreempt::test::run_shell(setup).code == 0);
  const std::string base = "lint -f '" + dir + "' --fail-on never -o ";
  Run text = run(base + "text");
  Run github = run(base + "github");
  Run junit = run(base + "junit");
  Run json = run(base + "json");
  kpreempt::test::run_shell("rm -rf '" + dir + "'");
  for (const Run* r : {&text, &github, &junit, &json}) {
    CHECK(r->code == 0);
    CHECK_FALSE(has(r->out, "\033"));
    CHECK_FALSE(has(r->out, "\n::error file=x"));
  }
  CHECK(has(text.out, "/pc\\x1b[2J\\x0a::error file=x::forged.yaml:13:1: error: PriorityClass/b"));
  CHECK(has(github.out,
            "::error file=" + dir + "/pc\\x1b[2J\\x0a%3A%3Aerror file=x%3A%3Aforged.yaml,"));
  CHECK(has(junit.out, "pc\\x1b[2J\\x0a::error file=x::forged.yaml:13:1: error:"));
  CHECK(nlohmann::json::parse(json.out)["findings"][0]["file"] ==
        dir + "/pc\033[2J\n::error file=x::forged.yaml");
}
