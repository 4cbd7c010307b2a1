// SPDX-License-Identifier: Apache-2.0
// The kueue policy end to end on small dumps: outcomes, victims with Kueue's reasons, the
// per-ClusterQueue verdicts, the quota table and details, the preemptor checks, and cohort
// trees (Cohort objects with parents and quota of their own).
#include "kpreempt/policy/kueue.h"

#include "load/load_support.h"
#include "support/reasons.h"

#include "kpreempt/policy/upstream.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace kpreempt::policy {
namespace {

using load::testing::load_text;

constexpr std::string_view k_now = "2026-01-01T12:00:00Z";

std::string cluster_queue(std::string_view name, std::string_view cohort, std::string_view cpu,
                          std::string_view extra = "") {
  return fmt::format(R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {{name: {0}}}
spec:
  cohort: "{1}"
  namespaceSelector: {{}}
  preemption: {{withinClusterQueue: LowerPriority, reclaimWithinCohort: LowerPriority}}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{{name: cpu, nominalQuota: "{2}"}}]
{3}---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {{name: lq-{0}, namespace: default}}
spec: {{clusterQueue: {0}}}
---
)",
                     name, cohort, cpu, extra);
}

std::string workload(std::string_view name, std::string_view cq, int priority, int cpu,
                     bool admitted, std::string_view reserved = "2026-01-01T10:00:00Z") {
  std::string out = fmt::format(R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {{name: {0}, namespace: default, uid: uid-{0}, creationTimestamp: "2026-01-01T09:00:00Z"}}
spec:
  queueName: lq-{1}
  priority: {2}
  podSets:
  - name: main
    count: 1
    template: {{spec: {{containers: [{{name: c, resources: {{requests: {{cpu: "{3}"}}}}}}]}}}}
)",
                                name, cq, priority, cpu);
  if (admitted) {
    out += fmt::format(R"(status:
  admission:
    clusterQueue: {0}
    podSetAssignments: [{{name: main, count: 1, flavors: {{cpu: default}}, resourceUsage: {{cpu: "{1}"}}}}]
  conditions: [{{type: QuotaReserved, status: "True", lastTransitionTime: "{2}"}}]
)",
                       cq, cpu, reserved);
  }
  return out + "---\n";
}

constexpr std::string_view k_flavor = R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: default}
---
)";

struct Run {
  load::testing::Loaded loaded;
  Decision d;
};

Run decide(const std::string& dump, std::string_view wl = "in", ReleaseLine line = {},
           std::string_view ns = "default") {
  Run r{load_text(dump), {}};
  REQUIRE(r.loaded.messages.empty());
  auto id = model::find_workload(r.loaded.snapshot.kueue(), ns, wl);
  REQUIRE(id.has_value());
  Args args;
  Input in{r.loaded.snapshot, model::k_none, *model::parse_time(k_now), args, *id};
  in.line = line;
  r.d = decide_kueue(in);
  return r;
}

std::vector<std::string> victim_names(const Decision& d) {
  std::vector<std::string> out;
  for (const auto& v : d.victims) {
    out.push_back(v.ref.name);
  }
  return out;
}

const PodVerdict* verdict(const Decision& d, std::string_view name) {
  for (const auto& n : d.nodes) {
    for (const auto& p : n.pods) {
      if (p.pod.name == name) {
        return &p;
      }
    }
  }
  return nullptr;
}

TEST_CASE("the lowest-priority workload of the ClusterQueue is preempted", "[policy][kueue]") {
  std::string dump = std::string(k_flavor) + cluster_queue("cq", "", "4") +
                     workload("low", "cq", -1, 2, true) + workload("mid", "cq", 0, 2, true) +
                     workload("in", "cq", 1, 2, false);
  Run r = decide(dump);
  CHECK(r.d.outcome == Outcome::preempt);
  REQUIRE(victim_names(r.d) == std::vector<std::string>{"low"});
  CHECK(r.d.victims[0].ref.kind == "Workload");
  CHECK(r.d.victims[0].reason == policy::Code::in_cluster_queue);
  CHECK(r.d.victims[0].queue == "cq");
  CHECK(testing::reason_texts(r.d) == std::vector<std::string>{"preempt"});
  REQUIRE(verdict(r.d, "low") != nullptr);
  CHECK(verdict(r.d, "low")->code == policy::Code::same_cq_lower_priority);
  CHECK(verdict(r.d, "mid")->code == policy::Code::not_needed);
  CHECK(verdict(r.d, "mid")->pod.kind == "Workload");
  CHECK_THAT(r.d.summary, Catch::Contains("cpu=default"));
}

TEST_CASE("equal priority is never a LowerPriority candidate", "[policy][kueue]") {
  std::string dump = std::string(k_flavor) + cluster_queue("cq", "", "4") +
                     workload("a", "cq", 1, 4, true) + workload("in", "cq", 1, 2, false);
  Run r = decide(dump);
  CHECK(r.d.outcome == Outcome::unschedulable);
  CHECK(testing::reason_texts(r.d) == std::vector<std::string>{"no-candidates"});
  CHECK(verdict(r.d, "a")->code == policy::Code::equal_priority);
}

TEST_CASE("free quota of the cohort admits without preemption, borrowing", "[policy][kueue]") {
  std::string dump = std::string(k_flavor) + cluster_queue("a", "co", "2") +
                     cluster_queue("b", "co", "4") + workload("in", "a", 0, 4, false);
  Run r = decide(dump);
  CHECK(r.d.outcome == Outcome::fits);
  CHECK(r.d.victims.empty());
  CHECK(testing::reason_texts(r.d) == std::vector<std::string>{"fits-borrowing"});
  CHECK_THAT(r.d.summary, Catch::Contains("borrowing from cohort co"));
}

TEST_CASE("a request above nominal cannot preempt without borrowWithinCohort", "[policy][kueue]") {
  std::string dump = std::string(k_flavor) + cluster_queue("a", "co", "2") +
                     cluster_queue("b", "co", "4") + workload("b1", "b", -5, 4, true) +
                     workload("in", "a", 0, 4, false);
  Run r = decide(dump);
  CHECK(r.d.outcome == Outcome::unschedulable);
  CHECK(testing::reason_texts(r.d) == std::vector<std::string>{"request-above-nominal"});
}

TEST_CASE("nominal quota lent to a borrower is reclaimed, with the quota table",
          "[policy][kueue]") {
  std::string dump = std::string(k_flavor) + cluster_queue("a", "co", "4") +
                     cluster_queue("b", "co", "4") + workload("b1", "b", 0, 4, true) +
                     workload("b2", "b", 0, 3, true, "2026-01-01T11:00:00Z") +
                     workload("in", "a", 1, 2, false);
  Run r = decide(dump);
  CHECK(r.d.outcome == Outcome::preempt);
  REQUIRE(victim_names(r.d) == std::vector<std::string>{"b2"});
  CHECK(r.d.victims[0].reason == policy::Code::in_cohort_reclamation);
  CHECK(r.d.victims[0].queue == "b");
  CHECK(verdict(r.d, "b1")->code == policy::Code::not_needed);
  REQUIRE(r.d.tables.size() == 1);
  CHECK(r.d.tables[0].title == "quota in cohort co");
  CHECK(r.d.tables[0].rows.size() == 2);
  auto details = r.d.details;
  CHECK(details["clusterQueue"] == "a");
  CHECK(details["borrows"] == false);
  CHECK(details["podSets"][0]["flavors"][0]["flavor"] == "default");
  CHECK(details["podSets"][0]["flavors"][0]["mode"] == "Reclaim");
}

TEST_CASE("a missing LocalQueue makes the workload unschedulable", "[policy][kueue]") {
  std::string dump =
      std::string(k_flavor) + cluster_queue("cq", "", "4") + workload("in", "other", 0, 1, false);
  Run r = decide(dump);
  CHECK(r.d.outcome == Outcome::unschedulable);
  CHECK(testing::reason_texts(r.d) == std::vector<std::string>{"no-local-queue"});
}

TEST_CASE("a ClusterQueue naming a missing flavor is inactive", "[policy][kueue]") {
  std::string dump = cluster_queue("cq", "", "4") + workload("in", "cq", 0, 1, false);
  Run r = decide(dump);
  CHECK(testing::reason_texts(r.d) == std::vector<std::string>{"cq-inactive"});
}

TEST_CASE("fair sharing settings produce a warning", "[policy][kueue]") {
  std::string dump = std::string(k_flavor) +
                     cluster_queue("cq", "", "4", "  fairSharing: {weight: \"1\"}\n") +
                     workload("in", "cq", 0, 1, false);
  Run r = decide(dump);
  CHECK(r.d.outcome == Outcome::fits);
  REQUIRE(r.d.warnings.size() == 1);
  CHECK_THAT(r.d.warnings[0], Catch::Contains("fair sharing is off"));
}

TEST_CASE("a queue-labelled pod is explained as a one-pod workload", "[policy][kueue]") {
  std::string dump = std::string(k_flavor) + cluster_queue("cq", "", "4") +
                     workload("low", "cq", -1, 4, true) + R"(apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: default
  labels: {kueue.x-k8s.io/queue-name: lq-cq}
spec:
  priority: 5
  containers: [{name: c, resources: {requests: {cpu: "1"}}}]
)";
  auto loaded = load_text(dump);
  REQUIRE(loaded.messages.empty());
  auto pod = loaded.snapshot.find_pod("default", "p");
  REQUIRE(pod.has_value());
  CHECK(kueue_applies(loaded.snapshot, *pod));
  Args args;
  Decision d =
      decide_kueue(Input{loaded.snapshot, *pod, *model::parse_time(k_now), args, model::k_none});
  CHECK(d.outcome == Outcome::preempt);
  CHECK(victim_names(d) == std::vector<std::string>{"low"});
}

// A ClusterQueue of a cohort tree that reclaims from any priority, with `cpu` of flavor default.
std::string tree_queue(std::string_view name, std::string_view cohort, std::string_view cpu) {
  return fmt::format(R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {{name: {0}}}
spec:
  cohortName: {1}
  namespaceSelector: {{}}
  preemption: {{withinClusterQueue: LowerPriority, reclaimWithinCohort: Any}}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{{name: cpu, nominalQuota: "{2}"}}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {{name: lq-{0}, namespace: default}}
spec: {{clusterQueue: {0}}}
---
)",
                     name, cohort, cpu);
}

std::string tree_cohort(std::string_view name, std::string_view parent, std::string_view cpu) {
  return fmt::format(R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {{name: {0}}}
spec:
  parentName: "{1}"
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{{name: cpu, nominalQuota: "{2}"}}]
---
)",
                     name, parent, cpu);
}

// TestHierarchicalPreemptions "reclaim in complex hierarchy" (Kueue v0.19.2), with q5 listing
// cpu at nominal 0 so that flavor assignment reaches the preemption the test injects:
// r
//   c11
//     c21
//       c31: q5
//       c32: q4
//     c22: q3
//     c23: q2
//   c12: q1
// Every cohort but r holds 4 cpu, every ClusterQueue 0.
TEST_CASE(
    "a cohort tree is searched from the preemptor's parent up, pruning subtrees within "
    "nominal",
    "[policy][kueue][hierarchy]") {
  std::string dump = std::string(k_flavor) + tree_cohort("r", "", "0");
  for (auto [name, parent] : {std::pair{"c11", "r"},
                              {"c12", "r"},
                              {"c21", "c11"},
                              {"c22", "c11"},
                              {"c23", "c11"},
                              {"c31", "c21"},
                              {"c32", "c21"}}) {
    dump += tree_cohort(name, parent, "4");
  }
  for (auto [name, parent] :
       {std::pair{"q1", "c12"}, {"q2", "c23"}, {"q3", "c22"}, {"q4", "c32"}, {"q5", "c31"}}) {
    dump += tree_queue(name, parent, "0");
  }
  dump += workload("b1", "q1", -6, 4, true) + workload("b2", "q1", -5, 4, true) +
          workload("b3", "q2", -9, 4, true) + workload("b4", "q2", -10, 4, true) +
          workload("b5", "q3", -4, 4, true) + workload("b6", "q3", -3, 3, true) +
          workload("b7", "q4", 4, 2, true) + workload("b8", "q4", 2, 3, true) +
          workload("in", "q5", -2, 7, false);
  for (ReleaseLine line : {ReleaseLine{0, 14}, ReleaseLine{0, 19}}) {
    Run r = decide(dump, "in", line);
    INFO(policy::to_string(line));
    CHECK(r.d.outcome == Outcome::preempt);
    // Once b4 is gone c23 is back within nominal, so b3 stays; q1 gives the rest.
    CHECK(victim_names(r.d) == std::vector<std::string>{"b4", "b1"});
    CHECK(verdict(r.d, "b3")->code == policy::Code::cohort_below_nominal);
    for (const auto& v : r.d.victims) {
      CHECK(v.reason == policy::Code::in_cohort_reclamation);
    }
    // The walk stops at b1, before the workloads found without advantage below c21.
    CHECK(verdict(r.d, "b7")->code == policy::Code::not_needed);
    CHECK_THAT(verdict(r.d, "b4")->detail, Catch::Contains("cohort c21 holds the request"));
    CHECK(r.d.details["cohortPath"] == nlohmann::json{"c31", "c21", "c11", "r"});
  }
}

TEST_CASE("a request above nominal reclaims only when a cohort below the root holds it",
          "[policy][kueue][hierarchy]") {
  std::string queues = std::string(k_flavor) + tree_queue("q", "c", "0") +
                       tree_queue("borrower", "r", "0") + workload("b", "borrower", 0, 2, true) +
                       workload("in", "q", 0, 2, false);
  Run reclaims = decide(queues + tree_cohort("r", "", "0") + tree_cohort("c", "r", "2"));
  CHECK(reclaims.d.outcome == Outcome::preempt);
  CHECK(victim_names(reclaims.d) == std::vector<std::string>{"b"});
  // The same 2 cpu held by the root instead: only the whole tree holds the request.
  Run root = decide(queues + tree_cohort("r", "", "2") + tree_cohort("c", "r", "0"));
  CHECK(root.d.outcome == Outcome::unschedulable);
  CHECK(testing::reason_texts(root.d) == std::vector<std::string>{"request-above-nominal"});
}

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(KPREEMPT_TESTDATA) + "/explain/kueue/" + name + "/cluster.yaml");
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST_CASE("both release lines reclaim across a cohort tree alike", "[policy][kueue][hierarchy]") {
  std::string dump = fixture("cohort-tree-reclaims-across-orgs");
  REQUIRE_FALSE(dump.empty());
  for (ReleaseLine line : {ReleaseLine{0, 14}, ReleaseLine{0, 19}}) {
    INFO(policy::to_string(line));
    Run r = decide(dump, "train-2", line, "ml");
    CHECK(r.d.outcome == Outcome::preempt);
    CHECK(victim_names(r.d) == std::vector<std::string>{"report-b"});
    CHECK(verdict(r.d, "serve-1")->code == policy::Code::cq_below_nominal);
    REQUIRE(r.d.tables.size() == 1);
    CHECK(r.d.tables[0].title == "quota in cohort tree root-cohort");
    REQUIRE(r.d.warnings.size() == 1);  // the orgs' fair sharing weights
    CHECK_THAT(r.d.warnings[0], Catch::Contains("Cohort important-org, Cohort regular-org"));
    CHECK(r.d.details["podSets"][0]["flavors"][0]["borrow"] == 1);
  }
}

TEST_CASE("a ClusterQueue below a cohort cycle cannot admit", "[policy][kueue][hierarchy]") {
  std::string dump = std::string(k_flavor) + tree_cohort("x", "y", "1") +
                     tree_cohort("y", "x", "1") + tree_queue("q", "x", "4") +
                     workload("in", "q", 0, 1, false);
  Run r = decide(dump);
  CHECK(r.d.outcome == Outcome::unschedulable);
  CHECK(testing::reason_texts(r.d) == std::vector<std::string>{"cq-inactive"});
  CHECK_THAT(r.d.summary, Catch::Contains("cycle"));
}

}  // namespace
}  // namespace kpreempt::policy
