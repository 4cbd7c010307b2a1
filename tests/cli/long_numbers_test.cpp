// SPDX-License-Identifier: Apache-2.0
// End-to-end: numbers and durations far past int64 are input errors or upstream's defaults,
// never a crash.
#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

using kpreempt::test::Run;
using kpreempt::test::run_binary;

const std::string k_digits(400, '9');
// What a located diagnostic quotes of a long value: its first 60 characters.
const std::string k_excerpt = std::string(60, '9') + "...";

}  // namespace

TEST_CASE("a 400-digit priority is an input error naming file, line and field", "[cli][e2e]") {
  Run r = run_binary("explain -f testdata/cli/long-number-priority.yaml --pod team-a/x", true);
  CHECK(r.code == 2);
  CHECK(r.out ==
        "testdata/cli/long-number-priority.yaml:17:13: error: Pod team-a/x: "
        "spec.priority: expected an integer, got \"" +
            k_excerpt + "\"\n");
}

TEST_CASE("a 400-digit queues.yaml limit is an input error naming file, line and field",
          "[cli][e2e]") {
  Run r = run_binary(
      "explain -f testdata/cli/yunikorn-cluster.yaml -f testdata/cli/long-number-queues.yaml "
      "--policy yunikorn --pod default/a-1 --now 2026-01-01T00:10:00Z",
      true);
  CHECK(r.code == 2);
  CHECK(kpreempt::test::without_one_namespace_note(r.out) ==
        "testdata/cli/long-number-queues.yaml:8:30: error: queues.yaml: "
        "partitions[0].queues[0].queues[0].maxapplications: \"" +
            k_excerpt + "\" is not an unsigned integer\n");
}

TEST_CASE("a 400-digit preemption.delay falls back to 30s as in YuniKorn", "[cli][e2e]") {
  // yunikorn-core logs the ParseDuration overflow and keeps the default delay: the ask,
  // waiting for 60s, is past it.
  Run r = run_binary(
      "explain -f testdata/cli/long-number-delay.yaml --policy yunikorn --pod default/alloc3 "
      "--now 2026-01-01T00:10:00Z -o json",
      false);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("\"outcome\": \"preempt\"") != std::string::npos);
}

TEST_CASE("lint reports a 400-digit preemption.delay instead of crashing", "[cli][e2e]") {
  Run r = run_binary("lint -f testdata/cli/long-number-delay.yaml --only YQ002", true);
  CHECK(r.code == 1);
  CHECK(r.out ==
        "testdata/cli/long-number-delay.yaml:28:23: error: "
        "queues.yaml:default/root.parent.child2: preemption.delay \"" +
            k_digits +
            "s\" is not a positive duration such as 30s or 5m: the default of 30s "
            "applies [YQ002]\n"
            "kpreempt: linted 2 objects from 1 file: 1 finding (1 error, 0 warnings, 0 info); "
            "3 objects of other kinds ignored\n");
}

TEST_CASE("a 400-digit --kube-version or --set value is a usage error", "[cli][e2e]") {
  Run v =
      run_binary("lint -f testdata/cli/yunikorn-queues.yaml --kube-version 1." + k_digits, true);
  CHECK(v.code == 2);
  CHECK(v.out ==
        "kpreempt: error: --kube-version: \"1." + k_digits + "\" is not a version like 1.29\n");
  Run s = run_binary(
      "explain -f testdata/demo/cluster.yaml --pod ml/trainer-0 --policy default "
      "--set DefaultPreemption.minCandidateNodesAbsolute=" +
          k_digits,
      true);
  CHECK(s.code == 2);
  CHECK(s.out == "kpreempt: error: --set DefaultPreemption.minCandidateNodesAbsolute: \"" +
                     k_digits + "\" is not an integer\n");
}
