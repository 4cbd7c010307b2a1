// SPDX-License-Identifier: Apache-2.0
// Koordinator quota parent labels: a quota its own parent, a cycle, or a chain deeper than the
// limit is an input error found without recursion, however long the chain.
#include "kpreempt/load/load.h"
#include "kpreempt/model/snapshot.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>
#include <vector>

namespace kpreempt::model {
namespace {

std::string quota(const std::string& name, const std::string& parent) {
  return fmt::format(
      "---\napiVersion: scheduling.sigs.k8s.io/v1alpha1\nkind: ElasticQuota\nmetadata:\n"
      "  name: {}\n  namespace: team\n  labels:\n"
      "    quota.scheduling.koordinator.sh/parent: {}\n",
      name, parent);
}

std::vector<std::string> errors(const std::string& dump) {
  SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  load::load_buffer(dump, "quotas.yaml", builder, diags);
  (void)std::move(builder).build(diags);
  std::vector<std::string> out;
  for (const Diagnostic& d : diags) {
    if (d.severity == Severity::error) {
      out.push_back(format(d));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a Koordinator quota that is its own parent is an input error", "[model][koordinator]") {
  CHECK(errors(quota("a", "a")) ==
        std::vector<std::string>{"quotas.yaml:2:1: error: ElasticQuota a: is its own parent"});
}

TEST_CASE("Koordinator quotas whose parents form a cycle are one input error",
          "[model][koordinator]") {
  CHECK(
      errors(quota("a", "b") + quota("b", "c") + quota("c", "a") + quota("d", "a")) ==
      std::vector<std::string>{"quotas.yaml:2:1: error: ElasticQuota a: its parents form a cycle"});
}

TEST_CASE("a Koordinator quota chain deeper than the limit is refused without recursion",
          "[model][koordinator]") {
  std::string dump = quota("q0", "koordinator-root-quota");
  for (int i = 1; i < 30000; ++i) {
    dump += quota(fmt::format("q{}", i), fmt::format("q{}", i - 1));
  }
  std::vector<std::string> e = errors(dump);
  REQUIRE(e.size() == 1);
  CHECK(e[0].ends_with("error: ElasticQuota q1000: more than 1000 levels of parent quotas"));
}

}  // namespace kpreempt::model
