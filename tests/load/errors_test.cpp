// SPDX-License-Identifier: Apache-2.0
// Every loader diagnostic, word for word, and how much input each one abandons.
#include "load/load_support.h"

#include <catch2/catch.hpp>

namespace kpreempt::load {
namespace {

using testing::messages_for;
using V = std::vector<std::string>;

std::string pod_with(std::string_view spec_lines) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  namespace: team-a\nspec:\n" +
         std::string(spec_lines);
}

TEST_CASE("a bad quantity names the object, the field path and the text", "[load]") {
  CHECK(messages_for(pod_with("  containers:\n  - name: c\n    resources:\n      requests:\n"
                              "        cpu: 1.5.0\n")) ==
        V{"dump.yaml:11:14: error: Pod team-a/x: spec.containers[0].resources.requests.cpu: "
          "\"1.5.0\" is not a quantity"});
}

TEST_CASE("resource names that are not identifiers are bracketed in paths", "[load]") {
  CHECK(messages_for(pod_with("  overhead:\n    example.com/gpu: lots\n")) ==
        V{"dump.yaml:8:22: error: Pod team-a/x: spec.overhead[example.com/gpu]: \"lots\" is not "
          "a quantity"});
}

TEST_CASE("a quoted integer is refused", "[load]") {
  CHECK(messages_for(pod_with("  priority: \"32\"\n")) ==
        V{"dump.yaml:7:13: error: Pod team-a/x: spec.priority: expected an integer, got \"32\""});
  CHECK(messages_for(pod_with("  priority: high\n")) ==
        V{"dump.yaml:7:13: error: Pod team-a/x: spec.priority: expected an integer, got \"high\""});
}

TEST_CASE("an integer out of int32 range is refused", "[load]") {
  CHECK(messages_for(pod_with("  priority: 3000000000\n")) ==
        V{"dump.yaml:7:13: error: Pod team-a/x: spec.priority: expected an integer from "
          "-2147483648 to 2147483647, got \"3000000000\""});
}

TEST_CASE("a bad time is refused", "[load]") {
  CHECK(messages_for(pod_with("  nodeName: n\nstatus:\n  startTime: yesterday\n")) ==
        V{"dump.yaml:9:14: error: Pod team-a/x: status.startTime: \"yesterday\" is not an RFC "
          "3339 time"});
}

TEST_CASE("a bad boolean and a map in place of a string are refused", "[load]") {
  CHECK(messages_for("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\nspec:\n"
                     "  unschedulable: \"yes\"\n") ==
        V{"dump.yaml:6:18: error: Node n: spec.unschedulable: expected true or false, got "
          "\"yes\""});
  CHECK(messages_for(pod_with("  nodeName: {a: b}\n")) ==
        V{"dump.yaml:7:13: error: Pod team-a/x: spec.nodeName: expected a string, got a map"});
}

TEST_CASE("a duplicate key is refused where it repeats", "[load]") {
  CHECK(messages_for("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    a: 1\n"
                     "    a: 2\n") ==
        V{"dump.yaml:7:5: error: Node n: metadata.labels: duplicate key \"a\", already defined at "
          "line 6"});
}

TEST_CASE("an object without kind or name is refused", "[load]") {
  CHECK(messages_for("apiVersion: v1\nmetadata:\n  name: n\n") ==
        V{"dump.yaml:1:1: error: object has no kind"});
  CHECK(messages_for("apiVersion: v1\nkind: Node\nmetadata: {}\n") ==
        V{"dump.yaml:3:11: error: Node: metadata.name: required field is missing"});
}

TEST_CASE("a bad object is abandoned and the next one still loads", "[load]") {
  auto l = testing::load_text(pod_with("  priority: \"1\"\n") + "---\n" + pod_with(""));
  CHECK(l.messages.size() == 1);
  CHECK(l.snapshot.pods().size() == 1);
}

TEST_CASE("a syntax error abandons the rest of the file", "[load]") {
  auto l = testing::load_text(pod_with("") + "---\na: b: c\n---\n" + pod_with(""));
  CHECK(l.messages == V{"dump.yaml:8:5: error: mapping values are not allowed in this context"});
  CHECK(l.snapshot.pods().size() == 1);
}

TEST_CASE("aliases are refused with a position", "[load]") {
  CHECK(messages_for("apiVersion: v1\nkind: Node\nmetadata:\n  name: *n\n") ==
        V{"dump.yaml:4:9: error: YAML aliases are not supported"});
}

TEST_CASE("JSON errors carry line and column", "[load]") {
  CHECK(messages_for("{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n \"metadata\": {\"name\": "
                     "\"x\"},\n \"spec\": {\"priority\": \"5\"}}",
                     "dump.json") ==
        V{"dump.json:3:23: error: Pod default/x: spec.priority: expected an integer, got \"5\""});
  CHECK(messages_for("{\"kind\": \"Pod\",\n \"metadata\": {\"name\": \"x\"]}", "dump.json") ==
        V{"dump.json:2:26: error: missing a comma or '}' after an object member"});
}

TEST_CASE("positions stay right after a byte order mark and CRLF line ends", "[load]") {
  CHECK(messages_for("\xEF\xBB\xBF"
                     "apiVersion: v1\r\nkind: Pod\r\nmetadata:\r\n  name: x\r\n"
                     "spec:\r\n  priority: \"1\"\r\n") ==
        V{"dump.yaml:6:13: error: Pod default/x: spec.priority: expected an integer, got \"1\""});
  CHECK(messages_for("\xEF\xBB\xBF{\"kind\": \"Pod\",\r\n\"metadata\": {\"name\": \"x\"},\r\n"
                     "\"spec\": {\"priority\": 1.5}}",
                     "dump.json") ==
        V{"dump.json:3:22: error: Pod default/x: spec.priority: expected an integer, got \"1.5\""});
}

TEST_CASE("a missing file is reported without a position", "[load]") {
  model::SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  load_path("no-such-file.yaml", LoadOptions{}, builder, diags);
  REQUIRE(diags.size() == 1);
  CHECK(format(diags[0]) ==
        "kpreempt: error: cannot open \"no-such-file.yaml\": No such file or directory");
}

}  // namespace
}  // namespace kpreempt::load
