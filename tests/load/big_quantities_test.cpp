// SPDX-License-Identifier: Apache-2.0
// Amounts the API server accepts and upstream can hold: memory far beyond int64 milli-units
// loads (upstream compares it in whole units); what upstream cannot hold is refused, naming
// the limit.
#include "load/load_support.h"

#include "kpreempt/model/kueue.h"
#include "kpreempt/model/resources.h"

#include <catch2/catch.hpp>

namespace kpreempt::load {
namespace {

using testing::load_text;
using testing::messages_for;
using testing::real_fixture;
using V = std::vector<std::string>;

std::string pod_requesting(std::string_view requests) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  namespace: a\nspec:\n"
         "  containers:\n  - name: c\n    resources:\n      requests: " +
         std::string(requests) + "\n";
}

TEST_CASE("a memory quota beyond int64 milli-units loads in whole bytes", "[load][real]") {
  const auto loaded = load_text(real_fixture("kueue-big-quota.yaml"), "kueue-big-quota.yaml");
  REQUIRE(loaded.messages.empty());
  const auto& cqs = loaded.snapshot.kueue().cluster_queues;
  REQUIRE(cqs.size() == 1);
  const model::Quantity memory = cqs[0].resource_groups[0].flavors[0].resources[1].nominal;
  CHECK(model::kueue_amount("memory", memory) == 1073741824000000000);
  CHECK(model::to_string(memory, true) == "1000000000Gi");
}

TEST_CASE("a pod asking for exbibytes of memory loads; the same in cpu does not", "[load][real]") {
  const auto loaded = load_text(pod_requesting("{memory: 7Ei}"));
  REQUIRE(loaded.messages.empty());
  const auto id = loaded.snapshot.find_pod("a", "x");
  REQUIRE(id);
  CHECK(model::pod_requests(loaded.snapshot.pods()[*id]).memory == 8070450532247928832);
  CHECK(messages_for(pod_requesting("{cpu: 10P}")) ==
        V{"dump.yaml:10:23: error: Pod a/x: spec.containers[0].resources.requests.cpu: \"10P\" is "
          "out of range: cpu is compared in int64 milli-units (MilliValue), at most "
          "9223372036854775807m"});
}

TEST_CASE("an amount no resource can hold names the int64 limit", "[load][real]") {
  CHECK(messages_for(pod_requesting("{memory: 8Ei}")) ==
        V{"dump.yaml:10:26: error: Pod a/x: spec.containers[0].resources.requests.memory: "
          "\"8Ei\" is out of range: a resource is compared in int64 whole units (Value), at most "
          "9223372036854775807"});
}

TEST_CASE("requests that add up beyond int64 are an error, not a wrapped sum", "[load][real]") {
  const std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  namespace: a\nspec:\n  containers:\n"
      "  - name: a\n    resources:\n      requests: {memory: 6Ei}\n"
      "  - name: b\n    resources:\n      requests: {memory: 6Ei}\n";
  CHECK(messages_for(pod) ==
        V{"dump.yaml:7:3: error: Pod a/x: spec: total requests out of range: memory is compared "
          "in int64 whole units (Value), at most 9223372036854775807"});
}

TEST_CASE("a Workload's count times its request beyond int64 is an error", "[load][real]") {
  CHECK(messages_for(real_fixture("kueue-count-overflow.yaml"), "w.yaml") ==
        V{"w.yaml:12:12: error: Workload default/huge: spec.podSets[0].count: total requests out "
          "of range: 2000000000 pods request more memory than Kueue can count (int64, at most "
          "9223372036854775807)"});
}

}  // namespace
}  // namespace kpreempt::load
