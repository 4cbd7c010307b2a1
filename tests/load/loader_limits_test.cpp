// SPDX-License-Identifier: Apache-2.0
// The loader's limits on hostile input (sizes, nesting, encodings) and the warnings for dumps
// that are only part of a cluster, through load_buffer and build().
#include "kpreempt/load/load.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace kpreempt::load {
namespace {

struct Loaded {
  model::Snapshot snapshot;
  std::vector<std::string> diags;  // formatted
};

Loaded load(std::string_view data, const std::string& name = "dump.yaml") {
  model::SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  load_buffer(data, name, builder, diags);
  Loaded out{std::move(builder).build(diags), {}};
  for (const Diagnostic& d : diags) {
    out.diags.push_back(format(d));
  }
  return out;
}

const std::string k_node =
    "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nstatus:\n  allocatable:\n"
    "    cpu: \"4\"\n";

std::string pod_yaml(const std::string& name, const std::string& spec_extra = "") {
  return "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\n  namespace: a\nspec:\n  priority: 10\n" + spec_extra + "  containers:\n  - name: c\n";
}

}  // namespace

TEST_CASE("a value longer than 1 MiB is refused where it starts", "[bad][load]") {
  std::string big(std::size_t{1} << 20, 'x');
  big += "x";
  SECTION("YAML") {
    Loaded l = load(k_node + pod_yaml("p") + "  hostname: " + big + "\n");
    REQUIRE(l.diags.size() == 1);
    CHECK(l.diags[0] ==
          "dump.yaml:18:13: error: value of 1048577 bytes is longer than the limit of 1 MiB");
  }
  SECTION("JSON") {
    Loaded l =
        load("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + big + "\"}}",
             "dump.json");
    REQUIRE(l.diags.size() == 1);
    CHECK(l.diags[0] ==
          "dump.json:1:52: error: value of 1048577 bytes is longer than the limit of 1 MiB");
  }
  SECTION("but not in the pruned last-applied annotation") {
    Loaded l = load(k_node +
                    "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: a\n"
                    "  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: " +
                    big + "\n");
    CHECK(l.diags.empty());
    CHECK(l.snapshot.pods().size() == 1);
  }
}

TEST_CASE("an object larger than 64 MiB is refused", "[bad][load]") {
  std::string labels;
  const std::string value(1000000, 'v');
  for (int i = 0; i < 68; ++i) {
    labels += (i == 0 ? "" : ",") + std::string("\"l") + std::to_string(i) + "\":\"" + value + "\"";
  }
  Loaded l =
      load("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":{" +
               labels + "}}}",
           "dump.json");
  REQUIRE(l.diags.size() == 1);
  CHECK(l.diags[0] == "dump.json:1:1: error: object is larger than the limit of 64 MiB");
}

TEST_CASE("nesting deeper than the limit is a located error in both formats", "[bad][load]") {
  SECTION("YAML lists of lists") {
    Loaded l = load(k_node + pod_yaml("p") + "  x: " + std::string(300, '[') +
                    std::string(300, ']') + "\n");
    REQUIRE(l.diags.size() == 1);
    CHECK(l.diags[0] == "dump.yaml:18:205: error: nesting is too deep");
  }
  SECTION("YAML maps") {
    std::string deep;
    for (int i = 0; i < 300; ++i) {
      deep += "{a: ";
    }
    Loaded l = load(k_node + pod_yaml("p") + "  x: " + deep + "1" + std::string(300, '}') + "\n");
    REQUIRE(l.diags.size() == 1);
    CHECK(l.diags[0].starts_with("dump.yaml:18:"));
    CHECK(l.diags[0].ends_with(": error: nesting is too deep"));
  }
  SECTION("JSON, in a kept field and in any field") {
    Loaded kept = load("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"spec\":" + std::string(300, '[') +
                           std::string(300, ']') + "}",
                       "dump.json");
    REQUIRE(kept.diags.size() == 1);
    CHECK(kept.diags[0].ends_with(": error: nesting is too deep"));
    Loaded any = load("[" + std::string(1200, '[') + std::string(1200, ']') + "]", "dump.json");
    REQUIRE_FALSE(any.diags.empty());
    CHECK(any.diags.back() == "dump.json:1:1001: error: nesting is too deep");
  }
}

TEST_CASE("a key longer than YAML's 1024-character limit is said to be one", "[bad][load]") {
  const std::string key(1500, 'k');
  Loaded r =
      load("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    " + key + ": x\n");
  REQUIRE(r.diags.size() == 1);
  CHECK(r.diags[0] ==
        "dump.yaml:6:1505: error: mapping values are not allowed in this context (a "
        "key longer than 1024 characters, YAML's limit for a key without '?')");
}

TEST_CASE("encodings: UTF-8 with or without BOM, never UTF-16 or invalid UTF-8", "[bad][load]") {
  const std::string dump = k_node + pod_yaml("p");
  CHECK(load("\xEF\xBB\xBF" + dump).diags.empty());
  CHECK(load("\xEF\xBB\xBF{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}",
             "dump.json")
            .diags.empty());
  CHECK(
      load("\xFF\xFE" + std::string("a\0b\0", 4)).diags ==
      std::vector<std::string>{"dump.yaml:1:1: error: UTF-16 is not supported, convert to UTF-8"});
  CHECK(
      load("\xFE\xFF" + std::string("\0a\0b", 4)).diags ==
      std::vector<std::string>{"dump.yaml:1:1: error: UTF-16 is not supported, convert to UTF-8"});
  const auto one = [](const std::string& message) {
    return std::vector<std::string>{"dump.yaml:1:1: error: " + message};
  };
  CHECK(load(std::string("\xFF\xFE\0\0a\0\0\0", 8)).diags ==
        one("UTF-32 is not supported, convert to UTF-8"));
  CHECK(load(std::string("\0\0\0a\0\0\0b", 8)).diags ==
        one("UTF-32 is not supported, convert to UTF-8"));
  CHECK(load(std::string("a\0\0\0b\0\0\0", 8)).diags ==
        one("UTF-32 is not supported, convert to UTF-8"));
  CHECK(load(std::string(64, '\0')).diags ==
        one("this is binary data (NUL bytes), not YAML or JSON text"));
  CHECK(load(dump + "  hostname: caf\xE9 ok\n").diags ==
        std::vector<std::string>{"dump.yaml:18:17: error: invalid trailing UTF-8 octet (byte "
                                 "0x20); the file must be UTF-8 text"});
  CHECK(load(dump + "  hostname: caf\xE9").diags ==
        std::vector<std::string>{"dump.yaml:18:16: error: incomplete UTF-8 octet sequence; the "
                                 "file must be UTF-8 text"});
}

TEST_CASE("CRLF line endings load with the right line numbers", "[bad][load]") {
  std::string dump = k_node + pod_yaml("p") + "  nodeName: 7\n  priority: high\n";
  for (std::size_t at = dump.find('\n'); at != std::string::npos; at = dump.find('\n', at + 2)) {
    dump.replace(at, 1, "\r\n");
  }
  Loaded l = load(dump);
  REQUIRE(l.diags.size() == 1);
  CHECK(l.diags[0] ==
        "dump.yaml:19:3: error: Pod a/p: spec: duplicate key \"priority\", already defined at "
        "line 15");
}

TEST_CASE("a tab used for indentation is a located error with a hint", "[bad][load]") {
  Loaded l = load("apiVersion: v1\nkind: Pod\nmetadata:\n\tname: p\n");
  CHECK(l.diags == std::vector<std::string>{
                       "dump.yaml:4:1: error: found character that cannot start any token; YAML "
                       "does not allow tabs for indentation, use spaces"});
}

TEST_CASE("a negative request is an input error naming its path", "[bad][load]") {
  Loaded l = load(k_node + pod_yaml("p") + "    resources:\n      requests:\n        cpu: -1\n");
  CHECK(l.diags ==
        std::vector<std::string>{
            "dump.yaml:20:14: error: Pod a/p: spec.containers[0].resources.requests.cpu: "
            "\"-1\" must be greater than or equal to 0"});
}

TEST_CASE("pods on nodes missing from the dump are ignored with one warning group", "[bad][load]") {
  std::string dump = k_node;
  for (int i = 0; i < 5; ++i) {
    dump += pod_yaml("q" + std::to_string(i), "  nodeName: n-" + std::to_string(i) + "\n");
  }
  Loaded l = load(dump);
  CHECK(l.diags ==
        std::vector<std::string>{
            "dump.yaml:9:1: warning: Pod a/q0: node \"n-0\" is not in the dump; pod ignored",
            "dump.yaml:20:1: warning: Pod a/q1: node \"n-1\" is not in the dump; pod ignored",
            "dump.yaml:31:1: warning: Pod a/q2: node \"n-2\" is not in the dump; pod ignored",
            "kpreempt: warning: ... and 2 more pods on nodes missing from the dump",
            "kpreempt: warning: the dump looks partial (pods on nodes missing from the dump: 5): "
            "`kubectl get nodes -o yaml` adds the nodes"});
  CHECK(l.snapshot.pods_on(0).empty());
}

TEST_CASE("a pod whose PriorityClass is missing keeps its spec.priority, with a warning",
          "[bad][load]") {
  Loaded l = load(k_node + pod_yaml("p", "  priorityClassName: gone\n"));
  CHECK(l.diags == std::vector<std::string>{
                       "dump.yaml:9:1: warning: Pod a/p: PriorityClass \"gone\" is not in the "
                       "dump; using spec.priority 10",
                       "kpreempt: warning: the dump looks partial (pods whose PriorityClass is "
                       "missing from the dump: 1): `kubectl get priorityclasses -o yaml` adds the "
                       "classes"});
  CHECK(l.snapshot.facts(0).priority == 10);
}

TEST_CASE("a PodDisruptionBudget without status allows no disruption, with a warning",
          "[bad][load]") {
  Loaded l = load(k_node +
                  "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: b\n"
                  "  namespace: a\nspec:\n  selector: {}\n");
  CHECK(l.diags == std::vector<std::string>{
                       "dump.yaml:9:1: warning: PodDisruptionBudget a/b: no status in the dump; "
                       "it allows no disruption, so every pod it selects counts as a violation",
                       "kpreempt: warning: the dump looks partial (PodDisruptionBudgets without "
                       "status: 1): `kubectl get pdb -A -o yaml` prints them with their status"});
  REQUIRE(l.snapshot.pdbs().size() == 1);
  CHECK(l.snapshot.pdbs()[0].disruptions_allowed == 0);
}

}  // namespace kpreempt::load
