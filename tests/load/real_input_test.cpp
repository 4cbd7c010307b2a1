// SPDX-License-Identifier: Apache-2.0
// Material from real clusters and upstream documentation: generateName-only manifests, typed
// Lists, pasted Lists, and kubectl's table output saved by mistake.
#include "load/load_support.h"

#include "kpreempt/model/kueue.h"

#include <catch2/catch.hpp>

namespace kpreempt::load {
namespace {

using testing::load_text;
using testing::messages_for;
using testing::real_fixture;
using V = std::vector<std::string>;

TEST_CASE("a Job with only generateName gets a stable made-up name", "[load][real]") {
  const std::string job = real_fixture("sample-job.yaml");
  const auto loaded = load_text(job + "---\n" + job, "sample-job.yaml");
  REQUIRE(loaded.messages.empty());
  const auto& workloads = loaded.snapshot.kueue().workloads;
  REQUIRE(workloads.size() == 2);
  CHECK(workloads[0].name == "job-sample-job-<generated>");
  CHECK(workloads[1].name == "job-sample-job-<generated-2>");
  REQUIRE(workloads[0].derived_from);
  CHECK(workloads[0].derived_from->name == "sample-job-<generated>");
}

TEST_CASE("a generateName pod is named and found", "[load][real]") {
  const auto loaded = load_text(
      "apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: web-\n  namespace: a\nspec:\n"
      "  containers: [{name: c}]\n");
  REQUIRE(loaded.messages.empty());
  CHECK(loaded.snapshot.find_pod("a", "web-<generated>").has_value());
}

TEST_CASE("items of a typed List take their kind from the List", "[load][real]") {
  const auto loaded = load_text(real_fixture("nodelist-raw.json"), "nodes.json");
  REQUIRE(loaded.messages.empty());
  REQUIRE(loaded.snapshot.nodes().size() == 2);
  CHECK(loaded.snapshot.nodes()[1].name == "kind-worker2");
}

TEST_CASE("a List's kind after its items still names kindless items", "[load][real]") {
  const auto loaded = load_text(
      "apiVersion: v1\nitems:\n- metadata: {name: p, namespace: a}\n  spec:\n"
      "    containers: [{name: c}]\nkind: PodList\nmetadata: {resourceVersion: \"7\"}\n");
  REQUIRE(loaded.messages.empty());
  CHECK(loaded.snapshot.find_pod("a", "p").has_value());
}

TEST_CASE("kindless items of a plain List are still refused", "[load][real]") {
  CHECK(messages_for("apiVersion: v1\nkind: List\nitems:\n- metadata: {name: p}\n") ==
        V{"dump.yaml:4:3: error: object has no kind"});
}

TEST_CASE("Lists pasted into one file are refused naming both lines", "[load][real]") {
  CHECK(
      messages_for(real_fixture("pasted-lists.yaml"), "pasted.yaml") ==
      V{"pasted.yaml:14:1: error: List: duplicate key \"apiVersion\", already defined at line 3"});
  CHECK(messages_for("kind: List\nitems: []\nitems:\n- {apiVersion: v1, kind: Node, "
                     "metadata: {name: n}}\n") ==
        V{"dump.yaml:3:1: error: List: duplicate key \"items\", already defined at line 2"});
}

TEST_CASE("a repeated key inside an object names both lines", "[load][real]") {
  CHECK(messages_for("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    a: x\n"
                     "    a: y\n") ==
        V{"dump.yaml:7:5: error: Node n: metadata.labels: duplicate key \"a\", already defined "
          "at line 6"});
  CHECK(messages_for("apiVersion: v1\nkind: Node\nkind: Node\nmetadata: {name: n}\n") ==
        V{"dump.yaml:3:1: error: Node n: duplicate key \"kind\", already defined at line 2"});
}

TEST_CASE("kubectl's table output is recognised by its header", "[load][real]") {
  CHECK(messages_for(real_fixture("get-pods-wide.txt"), "pods.txt") ==
        V{"pods.txt:1:1: error: this looks like kubectl's table output (\"NAME                     "
          "READY   STATUS    RESTARTS   AGE   ...\"); re-run with -o yaml or -o json"});
}

}  // namespace
}  // namespace kpreempt::load
