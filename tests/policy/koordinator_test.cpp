// SPDX-License-Identifier: Apache-2.0
// Koordinator: ElasticQuota decoding, runtime quota arithmetic, quota admission, pod-level and
// job-level preemption on small clusters.
#include "kpreempt/policy/koordinator.h"

#include "support/reasons.h"

#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"
#include "kpreempt/model/snapshot.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace kpreempt::policy {
namespace {

std::string node(const std::string& name, int cpu) {
  return fmt::format(
      "apiVersion: v1\nkind: Node\nmetadata: {{name: {}}}\n"
      "status: {{allocatable: {{cpu: \"{}\", memory: 64Gi, pods: \"110\"}}}}\n---\n",
      name, cpu);
}

std::string pod(const std::string& ns, const std::string& name, const std::string& on, int prio,
                const std::string& cpu, const std::string& labels = "{}",
                const std::string& extra = "") {
  return fmt::format(
      "apiVersion: v1\nkind: Pod\nmetadata: {{namespace: {}, name: {}, labels: {}}}\n"
      "spec: {{nodeName: \"{}\", priority: {}{}, containers: [{{name: c, resources: "
      "{{requests: {{cpu: \"{}\", memory: 1Gi}}}}}}]}}\n"
      "status: {{phase: {}, startTime: '2025-12-31T10:00:00Z'}}\n---\n",
      ns, name, labels, on, prio, extra, cpu, on.empty() ? "Pending" : "Running");
}

std::string quota(const std::string& name, const std::string& min, const std::string& max,
                  const std::string& labels = "{}", const std::string& annotations = "{}") {
  return fmt::format(
      "apiVersion: scheduling.sigs.k8s.io/v1alpha1\nkind: ElasticQuota\n"
      "metadata: {{name: {}, namespace: {}, labels: {}, annotations: {}}}\n"
      "spec: {{min: {}, max: {}}}\n---\n",
      name, name, labels, annotations, min, max);
}

std::string pod_group(const std::string& ns, const std::string& name, int min) {
  return fmt::format(
      "apiVersion: scheduling.sigs.k8s.io/v1alpha1\nkind: PodGroup\n"
      "metadata: {{namespace: {}, name: {}}}\nspec: {{minMember: {}}}\n---\n",
      ns, name, min);
}

model::Snapshot load(const std::string& yaml) {
  model::SnapshotBuilder b;
  std::vector<Diagnostic> diags;
  load::load_buffer(yaml, "test.yaml", b, diags);
  for (const Diagnostic& d : diags) {
    INFO(format(d));
    CHECK(d.severity != Severity::error);
  }
  return std::move(b).build(diags);
}

Decision run(const model::Snapshot& snap, const std::string& ns, const std::string& name,
             model::StringMap args = {}) {
  const Args a(std::move(args));
  const std::optional<model::PodId> p = snap.find_pod(ns, name);
  REQUIRE(p.has_value());
  return decide_koordinator(Input{snap, *p, model::Instant{1767225600, 0}, a});
}

std::vector<std::string> victims(const Decision& d) {
  std::vector<std::string> out;
  for (const Victim& v : d.victims) {
    out.push_back(v.ref.name);
  }
  return out;
}

bool has_reason(const Decision& d, const std::string& code) {
  return testing::has_reason(d, code);
}

}  // namespace

TEST_CASE("the ElasticQuota decoder reads the koordinator labels and annotations",
          "[policy][koordinator]") {
  const model::Snapshot snap =
      load(quota("team", "{cpu: 1}", "{cpu: 4}",
                 "{quota.scheduling.koordinator.sh/parent: org, "
                 "quota.scheduling.koordinator.sh/allow-lent-resource: 'false'}",
                 "{quota.scheduling.koordinator.sh/shared-weight: '{\"cpu\": \"3\"}', "
                 "quota.scheduling.koordinator.sh/namespaces: '[\"a\", \"b\"]'}"));
  REQUIRE(snap.koordinator().quotas.size() == 1);
  const model::KoordElasticQuota& q = snap.koordinator().quotas[0];
  CHECK(q.parent == "org");
  CHECK_FALSE(q.allow_lent_resource);
  CHECK(q.namespaces == std::vector<std::string>{"a", "b"});
  REQUIRE(q.shared_weight.size() == 1);
  CHECK(q.shared_weight[0].second == model::Quantity::from_units(3));
}

TEST_CASE("a pending pod of another quota shrinks the runtime and admission rejects",
          "[policy][koordinator]") {
  const model::Snapshot snap =
      load(node("n1", 10) + quota("qa", "{cpu: 2}", "{cpu: 10}") +
           quota("qb", "{cpu: 8}", "{cpu: 10}") + pod("qb", "b-run", "n1", 5, "4") +
           pod("qb", "b-pend", "", 5, "4") + pod("qa", "a-pend", "", 10, "3"));
  const Decision d = run(snap, "qa", "a-pend");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(has_reason(d, "quota-runtime-exceeded"));
  CHECK(d.details.dump().find("\"runtime\":{\"cpu\":\"2\"}") != std::string::npos);
}

TEST_CASE("idle resources are split by weight with the largest remainder going first",
          "[policy][koordinator]") {
  // 10 cpu idle beyond three zero mins, equal weights: 3.33 each; the left-over milli-core goes
  // to the first name.
  const model::Snapshot snap = load(
      node("n1", 10) + quota("q1", "{cpu: 0}", "{cpu: 20}") + quota("q2", "{cpu: 0}", "{cpu: 20}") +
      quota("q3", "{cpu: 0}", "{cpu: 20}") + pod("q1", "p1", "", 1, "20") +
      pod("q2", "p2", "", 1, "20") + pod("q3", "p3", "", 1, "20"));
  const Decision d = run(snap, "q1", "p1");
  CHECK(d.details.dump().find("\"runtime\":{\"cpu\":\"3334m\"}") != std::string::npos);
  const Decision d2 = run(snap, "q2", "p2");
  CHECK(d2.details.dump().find("\"runtime\":{\"cpu\":\"3333m\"}") != std::string::npos);
}

TEST_CASE("a resource missing from max is not limited", "[policy][koordinator]") {
  // The quota limits cpu only; the pod's 1Gi of memory is masked out and never checked.
  const model::Snapshot snap =
      load(node("n1", 8) + quota("q", "{cpu: 1}", "{cpu: 2}") + pod("q", "p", "", 1, "1"));
  const Decision d = run(snap, "q", "p");
  CHECK(d.outcome == Outcome::fits);
}

TEST_CASE("a non-preemptible pod must fit under the min", "[policy][koordinator]") {
  const std::string np = "{quota.scheduling.koordinator.sh/preemptible: 'false'}";
  const model::Snapshot snap =
      load(node("n1", 16) + quota("q", "{cpu: 3}", "{cpu: 10}") +
           pod("q", "held", "n1", 1, "2", np) + pod("q", "p", "", 1, "2", np));
  const Decision d = run(snap, "q", "p");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(has_reason(d, "non-preemptible-min-exceeded"));
}

TEST_CASE("pod-level preemption evicts only pods of the preemptor's quota",
          "[policy][koordinator]") {
  const model::Snapshot snap =
      load(node("n1", 4) + quota("qa", "{cpu: 2}", "{cpu: 4}") +
           quota("qb", "{cpu: 2}", "{cpu: 4}") + pod("qb", "other", "n1", 1, "2") +
           pod("qa", "mine", "n1", 1, "2") + pod("qa", "p", "", 10, "2"));
  const Decision d = run(snap, "qa", "p");
  CHECK(d.outcome == Outcome::preempt);
  CHECK(victims(d) == std::vector<std::string>{"mine"});
  CHECK(d.victims[0].queue == "qa");
}

TEST_CASE("a gang with fewer members than minMember is rejected without preemption",
          "[policy][koordinator]") {
  const std::string gang = "{pod-group.scheduling.sigs.k8s.io: g}";
  const model::Snapshot snap =
      load(node("n1", 4) + pod_group("ns", "g", 3) + pod("ns", "low", "n1", 1, "4") +
           pod("ns", "m0", "", 10, "2", gang) + pod("ns", "m1", "", 10, "2", gang));
  const Decision d = run(snap, "ns", "m0", {{"Coscheduling.enablePreemption", "true"}});
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(testing::reason_texts(d).front() == "gang-not-ready");
  CHECK(d.victims.empty());
}

TEST_CASE("a gang member that fits no node even emptied evicts nothing", "[policy][koordinator]") {
  // An 8-cpu node holding a higher-priority pod of 4 cpu and a 5-cpu trigger (every member is
  // filtered with the trigger's PreFilter state, so its size is what counts): evicting `low`
  // leaves 4 cpu, the job fails, and the trigger pod alone finds only default-quota pods, which
  // are protected.
  const std::string gang = "{pod-group.scheduling.sigs.k8s.io: g}";
  const model::Snapshot snap =
      load(node("n1", 8) + pod_group("ns", "g", 2) + pod("ns", "low", "n1", 1, "4") +
           pod("ns", "high", "n1", 100, "4") + pod("ns", "m0", "", 10, "5", gang) +
           pod("ns", "m1", "", 10, "3", gang));
  const Decision d = run(snap, "ns", "m0", {{"Coscheduling.enablePreemption", "true"}});
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(has_reason(d, "job:member-unplaceable"));
  CHECK(d.victims.empty());
}

TEST_CASE("a gang too big for its one node still evicts there, as upstream does",
          "[policy][koordinator]") {
  // Two 3-cpu members each fit the emptied 4-cpu node on their own; placement does not stack
  // them, so both go to n1 and try-assign-back evicts `low` though only one member fits.
  const std::string gang = "{pod-group.scheduling.sigs.k8s.io: g}";
  const model::Snapshot snap =
      load(node("n1", 4) + pod_group("ns", "g", 2) + pod("ns", "low", "n1", 1, "4") +
           pod("ns", "m0", "", 10, "3", gang) + pod("ns", "m1", "", 10, "3", gang));
  const Decision d = run(snap, "ns", "m0", {{"Coscheduling.enablePreemption", "true"}});
  CHECK(d.outcome == Outcome::preempt);
  CHECK(victims(d) == std::vector<std::string>{"low"});
  CHECK(std::any_of(d.warnings.begin(), d.warnings.end(), [](const std::string& w) {
    return w.starts_with(
        "upstream-members-not-stacked: 2 members were placed on n1, which holds "
        "1 of them");
  }));
}

// koordinator.md 6.4 (corrected): placeToSchedulePods never stores the node it assumed for a
// member, so every member sees its node with only the victims removed. Both members take the
// cheaper n1, where only one fits; try-assign-back re-tests them stacked, fails with any victim
// back, and evicts every possible victim of n1.
TEST_CASE("gang members are placed without the earlier ones, as upstream does",
          "[policy][koordinator]") {
  const std::string gang = "{pod-group.scheduling.sigs.k8s.io: g}";
  const model::Snapshot snap = load(
      node("n1", 8) + node("n2", 8) + pod_group("ns", "g", 2) + pod("ns", "a", "n1", 1, "4") +
      pod("ns", "b", "n1", 1, "2") + pod("ns", "c", "n2", 5, "4") + pod("ns", "d", "n2", 5, "2") +
      pod("ns", "m0", "", 100, "6", gang) + pod("ns", "m1", "", 100, "6", gang));
  const Decision d = run(snap, "ns", "m0", {{"Coscheduling.enablePreemption", "true"}});
  CHECK(d.outcome == Outcome::preempt);
  CHECK(d.node == "n1");
  CHECK(victims(d) == std::vector<std::string>{"a", "b"});
  REQUIRE(d.tables.size() == 2);
  CHECK(d.tables[0].rows.size() == 2);
  CHECK(d.tables[0].rows[1][1] == "n1");
  CHECK(std::any_of(d.warnings.begin(), d.warnings.end(), [](const std::string& w) {
    return w.starts_with(
        "upstream-members-not-stacked: 2 members were placed on n1, which holds "
        "1 of them");
  }));
}

TEST_CASE("gang members that fit a node together reprieve what they can", "[policy][koordinator]") {
  const std::string gang = "{pod-group.scheduling.sigs.k8s.io: g}";
  const model::Snapshot snap = load(
      node("n1", 8) + node("n2", 8) + pod_group("ns", "g", 2) + pod("ns", "a", "n1", 1, "4") +
      pod("ns", "b", "n1", 1, "2") + pod("ns", "c", "n2", 5, "4") + pod("ns", "d", "n2", 5, "2") +
      pod("ns", "m0", "", 100, "3", gang) + pod("ns", "m1", "", 100, "3", gang));
  const Decision d = run(snap, "ns", "m0", {{"Coscheduling.enablePreemption", "true"}});
  CHECK(d.outcome == Outcome::preempt);
  CHECK(d.node == "n1");
  // a (4) goes; with b (2) back the two members (6) still fit the 8 cores.
  CHECK(victims(d) == std::vector<std::string>{"a"});
  CHECK(std::none_of(d.warnings.begin(), d.warnings.end(), [](const std::string& w) {
    return w.starts_with("upstream-members-not-stacked");
  }));
}

TEST_CASE("with enablePreemption a pod outside any gang preempts across quotas",
          "[policy][koordinator]") {
  // Upstream runs the Coscheduling evaluator for every pod when enablePreemption is on; a pod
  // without a gang is a job of one, and that evaluator reads no quota.
  const model::Snapshot snap = load(node("n1", 4) + quota("qa", "{cpu: 2}", "{cpu: 4}") +
                                    quota("qb", "{cpu: 2}", "{cpu: 4}") +
                                    pod("qb", "other", "n1", 1, "4") + pod("qa", "p", "", 10, "2"));
  CHECK(run(snap, "qa", "p").outcome == Outcome::unschedulable);
  const Decision d = run(snap, "qa", "p", {{"Coscheduling.enablePreemption", "true"}});
  CHECK(d.outcome == Outcome::preempt);
  CHECK(victims(d) == std::vector<std::string>{"other"});
}

TEST_CASE("a bad boolean arg is a usage error", "[policy][koordinator]") {
  const model::Snapshot snap = load(node("n1", 4) + pod("ns", "p", "", 1, "1"));
  CHECK_THROWS_AS(run(snap, "ns", "p", {{"ElasticQuota.enableRuntimeQuota", "maybe"}}), UsageError);
}

}  // namespace kpreempt::policy
