// SPDX-License-Identifier: Apache-2.0
// YuniKorn queues.yaml parsing: strictness, quantities, positions inside a dump, and the queue
// tree built from it (root insertion, property inheritance).
#include "load/queues_yaml.h"

#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"
#include "kpreempt/model/snapshot.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace kpreempt {
namespace {

model::YunikornConfig parse(const std::string& text) {
  return load::parse_queues_yaml(text, load::QueuesYamlOrigin{.file = "q.yaml",
                                                              .first_line = 1,
                                                              .first_column = 1,
                                                              .indent = 0,
                                                              .block = true,
                                                              .what = "queues.yaml"});
}

std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return format(Diagnostic{Severity::error, e.loc(), e.what()});
  }
  return "";
}

constexpr const char* k_dump = R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
  namespace: yunikorn
data:
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            queues:
              - name: a
                resourcez: {}
)";

}  // namespace

TEST_CASE("queue quantities follow YuniKorn's grammar with vcore in millicores",
          "[load][yunikorn]") {
  CHECK(model::parse_yk_quantity("vcore", "2") == 2000);
  CHECK(model::parse_yk_quantity("vcore", "500m") == 500);
  CHECK(model::parse_yk_quantity("memory", "1Gi") == (1LL << 30));
  CHECK(model::parse_yk_quantity("memory", "2k") == 2000);
  CHECK_FALSE(model::parse_yk_quantity("memory", "500m"));
  CHECK_FALSE(model::parse_yk_quantity("vcore", "1.5"));
  CHECK_FALSE(model::parse_yk_quantity("vcore", "-1"));
  CHECK_FALSE(model::parse_yk_quantity("vcore", "2e3"));
}

TEST_CASE("an unknown field rejects the file at its line", "[load][yunikorn]") {
  const std::string err = parse_error(
      "partitions:\n  - name: default\n    queues:\n      - name: root\n        maxapps: 3\n");
  CHECK(err ==
        "q.yaml:5:9: error: queues.yaml: partitions[0].queues[0]: unknown field \"maxapps\"");
}

TEST_CASE("a bad quantity names the resource and the text", "[load][yunikorn]") {
  const std::string err = parse_error(
      "partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n"
      "          - name: a\n            resources:\n              guaranteed: {vcore: 1.5}\n");
  CHECK(err.find("partitions[0].queues[0].queues[0].resources.guaranteed.vcore: \"1.5\" is not "
                 "a quantity") != std::string::npos);
}

TEST_CASE("errors inside a ConfigMap block scalar point at the dump's own line and column",
          "[load][yunikorn]") {
  model::SnapshotBuilder b;
  std::vector<Diagnostic> diags;
  load::load_buffer(k_dump, "dump.yaml", b, diags);
  REQUIRE(diags.size() == 1);
  // The in-memory buffer cannot be re-read, so the kubectl indentation (4) is assumed.
  CHECK(diags[0].loc.line == 14);
  CHECK(diags[0].loc.column == 17);
  CHECK(diags[0].message.find("unknown field \"resourcez\"") != std::string::npos);
}

TEST_CASE("a root queue is inserted above several top-level queues", "[load][yunikorn]") {
  model::YunikornConfig c =
      parse("partitions:\n  - name: default\n    queues:\n      - name: A\n      - name: b\n");
  std::vector<model::YkQueue> qs = model::build_yk_queues(c.partitions[0]);
  REQUIRE(qs.size() == 3);
  CHECK(qs[0].path == "root");
  CHECK(qs[1].path == "root.a");
  CHECK(qs[2].path == "root.b");
  CHECK(qs[1].leaf);
}

TEST_CASE(
    "children inherit a disabled preemption policy and the delay but never priority "
    "settings",
    "[load][yunikorn]") {
  model::YunikornConfig c = parse(
      "partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n"
      "          - name: p\n            properties:\n              preemption.policy: Disabled\n"
      "              preemption.delay: 2m\n              priority.offset: \"10\"\n"
      "            queues:\n              - name: leaf\n");
  std::vector<model::YkQueue> qs = model::build_yk_queues(c.partitions[0]);
  REQUIRE(qs.size() == 3);
  const model::YkQueue& leaf = qs[2];
  CHECK(*model::find(leaf.properties, "preemption.policy") == "disabled");
  CHECK(*model::find(leaf.properties, "preemption.delay") == "2m");
  CHECK(model::find(leaf.properties, "priority.offset") == nullptr);
}

TEST_CASE("an all-zero guarantee is discarded and a map with one positive value is kept",
          "[load][yunikorn]") {
  model::YunikornConfig c = parse(
      "partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n"
      "          - name: a\n            resources:\n              guaranteed: {vcore: 0}\n"
      "              max: {vcore: 0, memory: 1Ki}\n");
  const model::YkQueueConfig& a = c.partitions[0].queues[0].queues[0];
  CHECK_FALSE(a.resources.guaranteed);
  REQUIRE(a.resources.max);
  CHECK(a.resources.max->size() == 2);
}

TEST_CASE("duplicate sibling queues and resources on root reject the file", "[load][yunikorn]") {
  CHECK(parse_error("partitions:\n  - name: default\n    queues:\n      - name: root\n"
                    "        queues:\n          - name: a\n          - name: A\n")
            .find("duplicate queue name") != std::string::npos);
  CHECK(parse_error("partitions:\n  - name: default\n    queues:\n      - name: root\n"
                    "        resources:\n          max: {vcore: 1}\n")
            .find("root queue must not have resources set") != std::string::npos);
}

}  // namespace kpreempt
