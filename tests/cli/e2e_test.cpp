// SPDX-License-Identifier: Apache-2.0
// End-to-end: the real binary, its exit codes, stdout and stderr.
#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace {

struct Run {
  int code = -1;
  std::string out;  // stdout and stderr, in that order
};

// Runs kpreempt with `args` (a shell fragment); stderr is captured after stdout.
Run kpreempt(const std::string& args, bool with_stderr = true) {
  std::string cmd = std::string("cd '" KPREEMPT_TESTDATA "/..' && '") + KPREEMPT_BINARY + "' " +
                    args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  Run r;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) {
    r.out.append(buf.data(), n);
  }
  int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

constexpr const char* k_demo = "explain -f testdata/demo/cluster.yaml --now 2026-11-22T10:00:00Z ";

}  // namespace

TEST_CASE("explain on the demo cluster nominates a node and lists victims", "[cli][e2e]") {
  Run r = kpreempt(std::string(k_demo) + "--pod ml/trainer-0 --policy default");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("outcome   preempt on gpu-a100-1") != std::string::npos);
  CHECK(r.out.find("research/notebook-alice") != std::string::npos);
}

TEST_CASE("json output is byte-identical across runs", "[cli][e2e]") {
  Run a = kpreempt(std::string(k_demo) + "--pod ml/trainer-0 -o json", false);
  Run b = kpreempt(std::string(k_demo) + "--pod ml/trainer-0 -o json", false);
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(a.out.find("\"apiVersion\": \"kpreempt/v1alpha1\"") != std::string::npos);
}

TEST_CASE("a what-if pod file is explained against the dump", "[cli][e2e]") {
  Run r = kpreempt(std::string(k_demo) + "--pod-file testdata/cli/what-if-pod.yaml -o yaml");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("name: trainer-next") != std::string::npos);
  CHECK(r.out.find("outcome: preempt") != std::string::npos);
}

TEST_CASE("usage errors exit 2", "[cli][e2e]") {
  SECTION("no subcommand") {
    CHECK(kpreempt("").code == 2);
  }
  SECTION("unknown policy") {
    Run r = kpreempt(std::string(k_demo) + "--pod ml/trainer-0 --policy nope");
    CHECK(r.code == 2);
    CHECK(r.out.find("--policy") != std::string::npos);
  }
  SECTION("missing pod, with a suggestion") {
    Run r = kpreempt(std::string(k_demo) + "--pod ml/trainer-O");
    CHECK(r.code == 2);
    CHECK(r.out ==
          "kpreempt: error: no Pod ml/trainer-O in the input; did you mean ml/trainer-0?\n");
  }
  SECTION("a bound pod is not a preemptor") {
    Run r = kpreempt(std::string(k_demo) + "--pod research/notebook-bob");
    CHECK(r.code == 2);
    CHECK(r.out.find("is bound to node \"gpu-a100-1\"") != std::string::npos);
  }
  SECTION("bad --now") {
    CHECK(kpreempt(std::string(k_demo) + "--pod ml/trainer-0 --now yesterday").code == 2);
  }
  SECTION("bad --set") {
    CHECK(kpreempt(std::string(k_demo) + "--pod ml/trainer-0 --set novalue").code == 2);
  }
  SECTION("missing file") {
    Run r = kpreempt("explain -f testdata/no-such-file.yaml --pod a/b");
    CHECK(r.code == 2);
  }
}

TEST_CASE("bad input names file, line, column, object and field", "[cli][e2e]") {
  Run r = kpreempt("explain -f testdata/cli/bad-quantity.yaml --pod team-a/x");
  CHECK(r.code == 2);
  CHECK(r.out ==
        "testdata/cli/bad-quantity.yaml:21:14: error: Pod team-a/x: "
        "spec.containers[0].resources.requests.cpu: \"1.5.0\" is not a quantity\n");
}

TEST_CASE("help and version exit 0", "[cli][e2e]") {
  CHECK(kpreempt("--help").code == 0);
  CHECK(kpreempt("explain --help").code == 0);
  Run v = kpreempt("--version");
  CHECK(v.code == 0);
  CHECK(v.out.rfind("kpreempt ", 0) == 0);
}
