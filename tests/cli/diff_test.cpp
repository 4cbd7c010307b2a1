// SPDX-License-Identifier: Apache-2.0
// End-to-end: `kpreempt diff` over the testdata/diff cases, each a cluster and two versions of
// its configuration.
#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using kpreempt::test::occurrences;
using kpreempt::test::Run;

Run diff(const std::string& dir, const std::string& now, const std::string& extra = "",
         const std::string& head = "head") {
  const std::string d = "testdata/diff/" + dir;
  return kpreempt::test::run_binary(
      fmt::format("diff -f {0}/cluster.yaml --base {0}/base --head {1} --now {2} {3}", d,
                  head.starts_with("testdata/") ? head : d + "/" + head, now, extra),
      false);
}

constexpr const char* k_pc_now = "2026-11-27T00:00:00Z";
constexpr const char* k_job = "--pod-file testdata/diff/priority-class/job.yaml";

}  // namespace

TEST_CASE("diff: a PriorityClass value change lets a what-if Job preempt", "[diff]") {
  Run r = diff("priority-class", k_pc_now, k_job);
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(occurrences(r.out,
                    "1 decision changes among 1 preemptor (outcome or node 1, victims "
                    "added 1, removed 0); 1 configuration object changed, 2 preemption "
                    "edges changed\n") == 1);
  // The matrix cells that flipped: training now above batch.
  CHECK(occurrences(r.out, "  default     training -> batch: no -> yes\n") == 1);
  CHECK(occurrences(r.out, "  default     batch -> training: yes -> no\n") == 1);
  CHECK(occurrences(r.out, "ml/train-0  default  unschedulable -> preempt on gpu-b") == 1);
  CHECK(occurrences(r.out, "  victims added    Pod/ml/batch-0\n") == 1);
  CHECK(occurrences(r.out,
                    "changed          PriorityClass/training "
                    "(testdata/diff/priority-class/head/classes.yaml:14)") == 1);
  // Pods of the dump keep the priority they were created with: said once.
  CHECK(occurrences(r.out,
                    "note: a PriorityClass's value is given to a pod when the pod is "
                    "created") == 1);
}

TEST_CASE("diff: a nominal-quota cut makes one Workload preempt and another unschedulable",
          "[diff]") {
  Run r = diff("kueue-quota", k_pc_now);
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(occurrences(r.out, "Workload team-a/job-train-small-4c5d6  kueue  fits -> preempt") == 1);
  CHECK(occurrences(r.out,
                    "Workload team-a/job-train-large-7e8f9  kueue  preempt -> "
                    "unschedulable") == 1);
  CHECK(occurrences(r.out, "  victims added    Workload/team-a/job-batch-low-1a2b3") == 1);
  CHECK(occurrences(r.out, "  victims removed  Workload/team-a/job-batch-low-1a2b3") == 1);
  CHECK(occurrences(r.out,
                    "changed          ClusterQueue/team-a "
                    "(testdata/diff/kueue-quota/head/cluster-queues.yaml:11)") == 2);
  CHECK(occurrences(r.out, "note:") == 0);
}

TEST_CASE("diff: a ClusterQueue that joins a cohort may now reclaim from its neighbour", "[diff]") {
  Run r = diff("kueue-quota", k_pc_now, "", "head-cohort");
  INFO(r.out);
  CHECK(occurrences(r.out,
                    "  kueue       ClusterQueue/team-a -> ClusterQueue/team-b: - -> "
                    "reclaim: Any\n") == 1);
  CHECK(occurrences(r.out, "  added    ClusterQueue/team-b") == 1);
}

TEST_CASE("diff: a YuniKorn guarantee raised on the victims' queue saves them", "[diff]") {
  Run r = diff("yunikorn-guarantee", "2026-01-01T00:10:00Z");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(occurrences(r.out, "default/alloc4  yunikorn  preempt on node-1 -> unschedulable") == 1);
  CHECK(occurrences(r.out, "victims removed  Pod/default/alloc2, Pod/default/alloc3") == 1);
  CHECK(occurrences(r.out, "ConfigMap/yunikorn/yunikorn-configs") == 2);
}

TEST_CASE("diff: a shorter toleration-seconds ends a victim's protection", "[diff]") {
  Run r = diff("toleration-seconds", "2026-03-10T12:00:00Z");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(occurrences(r.out, "prod/serve-0  toleration  unschedulable -> preempt on gpu-1") == 1);
  CHECK(occurrences(r.out, "victims added    Pod/ml/training-0") == 1);
  CHECK(occurrences(r.out,
                    "  toleration  high -> low-non-preempted-10min: after 600s -> after "
                    "120s\n") == 1);
  // Only an annotation changed, not the value: no note about values.
  CHECK(occurrences(r.out, "note:") == 0);
}

TEST_CASE("diff: a change with no effect on preemption exits 0 and lists the change", "[diff]") {
  Run r = diff("priority-class", k_pc_now, k_job, "testdata/diff/no-effect");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(occurrences(r.out,
                    "no decision changes for 1 preemptor; 1 configuration object "
                    "changed\n") == 1);
  CHECK(occurrences(r.out,
                    "  changed  PriorityClass/training  "
                    "testdata/diff/no-effect/classes.yaml:") == 1);
}

TEST_CASE("diff: --fail-on chooses which changes fail, new lint findings among them", "[diff]") {
  // Victims only change: --fail-on lint passes, --fail-on victims fails.
  CHECK(diff("priority-class", k_pc_now, std::string(k_job) + " --fail-on lint").code == 0);
  CHECK(diff("priority-class", k_pc_now, std::string(k_job) + " --fail-on victims").code == 1);
  CHECK(diff("priority-class", k_pc_now, std::string(k_job) + " --fail-on none").code == 0);
  CHECK(diff("priority-class", k_pc_now, std::string(k_job) + " --fail-on edges").code == 1);
  CHECK(diff("kueue-quota", k_pc_now, "--fail-on edges").code == 0);
  // Victims added fail new-victims; a change that only saves victims does not.
  CHECK(diff("priority-class", k_pc_now, std::string(k_job) + " --fail-on new-victims").code == 1);
  CHECK(diff("yunikorn-guarantee", "2026-01-01T00:10:00Z", "--fail-on new-victims").code == 0);
  Run r = diff("priority-class", k_pc_now, std::string(k_job) + " --fail-on lint", "head-lint");
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(occurrences(r.out, "new lint findings\n") == 1);
  CHECK(occurrences(r.out, "[PC005]") == 1);
}

TEST_CASE("diff: json, markdown and github outputs", "[diff]") {
  Run j = diff("kueue-quota", k_pc_now, "-o json");
  INFO(j.out);
  CHECK(occurrences(j.out, "\"kind\": \"Diff\"") == 1);
  CHECK(occurrences(j.out, "\"outcomeChanges\": 2") == 1);
  CHECK(occurrences(j.out, "\"outcome\": \"unschedulable\"") == 1);
  CHECK(occurrences(j.out, "\"file\": \"testdata/diff/kueue-quota/head/cluster-queues.yaml\"") ==
        3);
  Run m = diff("kueue-quota", k_pc_now, "-o markdown");
  CHECK(occurrences(m.out, "### kpreempt diff") == 1);
  CHECK(occurrences(m.out,
                    "| `Workload team-a/job-train-small-4c5d6` | kueue | fits | preempt |") == 1);
  Run s = diff("kueue-quota", k_pc_now, "-o sarif");
  CHECK(occurrences(s.out, "\"version\": \"2.1.0\"") == 1);
  CHECK(occurrences(s.out, "\"ruleId\": \"preemption-decision\"") == 2);
  CHECK(occurrences(s.out, "\"uri\": \"testdata/diff/kueue-quota/head/cluster-queues.yaml\"") == 2);
  Run g = diff("kueue-quota", k_pc_now, "-o github");
  CHECK(occurrences(g.out,
                    "::warning file=testdata/diff/kueue-quota/head/cluster-queues.yaml,"
                    "line=11,title=preemption changes%3A ClusterQueue/team-a::") == 2);
}

TEST_CASE("diff: --base-ref reads the base from git", "[diff]") {
  namespace fs = std::filesystem;
  // .ci/deps installs git.
  REQUIRE(kpreempt::test::run_shell("git --version >/dev/null 2>&1").code == 0);
  const fs::path repo = fs::temp_directory_path() / fmt::format("kpreempt-diff-{}", ::getpid());
  fs::remove_all(repo);
  fs::create_directories(repo / "config");
  const fs::path src = fs::path(KPREEMPT_TESTDATA) / "diff" / "priority-class";
  fs::copy_file(src / "base" / "classes.yaml", repo / "config" / "classes.yaml");
  const std::string git = fmt::format(
      "cd '{}' && git init -q && git -c user.name=t -c user.email=t@t add config && "
      "git -c user.name=t -c user.email=t@t commit -qm base",
      repo.string());
  REQUIRE(kpreempt::test::run_shell(git).code == 0);
  fs::copy_file(src / "head" / "classes.yaml", repo / "config" / "classes.yaml",
                fs::copy_options::overwrite_existing);
  Run r = kpreempt::test::run_shell(fmt::format(
      "cd '{}' && '{}' diff -f '{}/cluster.yaml' --base-ref HEAD config --pod-file '{}/job.yaml' "
      "--now {} 2>&1",
      repo.string(), KPREEMPT_BINARY, src.string(), src.string(), k_pc_now));
  INFO(r.out);
  CHECK(occurrences(r.out, "ml/train-0  default  unschedulable -> preempt on gpu-b") == 1);
  CHECK(occurrences(r.out, "changed  PriorityClass/training  config/classes.yaml:14") == 1);
  // An unknown revision is an input error naming it.
  Run bad = kpreempt::test::run_shell(fmt::format(
      "cd '{}' && '{}' diff -f '{}/cluster.yaml' --base-ref no-such-ref config 2>&1; echo rc=$?",
      repo.string(), KPREEMPT_BINARY, src.string()));
  CHECK(occurrences(bad.out, "is no-such-ref a revision of the repository in this folder?") == 1);
  CHECK(occurrences(bad.out, "rc=2") == 1);
  fs::remove_all(repo);
}

TEST_CASE("diff: usage errors exit 2", "[diff]") {
  const std::string d = "diff -f testdata/diff/kueue-quota/cluster.yaml ";
  CHECK(kpreempt::test::run_binary(d + "--head testdata/diff/kueue-quota/head", false).code == 2);
  CHECK(kpreempt::test::run_binary(d + "--base testdata/diff/kueue-quota/base", false).code == 2);
  CHECK(kpreempt::test::run_binary(d + "--base x --head y -o pdf", false).code == 2);
  CHECK(kpreempt::test::run_binary("diff -f - --base testdata/diff/kueue-quota/base --head "
                                   "testdata/diff/kueue-quota/head < /dev/null",
                                   false)
            .code == 2);
  CHECK(kpreempt::test::run_binary(
            d + "--base testdata/diff/kueue-quota/base --head testdata/diff/kueue-quota/head "
                "--fail-on everything",
            false)
            .code == 2);
}
