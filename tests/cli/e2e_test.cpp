// SPDX-License-Identifier: Apache-2.0
// End-to-end: the real binary, its exit codes, stdout and stderr.
#include "support/run.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using kpreempt::test::Run;

Run run(const std::string& args, bool with_stderr = true) {
  return kpreempt::test::run_binary(args, with_stderr);
}

constexpr const char* k_demo = "explain -f testdata/demo/cluster.yaml --now 2026-11-22T10:00:00Z ";

}  // namespace

TEST_CASE("explain on the demo cluster nominates a node and lists victims", "[cli][e2e]") {
  Run r = run(std::string(k_demo) + "--pod ml/trainer-0 --policy default");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("outcome   preempt on gpu-a100-1") != std::string::npos);
  CHECK(r.out.find("research/notebook-alice") != std::string::npos);
}

TEST_CASE("json output is byte-identical across runs", "[cli][e2e]") {
  Run a = run(std::string(k_demo) + "--pod ml/trainer-0 -o json", false);
  Run b = run(std::string(k_demo) + "--pod ml/trainer-0 -o json", false);
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(a.out.find("\"apiVersion\": \"kpreempt/v1alpha1\"") != std::string::npos);
}

TEST_CASE("a what-if pod file is explained against the dump", "[cli][e2e]") {
  Run r = run(std::string(k_demo) + "--pod-file testdata/cli/what-if-pod.yaml -o yaml");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("name: trainer-next") != std::string::npos);
  CHECK(r.out.find("outcome: preempt") != std::string::npos);
}

TEST_CASE("usage errors exit 2", "[cli][e2e]") {
  SECTION("no subcommand") {
    CHECK(run("").code == 2);
  }
  SECTION("unknown policy") {
    Run r = run(std::string(k_demo) + "--pod ml/trainer-0 --policy nope");
    CHECK(r.code == 2);
    CHECK(r.out.find("--policy") != std::string::npos);
  }
  SECTION("missing pod, with a suggestion") {
    Run r = run(std::string(k_demo) + "--pod ml/trainer-O");
    CHECK(r.code == 2);
    CHECK(r.out ==
          "kpreempt: error: no Pod ml/trainer-O in the input; did you mean ml/trainer-0?\n");
  }
  SECTION("a bound pod is not a preemptor") {
    Run r = run(std::string(k_demo) + "--pod research/notebook-bob");
    CHECK(r.code == 2);
    CHECK(r.out.find("is bound to node \"gpu-a100-1\"") != std::string::npos);
  }
  SECTION("bad --now") {
    CHECK(run(std::string(k_demo) + "--pod ml/trainer-0 --now yesterday").code == 2);
  }
  SECTION("bad --set") {
    CHECK(run(std::string(k_demo) + "--pod ml/trainer-0 --set novalue").code == 2);
  }
  SECTION("missing file") {
    Run r = run("explain -f testdata/no-such-file.yaml --pod a/b");
    CHECK(r.code == 2);
  }
}

TEST_CASE("bad input names file, line, column, object and field", "[cli][e2e]") {
  Run r = run("explain -f testdata/cli/bad-quantity.yaml --pod team-a/x");
  CHECK(r.code == 2);
  CHECK(r.out ==
        "testdata/cli/bad-quantity.yaml:21:14: error: Pod team-a/x: "
        "spec.containers[0].resources.requests.cpu: \"1.5.0\" is not a quantity\n");
}

TEST_CASE("help and version exit 0", "[cli][e2e]") {
  CHECK(run("--help").code == 0);
  CHECK(run("explain --help").code == 0);
  Run v = run("--version");
  CHECK(v.code == 0);
  CHECK(v.out.rfind("kpreempt ", 0) == 0);
}

TEST_CASE("a bare queues.yaml given with -f configures yunikorn", "[cli][e2e]") {
  Run r =
      run("explain -f testdata/cli/yunikorn-cluster.yaml -f testdata/cli/yunikorn-queues.yaml "
          "--policy yunikorn --pod default/a-1 --now 2026-01-01T00:10:00Z -o json");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"outcome\": \"preempt\"") != std::string::npos);
  CHECK(r.out.find("\"name\": \"b-2\"") != std::string::npos);
}

TEST_CASE("policy warnings go to stderr once", "[cli][e2e]") {
  Run r =
      run("explain -f testdata/cli/legacy-toleration.yaml --pod prod/serve-0 "
          "--now 2026-03-10T12:00:00Z");
  REQUIRE(r.code == 0);
  const std::string warning =
      "kpreempt: warning: PriorityClass \"low-non-preempted\" uses the legacy annotation prefix";
  auto first = r.out.find(warning);
  CHECK(first != std::string::npos);
  CHECK(r.out.find(warning, first + 1) == std::string::npos);
}

// Only what the binary writes to stderr.
static Run stderr_of(const std::string& args) {
  return kpreempt::test::run_shell(std::string("cd '" KPREEMPT_TESTDATA "/..' && '") +
                                   KPREEMPT_BINARY + "' " + args + " 2>&1 >/dev/null");
}

TEST_CASE("explain -v notes the objects no policy reads, by kind", "[cli][e2e]") {
  const std::string args =
      "explain -f testdata/cli/skipped-kinds.yaml --pod shop/web-0 --policy default "
      "--now 2026-11-22T10:00:00Z";
  Run quiet = stderr_of(args);
  CHECK(quiet.code == 0);
  CHECK(quiet.out.empty());
  Run verbose = stderr_of(args + " -v");
  CHECK(verbose.code == 0);
  CHECK(verbose.out ==
        "kpreempt: note: skipped 3 objects of 2 kinds not read by any policy (ConfigMap 1, "
        "Service 2)\n");
}

TEST_CASE("explain --verbose counts skipped objects with thousands separators", "[cli][e2e]") {
  const auto path = std::filesystem::temp_directory_path() / "kpreempt-skipped-1204.yaml";
  {
    std::ofstream out(path);
    out << "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n  namespace: shop\n"
           "spec:\n  containers:\n  - name: app\nstatus:\n  phase: Pending\n";
    for (int i = 0; i < 1204; ++i) {
      out << "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c" << i
          << "\n  namespace: shop\n";
    }
  }
  Run r = stderr_of("explain -f " + path.string() +
                    " --pod shop/web-0 --policy default --verbose --now 2026-11-22T10:00:00Z");
  std::filesystem::remove(path);
  CHECK(r.out ==
        "kpreempt: note: skipped 1,204 objects of 1 kind not read by any policy (ConfigMap "
        "1204)\n");
}
