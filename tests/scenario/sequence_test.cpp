// SPDX-License-Identifier: Apache-2.0
// Preemptors decided in sequence: each sees the decisions before it applied.

#include "kpreempt/scenario/sequence.h"

#include "support/builders.h"

#include "kpreempt/policy/policy.h"
#include "kpreempt/scenario/runner.h"

#include <catch2/catch.hpp>

using namespace kpreempt;
using namespace kpreempt::testing;

namespace {

std::vector<render::Explanation> items(const Cluster& c, std::vector<std::string> names) {
  std::vector<render::Explanation> out;
  for (const auto& n : names) {
    out.push_back({c.pod_id(n), model::k_none, at("2026-01-01T00:00:00Z"), {}});
  }
  return out;
}

render::SequenceSummary run_default(model::Snapshot& snap, std::vector<render::Explanation>& all) {
  const policy::Args args;
  const scenario::SequenceRun run{
      *policy::find("default"), args, {}, at("2026-01-01T00:00:00Z"), true};
  return scenario::decide_in_sequence(snap, run, all, std::vector<bool>(all.size(), true));
}

}  // namespace

TEST_CASE("replicas fill the room, then preempt, then stay pending", "[scenario][sequence]") {
  Cluster c;
  c.add(node("n1").cpu("4"))
      .add(node("n2").cpu("4"))
      .add(pod("batch/etl").on("n2").priority(1).cpu("4"));
  for (int i = 0; i < 5; ++i) {
    c.add(pod("web/api-" + std::to_string(i)).priority(100).cpu("2"));
  }
  model::Snapshot snap = c.snapshot();
  auto all = items(c, {"web/api-0", "web/api-1", "web/api-2", "web/api-3", "web/api-4"});
  const render::SequenceSummary s = run_default(snap, all);
  REQUIRE(s.steps.size() == 5);
  CHECK(s.steps[0].outcome == policy::Outcome::fits);
  CHECK(s.steps[0].node == "n1");
  CHECK_FALSE(s.steps[0].node_by_score);  // n2 is full: no score had to choose
  CHECK(s.steps[1].outcome == policy::Outcome::fits);
  CHECK(s.steps[2].outcome == policy::Outcome::preempt);
  CHECK(s.steps[2].node == "n2");
  // The victim is gone: half of its room is left for the next replica.
  CHECK(s.steps[3].outcome == policy::Outcome::fits);
  CHECK(s.steps[3].node == "n2");
  CHECK(s.steps[4].outcome == policy::Outcome::unschedulable);
  REQUIRE(s.victims_by_node.size() == 1);
  CHECK(s.victims_by_node[0].first == "n2");
  CHECK(victim_names(all[2].decisions.front()) == std::vector<std::string>{"batch/etl"});
  // The snapshot is as it was.
  CHECK(snap.pods()[c.pod_id("web/api-0")].pending());
  CHECK(snap.pods_on(*snap.find_node("n2")).size() == 1);
}

TEST_CASE("a second pod evicts other victims than the first", "[scenario][sequence]") {
  Cluster c;
  c.add(node("g1").cpu("8").resource("nvidia.com/gpu", "4"))
      .add(node("g2").cpu("8").resource("nvidia.com/gpu", "4"))
      .add(pod("r/a").on("g1").priority(1).request("nvidia.com/gpu", "4"))
      .add(pod("r/b").on("g2").priority(2).request("nvidia.com/gpu", "4"))
      .add(pod("ml/t-0").priority(100).request("nvidia.com/gpu", "4"))
      .add(pod("ml/t-1").priority(100).request("nvidia.com/gpu", "4"));
  model::Snapshot snap = c.snapshot();
  auto all = items(c, {"ml/t-0", "ml/t-1"});
  run_default(snap, all);
  CHECK(victim_names(all[0].decisions.front()) == std::vector<std::string>{"r/a"});
  CHECK(victim_names(all[1].decisions.front()) == std::vector<std::string>{"r/b"});
}

TEST_CASE("a victim's budget allowance is spent for the pods after it", "[scenario][sequence]") {
  Cluster c;
  c.add(node("n1").cpu("2"))
      .add(node("n2").cpu("2"))
      .add(pod("a/x").on("n1").priority(1).cpu("2").label("app", "x"))
      .add(pod("a/y").on("n2").priority(1).cpu("2").label("app", "x"))
      .add(pdb("a/x").match_label("app", "x").allowed(1))
      .add(pod("b/p-0").priority(10).cpu("2"))
      .add(pod("b/p-1").priority(10).cpu("2"));
  model::Snapshot snap = c.snapshot();
  auto all = items(c, {"b/p-0", "b/p-1"});
  run_default(snap, all);
  CHECK(all[0].decisions.front().victims.front().reason.code == policy::Code::victim);
  // The budget allowed one disruption, which the first pod used.
  CHECK(all[1].decisions.front().victims.front().reason.code == policy::Code::pdb_violation);
}

TEST_CASE("the queue order is priority, then creation, then input", "[scenario][sequence]") {
  Cluster c;
  c.add(node("n1").cpu("4"))
      .add(pod("a/late").priority(5).created("2026-01-01T00:00:00Z"))
      .add(pod("a/now").priority(5))
      .add(pod("a/early").priority(5).created("2025-12-01T00:00:00Z"))
      .add(pod("a/low").priority(1))
      .add(pod("a/high").priority(9));
  const model::Snapshot& snap = c.snapshot();
  auto all = items(c, {"a/late", "a/now", "a/low", "a/early", "a/high"});
  scenario::sort_queue_order(snap, all);
  CHECK(all[0].preemptor == c.pod_id("a/high"));
  CHECK(all[1].preemptor == c.pod_id("a/early"));
  CHECK(all[2].preemptor == c.pod_id("a/late"));
  CHECK(all[3].preemptor == c.pod_id("a/now"));  // not queued yet: after those that are
  CHECK(all[4].preemptor == c.pod_id("a/low"));
}

TEST_CASE("a scenario's placed and pending counts are compared", "[scenario][sequence]") {
  scenario::Expect e;
  e.outcome = "unschedulable";
  e.placed = 3;
  e.pending = 2;
  policy::Decision d;
  d.outcome = policy::Outcome::unschedulable;
  CHECK(scenario::compare(e, d, scenario::Placements{4, 2}) ==
        std::vector<std::string>{"4 placed, expected 3"});
  // One preemptor counts as one placed or one pending.
  e.placed = 0;
  e.pending = 1;
  CHECK(scenario::compare(e, d).empty());
}
