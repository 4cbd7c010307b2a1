// SPDX-License-Identifier: Apache-2.0
// Top-level shapes (documents, Lists, items before kind), kind dispatch and skipping.
#include "load/load_support.h"

#include <catch2/catch.hpp>

namespace kpreempt::load {
namespace {

using testing::load_text;
using V = std::vector<std::string>;

constexpr std::string_view k_node = R"(apiVersion: v1
kind: Node
metadata:
  name: n1
status:
  allocatable:
    cpu: "4"
    pods: '32'
)";

TEST_CASE("a multi-document stream loads every object and ignores empty documents", "[load]") {
  std::string text = "---\n" + std::string(k_node) + "---\n---\n" + R"(apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: ns
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high
value: 1000
...
)";
  auto l = load_text(text);
  CHECK(l.messages.empty());
  CHECK(l.snapshot.nodes().size() == 1);
  CHECK(l.snapshot.pods().size() == 1);
  CHECK(l.snapshot.priority_classes().size() == 1);
  CHECK(l.pods == std::vector<model::ObjectRef>{{"Pod", "ns", "p"}});
}

TEST_CASE("a YAML List whose items come before its kind streams every item", "[load]") {
  auto l = load_text(R"(apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
- apiVersion: v1
  kind: Node
  metadata:
    name: n2
kind: List
metadata:
  resourceVersion: ""
)");
  CHECK(l.messages.empty());
  REQUIRE(l.snapshot.nodes().size() == 2);
  CHECK(l.snapshot.nodes()[1].name == "n2");
  CHECK(l.snapshot.nodes()[1].loc.line == 7);
  CHECK(l.snapshot.nodes()[1].loc.column == 3);
}

TEST_CASE("a JSON List and concatenated JSON objects load alike", "[load]") {
  auto l = load_text(R"({
    "apiVersion": "v1",
    "items": [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a"}}
    ],
    "kind": "List"
}
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n2"}})",
                     "dump.json");
  CHECK(l.messages.empty());
  CHECK(l.snapshot.nodes().size() == 2);
  REQUIRE(l.snapshot.pods().size() == 1);
  CHECK(l.snapshot.pods()[0].loc.file == "dump.json");
  CHECK(l.snapshot.pods()[0].loc.line == 5);
  CHECK(l.snapshot.pods()[0].loc.column == 9);
}

TEST_CASE("unknown kinds are counted, not decoded", "[load]") {
  auto l = load_text(R"(apiVersion: v1
kind: Service
metadata: {name: a}
---
apiVersion: v1
kind: Service
metadata: {name: b}
---
apiVersion: apps/v1
kind: Pod
metadata: {name: not-a-core-pod}
---
kind: PodList
items: null
)");
  CHECK(l.messages.empty());
  CHECK(l.snapshot.pods().empty());
  CHECK(l.snapshot.skipped_kinds() == model::StringMap{{"Pod", "1"}, {"Service", "2"}});
}

TEST_CASE("managed fields, statuses of containers and last-applied configuration are left out",
          "[load]") {
  auto l = load_text(R"(apiVersion: v1
kind: Pod
metadata:
  annotations:
    yunikorn.apache.org/app-id: b
    kubectl.kubernetes.io/last-applied-configuration: |
      {"not": "read"}
  managedFields:
  - fieldsV1: {f:metadata: {}}
    manager: kubectl
    time: not a time
  name: p
spec:
  containers:
  - env:
    - name: A
      value: "1"
    name: c
    resources: {requests: {cpu: 100m}}
status:
  containerStatuses:
  - state: {running: {startedAt: bad}}
)");
  CHECK(l.messages.empty());
  REQUIRE(l.snapshot.pods().size() == 1);
  CHECK(l.snapshot.pods()[0].annotations == model::StringMap{{"yunikorn.apache.org/app-id", "b"}});
}

TEST_CASE("managed fields are skipped in JSON too", "[load]") {
  auto l = load_text(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"managedFields": [
      {"fieldsV1": {"f:spec": {"f:containers": {"k:{\"name\":\"c\"}": {}}}}}], "name": "p"}})",
                     "dump.json");
  CHECK(l.messages.empty());
  CHECK(l.snapshot.pods().size() == 1);
}

TEST_CASE("top-level scalars other than null are refused", "[load]") {
  CHECK(testing::messages_for("hello\n") ==
        V{"dump.yaml:1:1: error: expected a Kubernetes object, got \"hello\""});
  CHECK(testing::messages_for("# only a comment\n").empty());
}

}  // namespace
}  // namespace kpreempt::load
