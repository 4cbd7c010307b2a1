// SPDX-License-Identifier: Apache-2.0
// CapacityScheduling: ElasticQuota decoding, the quota arithmetic quirks, and the policy end to
// end on small clusters (reclaiming borrowed quota, same-namespace mode, eligibility).
#include "kpreempt/policy/capacity.h"

#include "load/load_support.h"
#include "policy/capacity/internal.h"
#include "support/reasons.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace kpreempt::policy {
namespace {

using load::testing::load_text;

std::string node(const std::string& name, const std::string& cpu) {
  return "---\napiVersion: v1\nkind: Node\nmetadata: {name: " + name +
         "}\nstatus: {allocatable: {cpu: \"" + cpu + "\", memory: 64Gi, pods: \"110\"}}\n";
}

std::string quota(const std::string& ns, const std::string& spec) {
  return "---\napiVersion: scheduling.x-k8s.io/v1alpha1\nkind: ElasticQuota\nmetadata: {name: "
         "eq, namespace: " +
         ns + "}\nspec: " + spec + "\n";
}

// A pod requesting `cpu`; bound to `node_name` unless it is empty. `extra` goes under spec.
std::string pod(const std::string& ns, const std::string& name, const std::string& node_name,
                int priority, const std::string& cpu, const std::string& start = "",
                const std::string& extra = "") {
  std::string out = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
                    ", namespace: " + ns + "}\nspec:\n  priority: " + std::to_string(priority) +
                    "\n";
  if (!node_name.empty()) {
    out += "  nodeName: " + node_name + "\n";
  }
  out += extra;
  out += "  containers: [{name: c, resources: {requests: {cpu: \"" + cpu + "\"}}}]\n";
  out += node_name.empty()
             ? "status: {phase: Pending}\n"
             : "status: {phase: Running, startTime: '" +
                   (start.empty() ? std::string("2025-12-31T10:00:00Z") : start) + "'}\n";
  return out;
}

Decision decide(const std::string& yaml, const std::string& ns, const std::string& name) {
  auto loaded = load_text(yaml);
  REQUIRE(loaded.messages.empty());
  const auto id = loaded.snapshot.find_pod(ns, name);
  REQUIRE(id.has_value());
  const Args args;
  const Input in{loaded.snapshot, *id, *model::parse_time("2026-01-01T00:00:00Z"), args};
  return decide_capacity(in);
}

std::vector<std::string> victim_names(const Decision& d) {
  std::vector<std::string> out;
  for (const Victim& v : d.victims) {
    out.push_back(v.ref.namespace_ + "/" + v.ref.name);
  }
  return out;
}

const PodVerdict* verdict(const Decision& d, const std::string& node_name,
                          const std::string& pod_name) {
  for (const NodeVerdict& n : d.nodes) {
    for (const PodVerdict& p : n.pods) {
      if (n.node == node_name && p.pod.name == pod_name) {
        return &p;
      }
    }
  }
  return nullptr;
}

model::Resources cpu_mem(std::int64_t milli, std::int64_t mem) {
  model::Resources r;
  r.cpu_milli = milli;
  r.memory = mem;
  return r;
}

TEST_CASE("a resource missing from a present max is a bound of zero", "[policy][capacity]") {
  model::Resources max = cpu_mem(6000, 0);
  CHECK(capacity::exceeds(cpu_mem(1000, 1), {}, max, capacity::k_upper_bound_of_max));
  CHECK_FALSE(capacity::exceeds(cpu_mem(1000, 0), {}, max, capacity::k_upper_bound_of_max));
}

TEST_CASE("a scalar resource missing from max is unlimited but missing from min is zero",
          "[policy][capacity]") {
  model::Resources req;
  req.set("nvidia.com/gpu", 2);
  CHECK_FALSE(capacity::exceeds(req, {}, cpu_mem(0, 0), capacity::k_upper_bound_of_max));
  CHECK(capacity::exceeds(req, {}, cpu_mem(0, 0), capacity::k_lower_bound_of_min));
}

TEST_CASE("sitting exactly at min is not over min", "[policy][capacity]") {
  CHECK_FALSE(capacity::exceeds(cpu_mem(3, 0), {}, cpu_mem(3, 0), 0));
  CHECK(capacity::exceeds(cpu_mem(3, 0), cpu_mem(1, 0), cpu_mem(3, 0), 0));
}

TEST_CASE("the capacity pod request ignores sidecars and takes the init container maximum",
          "[policy][capacity]") {
  model::Pod p;
  model::Container c;
  c.requests = {{"cpu", model::Quantity::from_milli(1000)}};
  p.containers = {c};
  model::Container init = c;
  init.requests = {{"cpu", model::Quantity::from_milli(3000)}};
  model::Container sidecar = c;
  sidecar.restart_always = true;
  p.init_containers = {init, sidecar};
  p.overhead = {{"cpu", model::Quantity::from_milli(100)}};
  CHECK(model::capacity_pod_request(p).cpu_milli == 3100);
}

TEST_CASE("an ElasticQuota keeps an absent max apart from an empty one", "[policy][capacity]") {
  auto loaded =
      load_text(quota("a", "{min: {cpu: \"1\"}}") + quota("b", "{min: {cpu: \"1\"}, max: {}}"));
  REQUIRE(loaded.messages.empty());
  const auto& quotas = loaded.snapshot.capacity().quotas;
  REQUIRE(quotas.size() == 2);
  CHECK_FALSE(quotas[0].max.has_value());
  REQUIRE(quotas[1].max.has_value());
  CHECK(quotas[1].max->empty());
  const capacity::QuotaState state(loaded.snapshot);
  CHECK(state.find("a")->max.cpu_milli == capacity::k_upper_bound_of_max);
  CHECK(state.find("b")->max.cpu_milli == 0);
}

TEST_CASE("an empty max rejects every request in PreFilter", "[policy][capacity]") {
  const Decision d = decide(
      node("n1", "8") + quota("a", "{min: {cpu: \"1\"}, max: {}}") + pod("a", "p", "", 0, "100m"),
      "a", "p");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(testing::reason_texts(d).front() == "no-candidates");
  CHECK(testing::has_reason(d, "prefilter:over-max"));
}

TEST_CASE("a borrowing namespace is reclaimed regardless of priority", "[policy][capacity]") {
  const std::string yaml = node("n1", "4") + quota("a", "{min: {cpu: \"2\"}, max: {cpu: \"4\"}}") +
                           quota("b", "{min: {cpu: \"2\"}, max: {cpu: \"4\"}}") +
                           pod("b", "b1", "n1", 1000, "2", "2025-12-31T08:00:00Z") +
                           pod("b", "b2", "n1", 1000, "2", "2025-12-31T09:00:00Z") +
                           pod("a", "p", "", 10, "2");
  const Decision d = decide(yaml, "a", "p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(d.node == "n1");
  // b2 started later, so the walk meets it first; once it is gone b is back at its min and b1
  // is no longer a candidate.
  CHECK(victim_names(d) == std::vector<std::string>{"b/b2"});
  CHECK(d.victims[0].queue == "b/eq");
  CHECK(d.victims[0].reason == policy::Code::victim_node_fit);
  REQUIRE(verdict(d, "n1", "b1") != nullptr);
  CHECK(verdict(d, "n1", "b1")->code == policy::Code::quota_not_over_min);
  CHECK(testing::has_reason(d, "prefilter:aggregated-over-min"));
}

TEST_CASE("a quota above min with the request only preempts its own lower-priority pods",
          "[policy][capacity]") {
  const std::string yaml = node("n1", "4") + quota("a", "{min: {cpu: \"1\"}, max: {cpu: \"8\"}}") +
                           quota("b", "{min: {cpu: \"8\"}, max: {cpu: \"8\"}}") +
                           pod("a", "low", "n1", 0, "2") + pod("a", "same", "n1", 10, "1") +
                           pod("b", "other", "n1", 0, "1") + pod("a", "p", "", 10, "2");
  const Decision d = decide(yaml, "a", "p");
  REQUIRE(d.outcome == Outcome::preempt);
  CHECK(victim_names(d) == std::vector<std::string>{"a/low"});
  CHECK(verdict(d, "n1", "same")->code == policy::Code::not_lower_priority);
  CHECK(verdict(d, "n1", "other")->code == policy::Code::other_namespace);
}

TEST_CASE("a preemptor without a quota never touches pods of quota namespaces",
          "[policy][capacity]") {
  const std::string yaml = node("n1", "2") + quota("a", "{min: {cpu: \"8\"}}") +
                           pod("a", "managed", "n1", 0, "2") + pod("free", "p", "", 10, "2");
  const Decision d = decide(yaml, "free", "p");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(verdict(d, "n1", "managed")->code == policy::Code::quota_managed);
  const nlohmann::json details = d.details;
  CHECK(details["prefilter"]["mode"] == "no-quota");
}

TEST_CASE("preemptionPolicy Never cannot trigger preemption", "[policy][capacity]") {
  const std::string yaml = node("n1", "2") + quota("a", "{min: {cpu: \"8\"}}") +
                           pod("a", "low", "n1", 0, "2") +
                           pod("a", "p", "", 10, "2", "", "  preemptionPolicy: Never\n");
  const Decision d = decide(yaml, "a", "p");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(testing::reason_texts(d).front() == "cannot-trigger-preemption");
}

TEST_CASE("a candidate failing both the node and the quota check drops the node",
          "[policy][capacity]") {
  // The nominated ns pod pushes the reprieve's quota check over max while PreFilter's own
  // request alone is within it: upstream removes the pod twice and the node errors.
  const std::string yaml =
      node("n1", "2") + node("n2", "4") + quota("a", "{min: {cpu: \"4\"}, max: {cpu: \"4\"}}") +
      pod("a", "v", "n1", 0, "2") +
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: nom, namespace: a}\nspec:\n  priority: "
      "100\n  containers: [{name: c, resources: {requests: {cpu: \"3\"}}}]\nstatus: {phase: "
      "Pending, nominatedNodeName: n2}\n" +
      pod("a", "p", "", 100, "2");
  const Decision d = decide(yaml, "a", "p");
  CHECK(d.outcome == Outcome::unschedulable);
  REQUIRE(d.nodes.size() == 2);
  CHECK(d.nodes[0].code == policy::Code::error_removed_twice);
  CHECK(d.nodes[1].code == policy::Code::no_potential_victims);
}

TEST_CASE("the quota table shows usage before and after the preemption", "[policy][capacity]") {
  const std::string yaml = node("n1", "4") + quota("a", "{min: {cpu: \"2\"}, max: {cpu: \"4\"}}") +
                           quota("b", "{min: {cpu: \"2\"}, max: {cpu: \"4\"}}") +
                           pod("b", "b1", "n1", 0, "2", "2025-12-31T08:00:00Z") +
                           pod("b", "b2", "n1", 0, "2", "2025-12-31T09:00:00Z") +
                           pod("a", "p", "", 0, "2");
  const Decision d = decide(yaml, "a", "p");
  REQUIRE(d.tables.size() == 1);
  REQUIRE(d.tables[0].rows.size() == 3);
  CHECK(d.tables[0].rows[1][3] == "cpu=4");
  CHECK(d.tables[0].rows[1][4] == "cpu=2");
  const nlohmann::json details = d.details;
  CHECK(details["quotas"][0]["used_after"]["cpu_milli"] == 2000);
  CHECK(details["prefilter"]["mode"] == "reclaim-borrowed");
}

}  // namespace
}  // namespace kpreempt::policy
