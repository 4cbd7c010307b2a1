// SPDX-License-Identifier: Apache-2.0
// YAML read as kubectl's reader (go-yaml v2, YAML 1.1) reads it, or refused where kpreempt
// does not follow it: integers and booleans, merge keys, Lists that would lose items.
#include "load_support.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace kpreempt::load {
namespace {

using testing::load_text;
using testing::Loaded;
using testing::messages_for;

std::string pod_with_priority(const std::string& priority) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: a\nspec:\n  priority: " +
         priority + "\n  containers:\n  - name: c\n";
}

std::string class_with_default(const std::string& value) {
  return "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: pc\n"
         "value: 10\nglobalDefault: " +
         value + "\n";
}

}  // namespace

TEST_CASE("integers are read with YAML 1.1 rules as kubectl reads them", "[load][yaml]") {
  const std::vector<std::pair<std::string, int>> cases = {
      {"0144", 100},   {"0o144", 100}, {"0x1F", 31}, {"0X1f", 31}, {"0b101", 5}, {"+12", 12},
      {"1_000", 1000}, {"-0x10", -16}, {"0", 0},     {"-0", 0},    {"08", 8},    {"0_17", 15},
  };
  for (const auto& [text, value] : cases) {
    CAPTURE(text);
    Loaded l = load_text(pod_with_priority(text));
    CHECK(l.messages.empty());
    REQUIRE(l.snapshot.pods().size() == 1);
    CHECK(l.snapshot.pods()[0].priority == value);
  }
  for (const char* bad : {"0x", "0b2", "_1", "1e", "0o8"}) {
    CAPTURE(bad);
    CHECK(messages_for(pod_with_priority(bad)) ==
          std::vector<std::string>{"dump.yaml:7:13: error: Pod a/p: spec.priority: expected an "
                                   "integer, got \"" +
                                   std::string(bad) + "\""});
  }
}

TEST_CASE("booleans take YAML 1.1's yes, no, on, off and y, n", "[load][yaml]") {
  for (const char* yes : {"true", "True", "yes", "Yes", "YES", "on", "ON", "y", "Y"}) {
    CAPTURE(yes);
    Loaded l = load_text(class_with_default(yes));
    REQUIRE(l.snapshot.priority_classes().size() == 1);
    CHECK(l.snapshot.priority_classes()[0].global_default);
  }
  for (const char* no : {"false", "no", "No", "off", "Off", "n", "N"}) {
    CAPTURE(no);
    Loaded l = load_text(class_with_default(no));
    REQUIRE(l.snapshot.priority_classes().size() == 1);
    CHECK_FALSE(l.snapshot.priority_classes()[0].global_default);
  }
  CHECK(messages_for(class_with_default("\"yes\"")) ==
        std::vector<std::string>{"dump.yaml:6:16: error: PriorityClass pc: globalDefault: "
                                 "expected true or false, got \"yes\""});
}

TEST_CASE("a YAML merge key is refused where it stands, never silently dropped", "[load][yaml]") {
  const std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: a\nspec:\n  containers:\n"
      "  - name: c\n    resources:\n      <<: {requests: {cpu: \"8\"}}\n";
  CHECK(messages_for(pod) ==
        std::vector<std::string>{"dump.yaml:10:7: error: YAML merge keys (<<) are not supported; "
                                 "write the merged fields out in the object"});
  CHECK(messages_for("<<: {kind: Node}\napiVersion: v1\n") ==
        std::vector<std::string>{"dump.yaml:1:1: error: YAML merge keys (<<) are not supported; "
                                 "write the merged fields out in the object"});
  // Quoted, it is an ordinary key.
  CHECK(load_text("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    \"<<\": x\n")
            .messages.empty());
}

TEST_CASE("a List never loses items without a word", "[load][yaml]") {
  SECTION("a List inside a List") {
    CHECK(messages_for("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n"
                       "  - apiVersion: v1\n    kind: Node\n    metadata:\n      name: n\n"
                       "kind: List\n") ==
          std::vector<std::string>{"dump.yaml:6:3: error: List: a List inside a List is not read; "
                                   "put its items in the outer List"});
  }
  SECTION("items as a map") {
    CHECK(
        messages_for("apiVersion: v1\nkind: List\nitems:\n  a: b\n") ==
        std::vector<std::string>{"dump.yaml:4:3: error: List: items: expected a list of objects"});
  }
  SECTION("items twice") {
    CHECK(messages_for("apiVersion: v1\nitems: []\nkind: List\nitems:\n- kind: Node\n") ==
          std::vector<std::string>{
              "dump.yaml:4:1: error: List: duplicate key \"items\", already defined at line 2"});
  }
  SECTION("but an empty List may say items: null") {
    CHECK(messages_for("apiVersion: v1\nitems: null\nkind: List\n").empty());
  }
}

}  // namespace kpreempt::load
