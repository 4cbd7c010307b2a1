// SPDX-License-Identifier: Apache-2.0
// The kueue policy end to end on small dumps: outcomes, victims with Kueue's reasons, the
// per-ClusterQueue verdicts, the quota table and details, and the preemptor checks.
#include "kpreempt/policy/kueue.h"

#include "load/load_support.h"
#include "support/reasons.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
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

Run decide(const std::string& dump, std::string_view wl = "in") {
  Run r{load_text(dump), {}};
  REQUIRE(r.loaded.messages.empty());
  auto id = model::find_workload(r.loaded.snapshot.kueue(), "default", wl);
  REQUIRE(id.has_value());
  Args args;
  Input in{r.loaded.snapshot, model::k_none, *model::parse_time(k_now), args, *id};
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
  CHECK_THAT(r.d.warnings[0], Catch::Contains("not modelled"));
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

}  // namespace
}  // namespace kpreempt::policy
