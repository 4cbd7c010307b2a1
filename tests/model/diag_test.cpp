// SPDX-License-Identifier: Apache-2.0
// Diagnostic rendering, object references, policy args and outcome names.

#include "kpreempt/diag.h"

#include "kpreempt/model/objects.h"
#include "kpreempt/policy/policy.h"

#include <catch2/catch.hpp>

using namespace kpreempt;

TEST_CASE("diagnostics print the known part of their location", "[model][diag]") {
  CHECK(format({Severity::error, {"a.yaml", 3, 7}, "Pod ns/x: bad"}) ==
        "a.yaml:3:7: error: Pod ns/x: bad");
  CHECK(format({Severity::warning, {"a.yaml", 3, 0}, "m"}) == "a.yaml:3: warning: m");
  CHECK(format({Severity::note, {"a.yaml", 0, 0}, "m"}) == "a.yaml: note: m");
  CHECK(format({Severity::error, {"", 3, 7}, "m"}) == "kpreempt: error: m");
}

TEST_CASE("object references name namespaced and cluster objects", "[model][diag]") {
  CHECK(model::to_string(model::ObjectRef{"Pod", "ns", "x"}) == "Pod/ns/x");
  CHECK(model::to_string(model::ObjectRef{"Node", "", "n1"}) == "Node/n1");
}

TEST_CASE("sorted maps are searched by key", "[model][diag]") {
  const model::StringMap m{{"a", "1"}, {"b", "2"}, {"d", "4"}};
  REQUIRE(model::find(m, "b") != nullptr);
  CHECK(*model::find(m, "b") == "2");
  CHECK(model::find(m, "c") == nullptr);
  CHECK(model::find(m, "e") == nullptr);
  CHECK(model::find({}, "a") == nullptr);
  const model::ResourceList r{{"cpu", model::Quantity::from_milli(5)}};
  CHECK(model::get(r, "cpu").milli() == 5);
  CHECK(model::get(r, "memory").milli() == 0);
}

TEST_CASE("integer policy args parse or fail naming the key", "[model][args]") {
  const policy::Args args(model::StringMap{{"DefaultPreemption.a", "10"},
                                           {"DefaultPreemption.b", "-3"},
                                           {"DefaultPreemption.c", "+4"},
                                           {"DefaultPreemption.x", "abc"},
                                           {"DefaultPreemption.y", "1.5"},
                                           {"DefaultPreemption.z", ""}});
  CHECK(args.get_int("DefaultPreemption.a", 0) == 10);
  CHECK(args.get_int("DefaultPreemption.b", 0) == -3);
  CHECK(args.get_int("DefaultPreemption.c", 0) == 4);
  CHECK(args.get_int("DefaultPreemption.missing", 42) == 42);
  CHECK_THROWS_WITH(args.get_int("DefaultPreemption.x", 0),
                    "--set DefaultPreemption.x: \"abc\" is not an integer");
  CHECK_THROWS_WITH(args.get_int("DefaultPreemption.y", 0),
                    "--set DefaultPreemption.y: \"1.5\" is not an integer");
  CHECK_THROWS_AS(args.get_int("DefaultPreemption.z", 0), UsageError);
}

TEST_CASE("outcomes have stable names", "[model][args]") {
  CHECK(policy::to_string(policy::Outcome::fits) == "fits");
  CHECK(policy::to_string(policy::Outcome::preempt) == "preempt");
  CHECK(policy::to_string(policy::Outcome::unschedulable) == "unschedulable");
}

TEST_CASE("echoed input cannot forge lines, colours or bytes", "[model][diag]") {
  CHECK(printable("team-a/trainer-0") == "team-a/trainer-0");
  CHECK(printable("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x9a\x80") ==
        "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x9a\x80");
  CHECK(printable("a\x1b[31mred\x7f") == "a\\x1b[31mred\\x7f");
  CHECK(printable("one\ntwo\r") == "one\\x0atwo\\x0d");
  CHECK(printable("one\ntwo", true) == "one\ntwo");
  CHECK(printable("tab\there") == "tab\there");
  CHECK(printable("csi\xc2\x9b"
                  "2J nbsp\xc2\xa0") == "csi\\u009b2J nbsp\xc2\xa0");
  CHECK(printable("latin1 \xe9t\xe9") == "latin1 \\xe9t\\xe9");
  CHECK(printable("overlong \xc0\xaf surrogate \xed\xa0\x80 cut \xe2\x9c") ==
        "overlong \\xc0\\xaf surrogate \\xed\\xa0\\x80 cut \\xe2\\x9c");
  CHECK(printable(std::string_view("nul\0end", 7)) == "nul\\x00end");
}

TEST_CASE("a diagnostic is one line whatever its file name and message hold", "[model][diag]") {
  CHECK(format(Diagnostic{Severity::error, SourceLoc{"x\n::error::forged.yaml", 3, 1},
                          "Pod a/b: value \"\x1b]0;title\x07\""}) ==
        "x\\x0a::error::forged.yaml:3:1: error: Pod a/b: value \"\\x1b]0;title\\x07\"");
}
