// SPDX-License-Identifier: Apache-2.0
// Rounds of sequential decisions with victims recreated: the counts, the stop conditions and
// the loop.

#include "kpreempt/scenario/cascade.h"

#include "support/builders.h"

#include "kpreempt/cache/cache.h"
#include "kpreempt/policy/policy.h"
#include "kpreempt/scenario/inputs.h"

#include <catch2/catch.hpp>

using namespace kpreempt;
using namespace kpreempt::testing;

namespace {

const model::Instant k_now = at("2026-01-01T00:00:00Z");

// Every pending pod decided by `entry`, every Workload left out.
struct OnePolicy {
  explicit OnePolicy(const policy::Entry& entry) : run{entry, args, {}, k_now, false} {}
  policy::Args args;
  scenario::SequenceRun run;
  scenario::RunFor run_for() const {
    return [this](const model::Snapshot&, model::PodId pod, std::uint32_t) {
      return pod == model::k_none ? nullptr : &run;
    };
  }
};

render::Cascade cascade(model::Snapshot& snap, const policy::Entry& entry,
                        std::int64_t backoff_limit = 6, std::size_t rounds = 20) {
  const OnePolicy p(entry);
  scenario::CascadeOptions o;
  o.rounds = rounds;
  o.backoff_limit = backoff_limit;
  o.now = k_now;
  return scenario::run_cascade(snap, o, p.run_for());
}

// A policy that takes node n1 for its preemptor, whatever runs there and whatever priority:
// two of its pods take turns for ever.
policy::Decision take_n1(const policy::Input& in) {
  policy::Decision d;
  d.policy = "take-n1";
  d.outcome = policy::Outcome::preempt;
  d.node = "n1";
  const model::Snapshot& snap = in.snapshot;
  for (model::PodId id : snap.pods_on(*snap.find_node("n1"))) {
    policy::Victim v;
    v.ref = {"Pod", snap.pods()[id].namespace_, snap.pods()[id].name};
    v.node = "n1";
    d.victims.push_back(v);
  }
  return d;
}

}  // namespace

TEST_CASE("a three-level storm: high evicts mid, mid evicts low, low stays pending",
          "[scenario][cascade]") {
  Cluster c;
  c.add(node("n1").cpu("4").label("pool", "a"))
      .add(node("n2").cpu("4").label("pool", "b"))
      .add(pod("tools/mid").on("n1").priority(500).cpu("4").owner("ReplicaSet", "mid-5d8"))
      .add(pod("batch/low").on("n2").priority(100).cpu("4").owner("ReplicaSet", "low-7c9"))
      .add(pod("shop/high").priority(1000).cpu("4").node_selector("pool", "a"));
  model::Snapshot snap = c.snapshot();
  const std::string before = scenario::cascade_state(snap);
  const render::Cascade r = cascade(snap, *policy::find("default"));
  REQUIRE(r.rounds.size() == 3);
  CHECK(r.rounds[0].decisions.size() == 1);
  CHECK(r.rounds[0].decisions[0].preemptor == "shop/high");
  CHECK(r.rounds[0].decisions[0].node == "n1");
  CHECK(r.rounds[0].decisions[0].victims == std::vector<std::string>{"tools/mid"});
  CHECK(r.rounds[0].recreated == std::vector<std::string>{"tools/mid (ReplicaSet mid-5d8)"});
  CHECK(r.rounds[1].decisions[0].preemptor == "tools/mid");
  CHECK(r.rounds[1].decisions[0].node == "n2");
  CHECK(r.rounds[1].decisions[0].victims == std::vector<std::string>{"batch/low"});
  CHECK(r.rounds[2].decisions[0].preemptor == "batch/low");
  CHECK(r.rounds[2].decisions[0].outcome == policy::Outcome::unschedulable);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(r.rounds[i].pending == 1);
    CHECK(r.rounds[i].evicted == (i < 2 ? 1U : 0U));
  }
  CHECK(r.admitted == 2);
  CHECK(r.evictions == 2);
  CHECK(r.evicted_more_than_once == 0);
  CHECK(r.amplification() == 1.0);
  CHECK(r.settled);
  CHECK_FALSE(r.loop);
  // The snapshot is as it was.
  CHECK(scenario::cascade_state(snap) == before);
  CHECK(snap.pods()[c.pod_id("tools/mid")].node_name == "n1");
}

TEST_CASE("a Job's evicted pods come back only within its backoff limit", "[scenario][cascade]") {
  Cluster c;
  c.add(node("n1").cpu("4"))
      .add(node("n2").cpu("4"))
      .add(pod("ml/train-a").on("n1").priority(100).cpu("4").owner("Job", "train"))
      .add(pod("ml/train-b").on("n2").priority(100).cpu("4").owner("Job", "train"))
      .add(pod("shop/web-1").priority(1000).cpu("4"))
      .add(pod("shop/web-2").priority(1000).cpu("4"));
  model::Snapshot snap = c.snapshot();
  SECTION("limit 1: the second eviction fails the Job, and neither comes back") {
    const render::Cascade r = cascade(snap, *policy::find("default"), 1);
    REQUIRE(r.rounds.size() == 2);
    CHECK(r.rounds[0].evicted == 2);
    CHECK(r.rounds[0].recreated.empty());
    REQUIRE(r.rounds[0].gone.size() == 2);
    CHECK(r.rounds[0].gone[0] == "ml/train-a (Job train failed: past backoffLimit 1)");
    CHECK(r.rounds[0].gone[1].find("(Job train past backoffLimit 1") != std::string::npos);
    CHECK(r.rounds[0].pending == 0);
    CHECK(r.settled);
  }
  SECTION("the default limit: both come back") {
    const render::Cascade r = cascade(snap, *policy::find("default"));
    CHECK(r.rounds[0].recreated.size() == 2);
    CHECK(r.rounds[0].gone.empty());
    CHECK(r.rounds[0].pending == 2);
  }
}

TEST_CASE("a round that evicts nobody settles the cascade", "[scenario][cascade]") {
  Cluster c;
  c.add(node("n1").cpu("4"))
      .add(pod("batch/low").on("n1").priority(100).cpu("2"))
      .add(pod("shop/web").priority(1000).cpu("2"));
  model::Snapshot snap = c.snapshot();
  const render::Cascade r = cascade(snap, *policy::find("default"));
  REQUIRE(r.rounds.size() == 1);
  CHECK(r.rounds[0].admitted == 1);
  CHECK(r.rounds[0].pending == 0);
  CHECK(r.evictions == 0);
  CHECK(r.amplification() == 0.0);
  CHECK(r.settled);
}

TEST_CASE("a bare victim is gone, and the rounds limit stops a cascade", "[scenario][cascade]") {
  Cluster c;
  c.add(node("n1").cpu("4"))
      .add(pod("a/bare").on("n1").cpu("4"))
      .add(pod("a/two").cpu("4").owner("ReplicaSet", "two-1"));
  policy::Entry entry = *policy::find("default");
  entry.decide = &take_n1;
  model::Snapshot snap = c.snapshot();
  SECTION("one round") {
    const render::Cascade r = cascade(snap, entry, 6, 1);
    REQUIRE(r.rounds.size() == 1);
    CHECK(r.rounds[0].gone == std::vector<std::string>{"a/bare (no controller)"});
    CHECK(r.rounds[0].recreated.empty());
    CHECK_FALSE(r.settled);
    CHECK_FALSE(r.loop);
  }
  SECTION("no limit: nothing is pending in round 2") {
    const render::Cascade r = cascade(snap, entry);
    REQUIRE(r.rounds.size() == 2);
    CHECK(r.rounds[1].decisions.empty());
    CHECK(r.settled);
  }
}

TEST_CASE("two pods that take a node from each other in turn are a loop", "[scenario][cascade]") {
  Cluster c;
  c.add(node("n1").cpu("4"))
      .add(pod("a/one").on("n1").cpu("4").owner("ReplicaSet", "one-1"))
      .add(pod("a/two").cpu("4").owner("StatefulSet", "two"));
  policy::Entry entry = *policy::find("default");
  entry.decide = &take_n1;
  model::Snapshot snap = c.snapshot();
  const render::Cascade r = cascade(snap, entry);
  REQUIRE(r.rounds.size() == 2);
  REQUIRE(r.loop);
  CHECK(r.loop_from == 0);
  REQUIRE(r.loop->size() == 2);
  CHECK((*r.loop)[0].preemptor == "a/two");
  CHECK((*r.loop)[0].victims == std::vector<std::string>{"a/one"});
  CHECK((*r.loop)[1].preemptor == "a/one");
  CHECK((*r.loop)[1].victims == std::vector<std::string>{"a/two"});
  CHECK(r.evicted_more_than_once == 0);
  CHECK_FALSE(r.settled);
}

TEST_CASE("a DaemonSet's evicted pod comes back for its node", "[scenario][cascade]") {
  Cluster c;
  c.add(node("n1").cpu("4").label("kubernetes.io/hostname", "n1"))
      .add(pod("kube-system/agent-n1")
               .on("n1")
               .cpu("4")
               .node_selector("kubernetes.io/hostname", "n1")
               .owner("DaemonSet", "agent"))
      .add(pod("a/two").cpu("4"));
  policy::Entry entry = *policy::find("default");
  entry.decide = &take_n1;
  model::Snapshot snap = c.snapshot();
  const render::Cascade r = cascade(snap, entry, 6, 1);
  REQUIRE(r.rounds.size() == 1);
  CHECK(r.rounds[0].recreated ==
        std::vector<std::string>{"kube-system/agent-n1 (DaemonSet agent, for node n1)"});
  CHECK(r.rounds[0].pending == 1);
}

TEST_CASE("each step of a loop says the priorities and schedulers that make it possible",
          "[scenario][cascade]") {
  Cluster c;
  c.add(model::PriorityClass{"low", 100, false, "", {}, {}})
      .add(model::PriorityClass{"high", 1000, false, "", {}, {}})
      .add(node("n1").cpu("4"))
      .add(pod("a/one").on("n1").cpu("4").priority_class("low").owner("ReplicaSet", "one-1"))
      .add(pod("a/two").cpu("4").priority_class("high").scheduler("yunikorn").owner("Job", "two"));
  // YuniKorn's scheduler takes default-scheduler pods too: one run decides both sides.
  policy::Entry entry = *policy::find("yunikorn");
  entry.decide = &take_n1;
  model::Snapshot snap = c.snapshot();
  const render::Cascade r = cascade(snap, entry);
  REQUIRE(r.loop);
  REQUIRE(r.loop->size() == 2);
  CHECK((*r.loop)[0].because ==
        "a/two (PriorityClass high, 1000) may evict a/one (PriorityClass low, 100) under take-n1; "
        "node n1 is shared by two schedulers: a/two spec.schedulerName yunikorn, a/one "
        "spec.schedulerName default-scheduler");
  CHECK((*r.loop)[1].because ==
        "a/one (PriorityClass low, 100) may evict a/two (PriorityClass high, 1000) under take-n1; "
        "node n1 is shared by two schedulers: a/one spec.schedulerName default-scheduler, a/two "
        "spec.schedulerName yunikorn");
}

TEST_CASE("a YuniKorn eviction names the victim's queue over its guarantee",
          "[scenario][cascade]") {
  Cluster c;
  c.add(node("n1").cpu("4"))
      .add(pod("a/one").on("n1").cpu("4"))
      .add(pod("b/two").cpu("4").scheduler("yunikorn"));
  const model::Snapshot& snap = c.snapshot();
  policy::Decision d;
  d.policy = "yunikorn";
  d.node = "n1";
  policy::Victim v;
  v.ref = {"Pod", "a", "one"};
  v.queue = "root.a";
  d.victims.push_back(v);
  d.details = {{"queues",
                {{{"path", "root.a"},
                  {"guaranteed", {{"vcore", 2000}}},
                  {"usedBefore", {{"vcore", 4000}, {"memory", 1LL << 30}}}}}}};
  CHECK(scenario::eviction_cause(snap, c.pod_id("b/two"), model::k_none, d) ==
        "b/two (priority 0) may evict a/one (priority 0) under yunikorn: queue root.a is over its "
        "guaranteed vcore 2 (uses 4); node n1 is shared by two schedulers: "
        "b/two spec.schedulerName yunikorn, a/one spec.schedulerName default-scheduler");
  d.details = {{"queues", {{{"path", "root.a"}, {"guaranteed", nullptr}, {"usedBefore", {}}}}}};
  CHECK(scenario::eviction_cause(snap, c.pod_id("b/two"), model::k_none, d)
            .find("under yunikorn: queue root.a has no guaranteed resources;") !=
        std::string::npos);
}

TEST_CASE("a Kueue eviction names the ClusterQueue's preemption policy", "[scenario][cascade]") {
  std::vector<Diagnostic> diags;
  scenario::InputSpec spec;
  spec.files = {KPREEMPT_TESTDATA "/explain/kueue/admission-check-not-modelled/cluster.yaml"};
  spec.cache = cache::Mode::off;
  scenario::LoadedInputs loaded = scenario::load_inputs(spec, diags);
  const OnePolicy p(*policy::find("kueue"));
  scenario::CascadeOptions o;
  o.now = k_now;
  const render::Cascade r = scenario::run_cascade(
      loaded.snapshot, o, [&p](const model::Snapshot&, model::PodId pod, std::uint32_t) {
        return pod == model::k_none ? &p.run : nullptr;
      });
  REQUIRE_FALSE(r.rounds.empty());
  REQUIRE(r.rounds[0].decisions[0].victims == std::vector<std::string>{"Workload default/low"});
  const std::string& because = r.rounds[0].decisions[0].because;
  INFO(because);
  CHECK(because.starts_with("Workload default/in (ClusterQueue standalone, "));
  CHECK(because.find(" may evict Workload default/low (ClusterQueue standalone, ") !=
        std::string::npos);
  CHECK(because.ends_with(
      "under kueue: ClusterQueue standalone preempts withinClusterQueue LowerPriority, "
      "reclaimWithinCohort Never, borrowWithinCohort Never"));
}
