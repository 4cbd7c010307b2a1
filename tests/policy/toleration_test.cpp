// SPDX-License-Identifier: Apache-2.0
// PreemptionToleration: annotation grammar, the exemption decision table, Go time arithmetic,
// and the policy end to end on small clusters.
#include "kpreempt/policy/toleration.h"

#include "support/reasons.h"

#include "kpreempt/diag.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/default.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace kpreempt::policy {
namespace {

using model::Instant;

// Also used for namespace-scope constants, so no Catch assertion here.
Instant at(std::string_view text) {
  return model::parse_time(text).value();
}

model::PriorityClass klass(std::string name, std::int32_t value, model::StringMap ann = {}) {
  model::PriorityClass pc;
  pc.name = std::move(name);
  pc.value = value;
  pc.annotations = std::move(ann);
  return pc;
}

model::StringMap policy_ann(std::string min, std::optional<std::string> secs = std::nullopt) {
  model::StringMap m{{std::string(k_min_preemptable_priority_key), std::move(min)}};
  if (secs) {
    m.emplace_back(std::string(k_toleration_seconds_key), *secs);
  }
  return m;
}

model::Node node(std::string name, std::int64_t cpu_milli) {
  model::Node n;
  n.name = std::move(name);
  n.allocatable = {{"cpu", model::Quantity::from_milli(cpu_milli)},
                   {"memory", model::Quantity::from_units(std::int64_t{16} << 30)},
                   {"pods", model::Quantity::from_units(110)}};
  n.has_allocatable_pods = true;
  return n;
}

model::Pod pod(std::string name, std::int32_t priority, std::string cls, std::int64_t cpu_milli) {
  model::Pod p;
  p.namespace_ = "ns";
  p.name = std::move(name);
  p.uid = "uid-" + p.name;
  p.priority = priority;
  p.priority_class_name = std::move(cls);
  model::Container c;
  c.name = "main";
  c.requests = {{"cpu", model::Quantity::from_milli(cpu_milli)}};
  p.containers.push_back(std::move(c));
  return p;
}

// A running pod whose PodScheduled condition turned True at `scheduled` (absent: null).
model::Pod bound(std::string name, std::string node_name, std::int32_t priority, std::string cls,
                 std::int64_t cpu_milli, std::optional<Instant> scheduled) {
  model::Pod p = pod(std::move(name), priority, std::move(cls), cpu_milli);
  p.node_name = std::move(node_name);
  p.phase = "Running";
  p.start_time = scheduled;
  p.conditions.push_back({"Ready", "True", "", scheduled});
  p.conditions.push_back({"PodScheduled", "True", "", scheduled});
  return p;
}

model::Pod pending(std::string name, std::int32_t priority, std::int64_t cpu_milli,
                   std::string policy = "PreemptLowerPriority") {
  model::Pod p = pod(std::move(name), priority, "", cpu_milli);
  p.preemption_policy = std::move(policy);
  p.phase = "Pending";
  p.conditions.push_back({"PodScheduled", "False", "Unschedulable", std::nullopt});
  return p;
}

struct Cluster {
  std::vector<model::PriorityClass> classes;
  std::vector<model::Node> nodes;
  std::vector<model::Pod> pods;
  model::StringMap config;  // plugin args of a KubeSchedulerConfiguration in the dump

  model::Snapshot build() const {
    model::SnapshotBuilder b;
    b.set(model::SchedulerConfig{config, {}, {}});
    for (const auto& c : classes) {
      b.add(c);
    }
    for (const auto& n : nodes) {
      b.add(n);
    }
    for (const auto& p : pods) {
      b.add(p);
    }
    std::vector<Diagnostic> diags;
    model::Snapshot snap = std::move(b).build(diags);
    for (const auto& d : diags) {
      INFO(d.message);
      CHECK(d.severity != Severity::error);
    }
    return snap;
  }
};

model::PodId id_of(const model::Snapshot& snap, std::string_view name) {
  auto id = snap.find_pod("ns", name);
  REQUIRE(id.has_value());
  return *id;
}

// One victim "v" of class "cls" on node n1 and a pending preemptor "p" of `pre_priority`.
Exemption judge(const model::PriorityClass& cls, model::Pod victim, std::int32_t pre_priority,
                Instant now, std::string pre_policy = "PreemptLowerPriority", bool worded = true) {
  Cluster c;
  c.classes.push_back(cls);
  c.nodes.push_back(node("n1", 4000));
  victim.name = "v";
  victim.node_name = "n1";
  c.pods.push_back(std::move(victim));
  c.pods.push_back(pending("p", pre_priority, 1000, std::move(pre_policy)));
  const model::Snapshot snap = c.build();
  return evaluate_toleration(snap, id_of(snap, "v"), id_of(snap, "p"), now, worded);
}

const Instant k_now = at("2026-03-10T12:00:00Z");
const Instant k_five_min_ago = at("2026-03-10T11:55:00Z");

model::Pod victim_of(std::string cls, std::optional<Instant> scheduled = k_five_min_ago) {
  return bound("v", "n1", 8000, std::move(cls), 1000, scheduled);
}

std::vector<std::string> victim_names(const Decision& d) {
  std::vector<std::string> out;
  for (const auto& v : d.victims) {
    out.push_back(v.ref.name);
  }
  return out;
}

const PodVerdict* verdict_of(const Decision& d, std::string_view name) {
  for (const auto& n : d.nodes) {
    for (const auto& pv : n.pods) {
      if (pv.pod.name == name) {
        return &pv;
      }
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("absent annotations default to class value + 1 and 0 seconds", "[policy][toleration]") {
  const auto r = parse_toleration_policy(klass("low", 8000));
  REQUIRE(r.policy.has_value());
  CHECK(r.policy->minimum_preemptable_priority == 8001);
  CHECK(r.policy->minimum_defaulted);
  CHECK(r.policy->toleration_seconds == 0);
  CHECK(r.policy->seconds_defaulted);
  // int32 arithmetic, as upstream; such a class is not valid, but the wrap is Go's.
  const auto top = parse_toleration_policy(klass("top", 2147483647));
  CHECK(top.policy->minimum_preemptable_priority == -2147483648LL);
}

TEST_CASE("a present but empty annotation is a parse error", "[policy][toleration]") {
  const auto r = parse_toleration_policy(klass("low", 8000, policy_ann("")));
  CHECK_FALSE(r.policy.has_value());
  CHECK(r.key == k_min_preemptable_priority_key);
}

TEST_CASE("a bad toleration-seconds voids a valid minimum", "[policy][toleration]") {
  const auto r = parse_toleration_policy(klass("low", 8000, policy_ann("10000", "1e3")));
  CHECK_FALSE(r.policy.has_value());
  CHECK(r.key == k_toleration_seconds_key);
  CHECK(r.value == "1e3");
}

TEST_CASE("keys under the legacy prefix are not read", "[policy][toleration]") {
  const auto r = parse_toleration_policy(
      klass("low", 8000,
            {{"preemption-toleration.scheduling.sigs.k8s.io/minimum-preemptable-priority", "10000"},
             {"preemption-toleration.scheduling.sigs.k8s.io/toleration-seconds", "-1"}}));
  REQUIRE(r.policy.has_value());
  CHECK(r.policy->minimum_defaulted);
  CHECK(r.policy->seconds_defaulted);
}

TEST_CASE("the toleration window is int64 nanoseconds and wraps like Go", "[policy][toleration]") {
  const Instant t = at("2026-03-10T11:55:00Z");
  CHECK(toleration_expiry(t, 600) == at("2026-03-10T12:05:00Z"));
  CHECK(toleration_expiry(t, -1) == at("2026-03-10T11:54:59Z"));
  CHECK(toleration_expiry(at("2026-03-10T11:55:00.75Z"), 600) == at("2026-03-10T12:05:00Z"));
  CHECK(toleration_expiry(t, 9223372036) == t.plus_seconds(9223372036));
  // 9223372037e9 - 2^64 ns = -9223372036.709551616 s
  CHECK(toleration_expiry(t, 9223372037) == Instant{t.seconds - 9223372037, 290448384});
  // 18446744074e9 - 2^64 ns = +0.290448384 s
  CHECK(toleration_expiry(t, 18446744074) == Instant{t.seconds, 290448384});
}

TEST_CASE("a victim without a priority class name gets no toleration", "[policy][toleration]") {
  const auto e = judge(klass("low", 8000, policy_ann("10000", "-1")), victim_of(""), 9000, k_now);
  CHECK(e.kind == Exemption::Kind::not_exempt);
  CHECK(e.code == policy::Code::no_priority_class);
}

TEST_CASE("a victim whose priority class is missing fails the node", "[policy][toleration]") {
  const auto e = judge(klass("other", 1), victim_of("gone"), 9000, k_now);
  CHECK(e.kind == Exemption::Kind::error);
  CHECK(e.code == policy::Code::error_priority_class_not_found);
  CHECK(e.detail == "priorityclass.scheduling.k8s.io \"gone\" not found");
}

TEST_CASE("a missing class errors even for a Never preemptor", "[policy][toleration]") {
  const auto e = judge(klass("other", 1), victim_of("gone"), 9000, k_now, "Never");
  CHECK(e.code == policy::Code::error_priority_class_not_found);
}

TEST_CASE("an unworded judgement has the same kind, and words only for an error",
          "[policy][toleration]") {
  const auto cls = klass("low", 8000, policy_ann("10000", "600"));
  const std::vector<std::pair<model::PriorityClass, model::Pod>> cases = {
      {cls, victim_of("")},                                               // no class: not exempt
      {cls, victim_of("low")},                                            // inside the window
      {cls, victim_of("low", at("2026-01-01T00:00:00Z"))},                // expired
      {klass("low", 8000, policy_ann("10000", "-1")), victim_of("low")},  // forever
      {klass("low", 8000, policy_ann("x")), victim_of("low")},            // invalid policy
      {cls, victim_of("gone")},                                           // missing class: error
  };
  for (const auto& [c, v] : cases) {
    const Exemption worded = judge(c, v, 9000, k_now);
    const Exemption bare = judge(c, v, 9000, k_now, "PreemptLowerPriority", false);
    CAPTURE(worded.code);
    CHECK(bare.kind == worded.kind);
    if (worded.kind == Exemption::Kind::error) {
      CHECK(bare.code == worded.code);
      CHECK(bare.detail == worded.detail);
    } else {
      CHECK_FALSE(bare.code.has_value());
      CHECK(bare.detail.empty());
    }
  }
}

TEST_CASE("a Never preemptor exempts every victim", "[policy][toleration]") {
  const auto e = judge(klass("low", 8000), victim_of("low"), 9000, k_now, "Never");
  CHECK(e.kind == Exemption::Kind::exempt);
  CHECK(e.code == policy::Code::exempt_preemptor_never);
}

TEST_CASE("built-in classes count as present when the dump omits them", "[policy][toleration]") {
  auto v = victim_of("system-cluster-critical");
  v.priority = 2000000000;
  const auto e = judge(klass("other", 1), v, 2000001000, k_now);
  CHECK(e.kind == Exemption::Kind::not_exempt);
  CHECK(e.code == policy::Code::min_preemptable_priority_reached);
}

TEST_CASE("an unparsable annotation leaves the victim preemptable", "[policy][toleration]") {
  const auto e = judge(klass("low", 8000, policy_ann("a", "-1")), victim_of("low"), 9000, k_now);
  CHECK(e.kind == Exemption::Kind::not_exempt);
  CHECK(e.code == policy::Code::invalid_policy);
  CHECK_THAT(e.detail, Catch::Contains("invalid syntax"));
}

TEST_CASE("a preemptor at exactly the minimum may preempt", "[policy][toleration]") {
  const auto cls = klass("low", 8000, policy_ann("10000", "-1"));
  CHECK(judge(cls, victim_of("low"), 10000, k_now).code ==
        policy::Code::min_preemptable_priority_reached);
  CHECK(judge(cls, victim_of("low"), 9999, k_now).kind == Exemption::Kind::exempt);
}

TEST_CASE("the default minimum follows the class value, not the pod priority",
          "[policy][toleration]") {
  auto v = victim_of("low");
  v.priority = 100;  // the class was recreated with a higher value since
  const auto cls = klass("low", 500, {{std::string(k_toleration_seconds_key), "-1"}});
  CHECK(judge(cls, v, 501, k_now).code == policy::Code::min_preemptable_priority_reached);
  const auto e = judge(cls, v, 500, k_now);
  CHECK(e.code == policy::Code::tolerates_min_preemptable_priority);
}

TEST_CASE("negative toleration-seconds protects forever", "[policy][toleration]") {
  const auto cls = klass("low", 8000, policy_ann("10000", "-1"));
  const auto e = judge(cls, victim_of("low", at("2001-01-01T00:00:00Z")), 9000, k_now);
  CHECK(e.kind == Exemption::Kind::exempt);
  CHECK(e.code == policy::Code::tolerates_min_preemptable_priority);
  CHECK(e.detail == "protected while priority < 10000 (toleration forever)");
}

TEST_CASE("a pod without PodScheduled=True is protected even with 0 seconds",
          "[policy][toleration]") {
  const auto cls = klass("low", 8000, policy_ann("10000"));
  auto none = victim_of("low");
  none.conditions.clear();
  CHECK(judge(cls, none, 9000, k_now).code == policy::Code::tolerates_not_scheduled);
  auto is_false = victim_of("low");
  is_false.conditions[1].status = "False";
  CHECK(judge(cls, is_false, 9000, k_now).code == policy::Code::tolerates_not_scheduled);
  auto lower = victim_of("low");
  lower.conditions[1].status = "true";  // only the exact string counts
  CHECK(judge(cls, lower, 9000, k_now).code == policy::Code::tolerates_not_scheduled);
}

TEST_CASE("only the first PodScheduled condition is read", "[policy][toleration]") {
  const auto cls = klass("low", 8000, policy_ann("10000", "600"));
  auto v = victim_of("low", at("2026-01-01T00:00:00Z"));
  v.conditions.push_back({"PodScheduled", "True", "", k_now});
  CHECK(judge(cls, v, 9000, k_now).code == policy::Code::toleration_expired);
}

TEST_CASE("a victim inside its window tolerates until scheduled + seconds",
          "[policy][toleration]") {
  const auto cls = klass("low", 8000, policy_ann("10000", "600"));
  const auto e = judge(cls, victim_of("low"), 9000, k_now);
  CHECK(e.kind == Exemption::Kind::exempt);
  CHECK(e.code == policy::Reason(policy::Code::tolerates_until, "2026-03-10T12:05:00Z"));
  CHECK(e.detail ==
        "protected from priority < 10000 until 2026-03-10T12:05:00Z (toleration-seconds 600)");
}

TEST_CASE("the window is half open: at the expiry instant the victim is preemptable",
          "[policy][toleration]") {
  const auto cls = klass("low", 8000, policy_ann("10000", "300"));
  const auto e = judge(cls, victim_of("low"), 9000, k_now);
  CHECK(e.kind == Exemption::Kind::not_exempt);
  CHECK(e.code == policy::Code::toleration_expired);
  const Instant just_before{k_now.seconds - 1, 999999999};
  CHECK(judge(cls, victim_of("low"), 9000, just_before).kind == Exemption::Kind::exempt);
}

TEST_CASE("a sub-second lastTransitionTime is truncated to the second", "[policy][toleration]") {
  const auto cls = klass("low", 8000, policy_ann("10000", "300"));
  const auto v = victim_of("low", at("2026-03-10T11:55:00.900Z"));
  CHECK(judge(cls, v, 9000, at("2026-03-10T12:00:00.5Z")).code == policy::Code::toleration_expired);
}

TEST_CASE("with 0 seconds only a future lastTransitionTime protects", "[policy][toleration]") {
  const auto cls = klass("low", 8000, policy_ann("10000"));
  CHECK(judge(cls, victim_of("low", k_now), 9000, k_now).code == policy::Code::toleration_expired);
  const auto e = judge(cls, victim_of("low", k_now.plus_seconds(1)), 9000, k_now);
  CHECK(e.code == policy::Reason(policy::Code::tolerates_until, "2026-03-10T12:00:01Z"));
  CHECK_THAT(judge(cls, victim_of("low", k_now), 9000, k_now).detail,
             Catch::Contains("toleration-seconds=0 by default"));
}

TEST_CASE("a null lastTransitionTime is Go's zero time, long expired", "[policy][toleration]") {
  const auto cls = klass("low", 8000, policy_ann("10000", "9000000000"));
  CHECK(judge(cls, victim_of("low", std::nullopt), 9000, k_now).code ==
        policy::Code::toleration_expired);
  const auto e = judge(cls, victim_of("low", std::nullopt), 9000, at("0100-01-01T00:00:00Z"));
  CHECK(e.kind == Exemption::Kind::exempt);
}

TEST_CASE("a window that overflows int64 nanoseconds wraps as upstream does",
          "[policy][toleration]") {
  const Instant sched = k_five_min_ago;
  const auto wraps_back = klass("low", 8000, policy_ann("10000", "9223372037"));
  CHECK(judge(wraps_back, victim_of("low", sched), 9000, k_now).code ==
        policy::Code::toleration_expired);
  const auto last_fits = klass("low", 8000, policy_ann("10000", "9223372036"));
  CHECK(judge(last_fits, victim_of("low", sched), 9000, k_now).kind == Exemption::Kind::exempt);
  const auto tiny = klass("low", 8000, policy_ann("10000", "18446744074"));
  CHECK(judge(tiny, victim_of("low", sched), 9000, Instant{sched.seconds, 200000000}).kind ==
        Exemption::Kind::exempt);
  CHECK(judge(tiny, victim_of("low", sched), 9000, Instant{sched.seconds, 300000000}).kind ==
        Exemption::Kind::not_exempt);
}

namespace {

// The KEP's classes: critical 10000, high 9000, low 8000, low-non-preempted 8000 (>= 10000
// only), low-non-preempted-10min 8000 (>= 10000, or anyone above 8000 after 600 s).
Cluster kep_cluster() {
  Cluster c;
  c.classes = {klass("critical", 10000), klass("high", 9000), klass("low", 8000),
               klass("low-non-preempted", 8000, policy_ann("10000", "-1")),
               klass("low-non-preempted-10min", 8000, policy_ann("10000", "600"))};
  c.nodes.push_back(node("n1", 4000));
  return c;
}

Decision run(const Cluster& c, std::string_view preemptor, Instant now = k_now,
             model::StringMap args = {}) {
  const model::Snapshot snap = c.build();
  const Args a(std::move(args));
  return decide_toleration(Input{snap, id_of(snap, preemptor), now, a});
}

}  // namespace

TEST_CASE("an exempt pod keeps its resources, so the preemptor does not fit",
          "[policy][toleration]") {
  Cluster c = kep_cluster();
  c.pods.push_back(bound("training", "n1", 8000, "low-non-preempted", 2000, k_five_min_ago));
  c.pods.push_back(bound("batch", "n1", 8000, "low", 1000, k_five_min_ago));
  c.pods.push_back(pending("serve", 9000, 3000));
  const Decision d = run(c, "serve");
  CHECK(d.policy == "toleration");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(d.victims.empty());
  const PodVerdict* training = verdict_of(d, "training");
  REQUIRE(training != nullptr);
  CHECK(training->code == policy::Code::tolerates_min_preemptable_priority);
  CHECK_FALSE(training->victim);
}

TEST_CASE("toleration and default disagree on a protected pod", "[policy][toleration]") {
  Cluster c = kep_cluster();
  // batch started first, so default reprieves it and evicts the later training pod.
  c.pods.push_back(
      bound("training", "n1", 8000, "low-non-preempted", 2000, at("2026-03-10T11:58:00Z")));
  c.pods.push_back(bound("batch", "n1", 8000, "low", 1000, at("2026-03-10T11:00:00Z")));
  c.pods.push_back(pending("serve", 9000, 2000));
  const model::Snapshot snap = c.build();
  const Args none;
  const Input in{snap, id_of(snap, "serve"), k_now, none};
  const Decision by_default = decide_default(in);
  const Decision by_toleration = decide_toleration(in);
  CHECK(by_default.outcome == Outcome::preempt);
  CHECK(victim_names(by_default) == std::vector<std::string>{"training"});
  CHECK(by_toleration.outcome == Outcome::preempt);
  CHECK(victim_names(by_toleration) == std::vector<std::string>{"batch"});
}

TEST_CASE("a critical preemptor reaches the minimum and the reprieve keeps the other pod",
          "[policy][toleration]") {
  Cluster c = kep_cluster();
  c.pods.push_back(bound("training", "n1", 8000, "low-non-preempted", 2000, k_five_min_ago));
  c.pods.push_back(bound("batch", "n1", 8000, "low", 1000, k_five_min_ago));
  c.pods.push_back(pending("system", 10000, 3000));
  const Decision d = run(c, "system");
  CHECK(d.outcome == Outcome::preempt);
  CHECK(victim_names(d) == std::vector<std::string>{"training"});
  const PodVerdict* training = verdict_of(d, "training");
  REQUIRE(training != nullptr);
  CHECK(training->code == policy::Code::victim);
  CHECK_THAT(training->detail, Catch::StartsWith("min-preemptable-priority-reached"));
}

TEST_CASE("the 600 s guarantee holds inside the window and ends after it", "[policy][toleration]") {
  Cluster c = kep_cluster();
  c.pods.push_back(
      bound("training", "n1", 8000, "low-non-preempted-10min", 3000, at("2026-03-10T11:55:00Z")));
  c.pods.push_back(pending("serve", 9000, 2000));
  const Decision inside = run(c, "serve");
  CHECK(inside.outcome == Outcome::unschedulable);
  REQUIRE(inside.nodes.size() == 1);
  CHECK(inside.nodes[0].code == policy::Code::no_victims);
  CHECK(verdict_of(inside, "training")->code ==
        policy::Reason(policy::Code::tolerates_until, "2026-03-10T12:05:00Z"));
  const Decision after = run(c, "serve", at("2026-03-10T12:05:00Z"));
  CHECK(after.outcome == Outcome::preempt);
  CHECK(victim_names(after) == std::vector<std::string>{"training"});
  CHECK_THAT(verdict_of(after, "training")->detail, Catch::StartsWith("toleration-expired"));
}

TEST_CASE("a node with a victim of a missing class fails; another node still wins",
          "[policy][toleration]") {
  Cluster c = kep_cluster();
  c.nodes.push_back(node("n2", 4000));
  c.pods.push_back(bound("orphan", "n1", 100, "gone", 4000, k_five_min_ago));
  c.pods.push_back(pending("serve", 9000, 2000));
  const Decision alone = run(c, "serve");
  CHECK(alone.outcome == Outcome::fits);

  c.pods.push_back(bound("batch", "n2", 8000, "low", 4000, k_five_min_ago));
  const Decision d = run(c, "serve");
  CHECK(d.outcome == Outcome::preempt);
  CHECK(d.node == "n2");
  CHECK(victim_names(d) == std::vector<std::string>{"batch"});
}

TEST_CASE("a missing class on the only node means nothing is evicted", "[policy][toleration]") {
  Cluster c = kep_cluster();
  c.pods.push_back(bound("orphan", "n1", 100, "gone", 4000, k_five_min_ago));
  c.pods.push_back(pending("serve", 9000, 2000));
  const Decision d = run(c, "serve");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(d.victims.empty());
  REQUIRE(d.nodes.size() == 1);
  CHECK(d.nodes[0].code == policy::Code::error_priority_class_not_found);
  CHECK(testing::has_reason(d, "error"));
}

TEST_CASE("a Never preemptor is not eligible to preempt at all", "[policy][toleration]") {
  Cluster c = kep_cluster();
  c.pods.push_back(bound("batch", "n1", 8000, "low", 4000, k_five_min_ago));
  c.pods.push_back(pending("serve", 9000, 2000, "Never"));
  const Decision d = run(c, "serve");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(d.victims.empty());
}

TEST_CASE("classes under the legacy prefix draw one warning and no toleration",
          "[policy][toleration]") {
  Cluster c = kep_cluster();
  for (const char* name : {"old-a", "old-b"}) {
    c.classes.push_back(klass(
        name, 8000,
        {{"preemption-toleration.scheduling.sigs.k8s.io/minimum-preemptable-priority", "10000"},
         {"preemption-toleration.scheduling.sigs.k8s.io/toleration-seconds", "-1"}}));
  }
  c.pods.push_back(bound("batch", "n1", 8000, "old-a", 4000, k_five_min_ago));
  c.pods.push_back(pending("serve", 9000, 2000));
  const Decision d = run(c, "serve");
  CHECK(victim_names(d) == std::vector<std::string>{"batch"});
  REQUIRE(d.warnings.size() == 1);
  CHECK_THAT(d.warnings[0], Catch::Contains("\"old-a\", \"old-b\""));
  CHECK_THAT(d.warnings[0], Catch::Contains("preemption-toleration.scheduling.sigs.k8s.io/"));
}

TEST_CASE("any lower-priority terminating pod on the nominated node blocks the preemptor",
          "[policy][toleration]") {
  Cluster c = kep_cluster();
  c.pods.push_back(bound("batch", "n1", 8000, "low", 3000, k_five_min_ago));
  c.pods.back().deletion_timestamp = k_now;
  c.pods.push_back(pending("serve", 9000, 2000));
  c.pods.back().nominated_node_name = "n1";
  const Decision d = run(c, "serve");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(d.victims.empty());
  // Default waits only for pods terminating by preemption (DisruptionTarget condition).
  const model::Snapshot snap = c.build();
  const Args none;
  CHECK(decide_default(Input{snap, id_of(snap, "serve"), k_now, none}).outcome == Outcome::preempt);
}

TEST_CASE("PreemptionToleration args are read under the plugin's own name",
          "[policy][toleration]") {
  Cluster c = kep_cluster();
  c.pods.push_back(bound("batch", "n1", 8000, "low", 4000, k_five_min_ago));
  c.pods.push_back(pending("serve", 9000, 2000));
  CHECK_THROWS_AS(
      run(c, "serve", k_now, {{"PreemptionToleration.minCandidateNodesPercentage", "x"}}),
      UsageError);
  const Decision d =
      run(c, "serve", k_now, {{"DefaultPreemption.minCandidateNodesPercentage", "x"}});
  CHECK(d.outcome == Outcome::preempt);
}

TEST_CASE("args from the dump are read under PreemptionToleration, not DefaultPreemption",
          "[policy][toleration]") {
  Cluster c = kep_cluster();
  c.pods.push_back(bound("batch", "n1", 8000, "low", 4000, k_five_min_ago));
  c.pods.push_back(pending("serve", 9000, 2000));
  c.config = {{"DefaultPreemption.minCandidateNodesPercentage", "150"}};
  CHECK(run(c, "serve").outcome == Outcome::preempt);
  c.config = {{"PreemptionToleration.minCandidateNodesPercentage", "150"}};
  CHECK_THROWS_WITH(run(c, "serve"), Catch::Contains("PreemptionToleration"));
}

}  // namespace kpreempt::policy
