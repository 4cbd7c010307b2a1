// SPDX-License-Identifier: Apache-2.0
// Loading from disk: conformance dumps, folders in name order, recursion.
#include "kpreempt/load/load.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace kpreempt::load {
namespace {

struct FromDisk {
  model::Snapshot snapshot;
  std::vector<Diagnostic> diags;
  std::vector<model::ObjectRef> pods;
};

FromDisk load_from(const std::string& relative, bool recursive = false) {
  model::SnapshotBuilder builder;
  FromDisk out;
  load_path(std::string(KPREEMPT_TESTDATA) + "/load/" + relative, LoadOptions{recursive}, builder,
            out.diags, &out.pods);
  out.snapshot = std::move(builder).build(out.diags);
  // These upstream-test dumps put their bound pods in one namespace on purpose.
  std::erase_if(out.diags, [](const Diagnostic& d) {
    return d.message.starts_with("the dump looks partial (every pod on its nodes is in");
  });
  return out;
}

std::vector<std::string> node_names(const model::Snapshot& s) {
  std::vector<std::string> out;
  for (const model::Node& n : s.nodes()) {
    out.push_back(n.name);
  }
  return out;
}

TEST_CASE("conformance dumps load without diagnostics", "[load]") {
  SECTION("preempt-basic") {
    FromDisk d = load_from("preempt-basic.yaml");
    CHECK(d.diags.empty());
    CHECK(d.snapshot.nodes().size() == 3);
    CHECK(d.snapshot.pods().size() == 5);
    CHECK(d.pods.size() == 5);
    CHECK(d.snapshot.priority_classes().size() == 3);
    CHECK(d.snapshot.nodes()[0].has_allocatable_pods);
  }
  SECTION("a shared disruption budget") {
    FromDisk d = load_from("dryrun-pdb-shared-budget.yaml");
    CHECK(d.diags.empty());
    CHECK(d.snapshot.nodes().size() == 1);
    CHECK(d.snapshot.pods().size() == 3);
    CHECK(d.snapshot.pdbs().size() == 1);
    CHECK(d.snapshot.priority_classes().size() == 2);
  }
  SECTION("scheduler args") {
    FromDisk d = load_from("dryrun-args-window-some-nodes-ineligible.yaml");
    CHECK(d.diags.empty());
    CHECK(d.snapshot.nodes().size() == 5);
    CHECK(d.snapshot.pods().size() == 6);
    CHECK(d.snapshot.scheduler_config().plugin_args ==
          model::StringMap{{"DefaultPreemption.minCandidateNodesAbsolute", "1"},
                           {"DefaultPreemption.minCandidateNodesPercentage", "40"}});
  }
}

TEST_CASE("a folder loads its dump files in name order", "[load]") {
  FromDisk d = load_from("folder");
  CHECK(d.diags.empty());
  CHECK(node_names(d.snapshot) == std::vector<std::string>{"n1", "n2"});
}

TEST_CASE("a folder with recursion loads its sub-folders too", "[load]") {
  FromDisk d = load_from("folder", true);
  CHECK(d.diags.empty());
  CHECK(node_names(d.snapshot) == std::vector<std::string>{"n1", "n2", "n3"});
}

}  // namespace
}  // namespace kpreempt::load
