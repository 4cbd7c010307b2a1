// SPDX-License-Identifier: Apache-2.0
// End to end over material from real clusters: files that need rendering first.
#include "support/run.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

using kpreempt::test::Run;

constexpr const char* k_dir = "testdata/load/real/";

Run explain(const std::string& args) {
  return kpreempt::test::run_binary(
      std::string("explain --no-cache --now 2026-11-24T12:00:00Z --color never -f ") + k_dir + args,
      true);
}

bool has(const Run& r, const std::string& text) {
  return r.out.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("a Helm template and a kustomization get a hint to render first", "[cli][real]") {
  Run helm = explain("helm-deployment.yaml --pod a/p");
  INFO(helm.out);
  CHECK(helm.code == 2);
  CHECK(has(helm,
            "testdata/load/real/helm-deployment.yaml: note: this looks like a Helm "
            "template; render it first: helm template RELEASE CHART > rendered.yaml"));
  Run kustomize = explain("kustomize --pod a/p");
  INFO(kustomize.out);
  CHECK(kustomize.code == 2);
  CHECK(has(kustomize,
            "testdata/load/real/kustomize/kustomization.yaml: note: this is a "
            "kustomization, not objects; render it first: kubectl kustomize "
            "testdata/load/real/kustomize > rendered.yaml"));
}

TEST_CASE("the Kueue documentation's manifests load and are explained as they are", "[cli][real]") {
  // Unmodified upstream examples: a Job and a Pod with only generateName, a Pod naming a
  // PriorityClass, and the single-ClusterQueue setup.
  Run r = kpreempt::test::run_binary(
      "explain --no-cache --now 2026-11-24T12:00:00Z --color never -f testdata/real/kueue "
      "--all-pending",
      true);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out ==
        "POD/WORKLOAD                                 POLICY   OUTCOME        NODE  VICTIMS\n"
        "default/high-prio-1m-sleep                   default  unschedulable  -     0\n"
        "default/high-prio-1m-sleep                   kueue    fits           -     0\n"
        "default/kueue-sleep-<generated>              default  unschedulable  -     0\n"
        "default/kueue-sleep-<generated>              kueue    fits           -     0\n"
        "Workload default/job-sample-job-<generated>  kueue    fits           -     0\n"
        "\n"
        "3 pending: default 2 unschedulable; kueue 3 fits; each on its own against the same dump "
        "(--sequential: in queue order)\n");
}

TEST_CASE("a Kueue doc Job with only generateName is a what-if under its made-up name",
          "[cli][real]") {
  Run r = kpreempt::test::run_binary(
      "explain --no-cache --now 2026-11-24T12:00:00Z --color never "
      "-f testdata/real/kueue/single-clusterqueue-setup.yaml "
      "--pod-file testdata/real/kueue/sample-job.yaml",
      true);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(has(r, "Workload default/job-sample-job-<generated>  priority 0\n"));
  CHECK(has(r, "(from Job/default/sample-job-<generated>)"));
  CHECK(has(r, "cluster-queue  default-flavor  memory    36Gi     36Gi      0         0 -> 600Mi"));
}

TEST_CASE("a Workload made from a Job takes its PriorityClass value, whatever the file order",
          "[cli][real]") {
  // sample-job.yaml names no class: the cluster's globalDefault class (low-prio, 100) applies,
  // in the header as in the decision, though the classes are read after the Job.
  Run r = kpreempt::test::run_binary(
      "explain --no-cache --now 2026-11-24T12:00:00Z --color never "
      "-f testdata/real/kueue/single-clusterqueue-setup.yaml "
      "--pod-file testdata/real/kueue/sample-job.yaml -f testdata/real/kueue/prios.yaml",
      true);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(has(r, "Workload default/job-sample-job-<generated>  priority 100\n"));
  CHECK(has(r, "(priority 100)"));
}

TEST_CASE("kubectl's table output is refused with its header and what to run instead",
          "[cli][real]") {
  Run r = explain("get-pods-wide.txt --pod a/p");
  CHECK(r.code == 2);
  CHECK(r.out ==
        "testdata/load/real/get-pods-wide.txt:1:1: error: this looks like kubectl's table output "
        "(\"NAME                     READY   STATUS    RESTARTS   AGE   ...\"); re-run with -o "
        "yaml or -o json\n");
}

TEST_CASE("items of a raw NodeList without kinds are read as Nodes", "[cli][real]") {
  Run r = kpreempt::test::run_binary("lint -f testdata/load/real/nodelist-raw.json", true);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(has(r, "linted 2 objects from 1 file"));
}

TEST_CASE("a memory quota of 1000000000Gi is explained in whole bytes, not refused",
          "[cli][real]") {
  Run r = kpreempt::test::run_binary(
      std::string("explain --no-cache --now 2026-11-24T12:00:00Z --color never -f ") + k_dir +
          "kueue-big-quota.yaml --pod-file " + k_dir + "sample-job.yaml --policy kueue",
      true);
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(has(r, "Workload default/job-sample-job-<generated>"));
  CHECK(has(r, "cluster-queue  default-flavor  memory    1000000000Gi"));
}

TEST_CASE("a quota upstream cannot hold is refused naming the limit", "[cli][real]") {
  Run r = explain("kueue-count-overflow.yaml --all-pending");
  CHECK(r.code == 2);
  CHECK(r.out ==
        "testdata/load/real/kueue-count-overflow.yaml:12:12: error: Workload default/huge: "
        "spec.podSets[0].count: total requests out of range: 2000000000 pods request more memory "
        "than Kueue can count (int64, at most 9223372036854775807)\n");
}

namespace {

constexpr const char* k_volcano = "testdata/explain/default/not-handled-volcano-pod/cluster.yaml";

Run explain_with(const std::string& args) {
  return kpreempt::test::run_binary(
      "explain --no-cache --now 2026-01-01T00:00:00Z --color never " + args, true);
}

}  // namespace

TEST_CASE("pods of another scheduler and gated pods say why nothing is preempted for them",
          "[cli][real]") {
  Run vc = explain_with(std::string("-f ") + k_volcano +
                        " --policy default --pod research/train-job-trainer-0");
  INFO(vc.out);
  CHECK(vc.code == 0);
  CHECK(has(vc, "not handled: spec.schedulerName is volcano, so kube-scheduler never schedules"));
  Run json = explain_with(std::string("-f ") + k_volcano +
                          " --policy default --pod research/sample-gated -o json");
  INFO(json.out);
  CHECK(has(json, "\"outcome\": \"unschedulable\""));
  CHECK(has(json, "\"gated:kueue.x-k8s.io/admission\""));
  // --all-pending leaves out the policies whose scheduler never takes the pod.
  Run all = explain_with(std::string("-f ") + k_volcano + " --all-pending");
  INFO(all.out);
  CHECK(all.code == 0);
  CHECK_FALSE(has(all, "research/train-job-trainer-0  default"));
  CHECK(has(all, "research/report-0"));
}

TEST_CASE("an unmodelled DRA claim is a warning in text and JSON", "[cli][real]") {
  Run r = explain("dra-pod.yaml --policy default --pod ml/inference-0");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(has(r,
            "warning: Pod ml/inference-0 claims devices through "
            "ResourceClaimTemplate/ml/single-gpu (DRA)"));
}

TEST_CASE("a file given twice is read once; a differing copy is an error", "[cli][real]") {
  Run twice = explain_with(std::string("-f ") + k_volcano + " -f " + k_volcano +
                           " --policy default --pod research/report-0 -v");
  INFO(twice.out);
  CHECK(twice.code == 0);
  CHECK(has(twice, "note: merged 7 objects read again unchanged"));
  Run differ = explain_with("-f testdata/bad/duplicate-pod.yaml --pod a/p");
  INFO(differ.out);
  CHECK(differ.code == 2);
  CHECK(has(differ,
            "testdata/bad/duplicate-pod.yaml:24:1: error: Pod a/p: duplicate object; "
            "first defined at testdata/bad/duplicate-pod.yaml:11:1, with different "
            "content"));
}
