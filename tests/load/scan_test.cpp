// SPDX-License-Identifier: Apache-2.0
// Two versions of one object as written: its key, and the line where the newer one differs.
#include "kpreempt/load/scan.h"

#include <catch2/catch.hpp>

namespace kpreempt::load {
namespace {

ScannedObject scan_one(const std::string& text, const std::string& name) {
  std::vector<ScannedObject> out;
  std::vector<Diagnostic> diags;
  scan_buffer(text, name, out, diags);
  REQUIRE(diags.empty());
  REQUIRE(out.size() == 1);
  return out[0];
}

constexpr const char* k_base = R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
  namespace: yunikorn
  resourceVersion: "1"
data:
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            resources:
              guaranteed: {vcore: 1}
)";

}  // namespace

TEST_CASE("an object's key is the one the loader knows it by", "[load][diff]") {
  CHECK(object_key(scan_one(k_base, "a.yaml")) == "/ConfigMap/yunikorn/yunikorn-configs");
  CHECK(object_key(scan_one("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
                            "metadata: {name: high}\nvalue: 1\n",
                            "b.yaml")) == "scheduling.k8s.io/PriorityClass//high");
  CHECK(object_key(scan_one("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n", "c.yaml"))
            .empty());
}

TEST_CASE("the line where a later version of an object differs", "[load][diff]") {
  const ScannedObject base = scan_one(k_base, "base.yaml");
  // Only what the cluster writes differs: no line.
  std::string same = k_base;
  same.replace(same.find("\"1\""), 3, "\"2\"");
  CHECK_FALSE(changed_line(base, scan_one(same, "head.yaml")));
  // Inside a block scalar: the line of the value where they part.
  std::string inside = k_base;
  inside.replace(inside.find("vcore: 1"), 8, "vcore: 4");
  const std::optional<SourceLoc> in_block = changed_line(base, scan_one(inside, "head.yaml"));
  REQUIRE(in_block);
  CHECK(in_block->file == "head.yaml");
  CHECK(in_block->line == 14);
  // A member added: its key.
  const std::optional<SourceLoc> added =
      changed_line(base, scan_one(std::string(k_base) + "immutable: true\n", "head.yaml"));
  REQUIRE(added);
  CHECK(added->line == 15);
  // A member gone: the map that lost it.
  std::string gone = k_base;
  gone.erase(gone.find("  namespace: yunikorn\n"), 22);
  const std::optional<SourceLoc> at = changed_line(base, scan_one(gone, "head.yaml"));
  REQUIRE(at);
  CHECK(at->line == 4);
}

}  // namespace kpreempt::load
