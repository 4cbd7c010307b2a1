// SPDX-License-Identifier: Apache-2.0
// `kpreempt lint` through the real binary: exit codes, silence on a clean run, formats.
#include "support/run.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

using kpreempt::test::Run;

// Runs kpreempt from the source tree with `args`; `with_stderr` appends stderr to the output.
Run run(const std::string& args, bool with_stderr = false) {
  return kpreempt::test::run_binary(args, with_stderr);
}

}  // namespace

TEST_CASE("lint exits 0 and prints nothing on a clean input", "[lint][e2e]") {
  Run r = run("lint priorityclasses -f testdata/lint/PC001/good.yaml");
  CHECK(r.code == 0);
  CHECK(r.out.empty());
}

TEST_CASE("lint exits 1 with file:line:col findings", "[lint][e2e]") {
  Run r = run("lint -f testdata/lint/PC001/bad.yaml");
  CHECK(r.code == 1);
  CHECK(r.out.find("testdata/lint/PC001/bad.yaml:6:1: error: PriorityClass/platform-critical: ") ==
        0);
  CHECK(r.out.find("[PC001]") != std::string::npos);
}

TEST_CASE("lint --fail-on decides which severities fail the run", "[lint][e2e]") {
  CHECK(run("lint -f testdata/lint/PC016/bad.yaml").code == 0);
  CHECK(run("lint -f testdata/lint/PC016/bad.yaml --fail-on info").code == 1);
  CHECK(run("lint -f testdata/lint/PC001/bad.yaml --fail-on never").code == 0);
  CHECK(run("lint -f testdata/lint/PC013/bad.yaml --fail-on warning").code == 1);
  // The Kubernetes documentation's non-preempting twin class is info: no gate below info.
  CHECK(run("lint -f testdata/lint/PC014/bad-k8s-docs.yaml --fail-on warning").code == 0);
}

TEST_CASE("lint exits 2 on bad input and bad options", "[lint][e2e]") {
  Run parse = run("lint -f testdata/lint/broken.yaml.txt", true);
  CHECK(parse.code == 2);
  CHECK(parse.out.find("broken.yaml.txt:4:") != std::string::npos);
  CHECK(run("lint -f testdata/lint/missing.yaml").code == 2);
  CHECK(run("lint -f testdata/lint/PC001/bad.yaml --only PC999").code == 2);
  CHECK(run("lint -f testdata/lint/PC001/bad.yaml -o xml").code == 2);
  CHECK(run("lint queues").code == 2);
}

TEST_CASE("the subcommand picks the rule group", "[lint][e2e]") {
  CHECK(run("lint queues -f testdata/lint/PC001/bad.yaml").code == 0);
  // A ClusterQueue alone holds nothing the PriorityClass rules read: linting nothing fails.
  CHECK(run("lint priorityclasses -f testdata/lint/KQ001/bad.yaml").code == 2);
  CHECK(run("lint queues -f testdata/lint/KQ001/bad.yaml").code == 1);
  Run both = run("lint -f testdata/lint/KQ001/bad.yaml -f testdata/lint/PC001/bad.yaml");
  CHECK(both.out.find("[KQ001]") != std::string::npos);
  CHECK(both.out.find("[PC001]") != std::string::npos);
}

TEST_CASE("stdin, baselines and the structured formats work end to end", "[lint][e2e]") {
  Run in = run("lint -f - < testdata/lint/PC001/bad.yaml");
  CHECK(in.code == 1);
  CHECK(in.out.find("<stdin>:6:1:") == 0);
  Run base =
      run("lint -f testdata/lint/PC008/bad.yaml --baseline "
          "testdata/lint/PC008/baseline.yaml --only PC008 -o json");
  CHECK(base.code == 1);
  CHECK(base.out.find("\"rule\": \"PC008\"") != std::string::npos);
  Run sarif = run("lint -f testdata/lint/PC001/good.yaml -o sarif");
  CHECK(sarif.code == 0);
  CHECK(sarif.out.find("\"results\": []") != std::string::npos);
  Run gh = run("lint -f testdata/lint/PC001/bad.yaml -o github");
  CHECK(gh.out.find("::error file=testdata/lint/PC001/bad.yaml,line=6,col=1,title=PC001::") == 0);
}
