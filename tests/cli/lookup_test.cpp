// SPDX-License-Identifier: Apache-2.0
// A name given to the wrong flag, without its namespace, or for the Job rather than its
// Workload: the error says what the name is and which command takes it, and exits 2.
#include "support/run.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

using kpreempt::test::Run;

const std::string k_demo = "explain --no-cache -f testdata/demo/cluster.yaml ";
const std::string k_kueue = "explain --no-cache -f testdata/explain/victim-under-way/kueue.yaml ";

Run error_of(const std::string& args) {
  return kpreempt::test::run_binary(args + " --now 2026-11-25T00:00:00Z", true);
}

}  // namespace

TEST_CASE("a pod given without its namespace is found in the one that holds it", "[cli][lookup]") {
  Run r = error_of(k_demo + "--pod trainer-0");
  CHECK(r.code == 2);
  CHECK(r.out ==
        "kpreempt: error: no Pod trainer-0 in namespace default (given without namespace); did "
        "you mean ml/trainer-0?\n");
  Run victim = error_of(k_demo + "--victim notebook-bob");
  CHECK(victim.code == 2);
  CHECK(victim.out ==
        "kpreempt: error: no Pod notebook-bob in namespace default (given without namespace); "
        "did you mean research/notebook-bob?\n");
}

TEST_CASE("a Workload's name given to --pod points at --workload or --victim", "[cli][lookup]") {
  Run pending = error_of(k_kueue + "--pod team-b/job-big-9e3d0");
  CHECK(pending.code == 2);
  CHECK(pending.out ==
        "kpreempt: error: no Pod team-b/job-big-9e3d0 in the input; team-b/job-big-9e3d0 is a "
        "Kueue Workload: use --workload team-b/job-big-9e3d0\n");
  Run admitted = error_of(k_kueue + "--pod team-a/job-urgent-7c4e1");
  CHECK(admitted.code == 2);
  CHECK(admitted.out ==
        "kpreempt: error: no Pod team-a/job-urgent-7c4e1 in the input; team-a/job-urgent-7c4e1 "
        "is an admitted Kueue Workload: use --victim workload/team-a/job-urgent-7c4e1\n");
}

TEST_CASE("a pod's name given to --workload points at --pod or --victim", "[cli][lookup]") {
  Run pending = error_of(k_demo + "--workload ml/trainer-0");
  CHECK(pending.code == 2);
  CHECK(pending.out ==
        "kpreempt: error: no Workload ml/trainer-0 in the input; ml/trainer-0 is a Pod: use "
        "--pod ml/trainer-0\n");
  Run running = error_of(k_demo + "--workload research/notebook-bob");
  CHECK(running.code == 2);
  CHECK(running.out ==
        "kpreempt: error: no Workload research/notebook-bob in the input; research/notebook-bob "
        "is a Pod running on node gpu-a100-1: use --victim research/notebook-bob\n");
}

TEST_CASE("a running pod given as a preemptor points at --victim", "[cli][lookup]") {
  Run r = error_of(k_demo + "--pod research/notebook-bob");
  CHECK(r.code == 2);
  CHECK(r.out ==
        "kpreempt: error: Pod research/notebook-bob is bound to node \"gpu-a100-1\"; a preemptor "
        "is a pending pod (no spec.nodeName); to see what could preempt it: --victim "
        "research/notebook-bob\n");
  Run pending = error_of(k_demo + "--victim ml/trainer-0");
  CHECK(pending.code == 2);
  CHECK(pending.out ==
        "kpreempt: error: Pod ml/trainer-0 is pending; use --pod ml/trainer-0 to explain it as a "
        "preemptor\n");
}

TEST_CASE("a Job named where its Workload is meant points at the Workload", "[cli][lookup]") {
  Run r = error_of(k_kueue + "--workload team-b/big");
  CHECK(r.code == 2);
  CHECK(r.out ==
        "kpreempt: error: no Workload team-b/big in the input; did you mean Workload "
        "team-b/job-big-9e3d0 (made for Job team-b/big)?\n");
  Run admitted = error_of(k_kueue + "--workload team-a/urgent");
  CHECK(admitted.code == 2);
  CHECK(admitted.out ==
        "kpreempt: error: no Workload team-a/urgent in the input; Job team-a/urgent owns "
        "Workload team-a/job-urgent-7c4e1: use --victim workload/team-a/job-urgent-7c4e1\n");
  Run pod = error_of(k_kueue + "--pod team-b/big");
  CHECK(pod.code == 2);
  CHECK(pod.out ==
        "kpreempt: error: no Pod team-b/big in the input; Job team-b/big owns Workload "
        "team-b/job-big-9e3d0: use --workload team-b/job-big-9e3d0\n");
}

TEST_CASE("an admitted Workload given as a preemptor points at --victim", "[cli][lookup]") {
  Run r = error_of(k_kueue + "--workload team-a/job-urgent-7c4e1");
  CHECK(r.code == 2);
  CHECK(r.out ==
        "kpreempt: error: Workload team-a/job-urgent-7c4e1 is already admitted; a preemptor is a "
        "pending workload; to see what could preempt it: --victim "
        "workload/team-a/job-urgent-7c4e1\n");
}

TEST_CASE("advise and check give the same hints", "[cli][lookup]") {
  Run advise = kpreempt::test::run_binary(
      "advise --no-cache -f testdata/demo/cluster.yaml --pod trainer-0", true);
  CHECK(advise.code == 2);
  CHECK(advise.out ==
        "kpreempt: error: --pod: no Pod trainer-0 in namespace default (given without "
        "namespace); did you mean ml/trainer-0?\n");
  Run running = kpreempt::test::run_binary(
      "advise --no-cache -f testdata/demo/cluster.yaml --pod research/notebook-bob", true);
  CHECK(running.code == 2);
  CHECK(running.out.find("(running on node gpu-a100-1); to keep it running: --victim "
                         "research/notebook-bob") != std::string::npos);
}
