// SPDX-License-Identifier: Apache-2.0
// The kueue quota model over cohort trees: subtree quotas, what a ClusterQueue may take through
// a chain of parents with lending and borrowing limits, usage passed up and given back, the
// height of the lowest subtree that holds a request, and cohorts whose parents form a cycle.
#include "load/load_support.h"
#include "policy/kueue/quota.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>
#include <string_view>

namespace kpreempt::policy::kueue {
namespace {

using load::testing::load_text;

const FR k_cpu{"red", "cpu"};

// A ClusterQueue in `cohort` with `cpu` of flavor red; `limits` adds borrowingLimit and
// lendingLimit entries to the quota.
std::string cluster_queue(std::string_view name, std::string_view cohort, std::string_view cpu,
                          std::string_view limits = "") {
  return fmt::format(R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {{name: {0}}}
spec:
  cohortName: "{1}"
  namespaceSelector: {{}}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: red
      resources: [{{name: cpu, nominalQuota: "{2}"{3}}}]
---
)",
                     name, cohort, cpu, limits);
}

// A Cohort under `parent` (none when empty), with quota of its own when `cpu` is set.
std::string cohort(std::string_view name, std::string_view parent, std::string_view cpu = "",
                   std::string_view limits = "") {
  std::string out = fmt::format(R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {{name: {0}}}
spec:
  parentName: "{1}"
)",
                                name, parent);
  if (!cpu.empty()) {
    out += fmt::format(R"(  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: red
      resources: [{{name: cpu, nominalQuota: "{0}"{1}}}]
)",
                       cpu, limits);
  }
  return out + "---\n";
}

constexpr std::string_view k_flavor = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: red}
---
)";

struct Tree {
  load::testing::Loaded loaded;
  QuotaModel quota;

  explicit Tree(const std::string& objects)
      : loaded(load_text(std::string(k_flavor) + objects)), quota(loaded.snapshot.kueue()) {
    REQUIRE(loaded.messages.empty());
  }
  std::size_t cq(std::string_view name) const {
    std::optional<std::size_t> i = quota.find_cq(name);
    REQUIRE(i.has_value());
    return *i;
  }
  std::int64_t available(std::string_view name) const { return quota.available(cq(name), k_cpu); }
  std::int64_t potential(std::string_view name) const {
    return quota.potential_max(cq(name), k_cpu);
  }
  // Admits `millis` of red cpu to the ClusterQueue, as a workload would.
  Admitted use(std::string_view name, std::int64_t millis) {
    Admitted a{0, cq(name), {{k_cpu, millis}}, {k_cpu}};
    quota.add(a);
    return a;
  }
};

// root
//   left (10): cq1 (10)
//   right (10): cq2 (10, lendingLimit 0)
std::string two_subtrees() {
  return cohort("root", "") + cohort("left", "root", "10") + cohort("right", "root", "10") +
         cluster_queue("cq1", "left", "10") +
         cluster_queue("cq2", "right", "10", R"(, lendingLimit: "0")");
}

TEST_CASE("a cohort's subtree quota is its own nominal plus what its children lend it",
          "[policy][kueue][quota]") {
  Tree t(two_subtrees());
  std::size_t cq2 = t.cq("cq2");
  std::vector<std::size_t> up = t.quota.ancestors(cq2);
  REQUIRE(up.size() == 2);
  CHECK(t.quota.name(up[0]) == "right");
  CHECK(t.quota.name(up[1]) == "root");
  CHECK(t.quota.subtree_quota(cq2, k_cpu) == 10'000);
  CHECK(t.quota.local_quota(cq2, k_cpu) == 10'000);  // lends nothing
  CHECK(t.quota.subtree_quota(up[0], k_cpu) == 10'000);
  CHECK(t.quota.subtree_quota(t.quota.ancestors(t.cq("cq1"))[0], k_cpu) == 20'000);
  CHECK(t.quota.subtree_quota(up[1], k_cpu) == 30'000);
  CHECK(t.quota.hierarchical(cq2));
  CHECK(t.quota.tree_cqs(cq2) == std::vector<std::size_t>{t.cq("cq1"), cq2});
}

TEST_CASE("a ClusterQueue takes its own unused quota and what the chain above it has free",
          "[policy][kueue][quota]") {
  Tree t(two_subtrees());
  CHECK(t.available("cq1") == 30'000);
  CHECK(t.available("cq2") == 40'000);  // its 10 it keeps, plus the root's 30
  CHECK(t.potential("cq1") == 30'000);
  CHECK(t.potential("cq2") == 40'000);
  t.use("cq1", 10'000);
  t.use("cq2", 5'000);
  CHECK(t.available("cq1") == 20'000);  // cq2's usage stays inside its local quota
  CHECK(t.available("cq2") == 25'000);
  CHECK(t.potential("cq1") == 30'000);  // usage never lowers the potential
}

TEST_CASE("a cohort's borrowing limit caps what its subtree takes from the parent",
          "[policy][kueue][quota]") {
  // root
  //   left (10, borrowingLimit 5): left-cq1 (10), left-cq2 (10, borrowingLimit 5)
  //   right (10): right-cq (10)
  Tree t(cohort("root", "") + cohort("left", "root", "10", R"(, borrowingLimit: "5")") +
         cohort("right", "root", "10") + cluster_queue("left-cq1", "left", "10") +
         cluster_queue("left-cq2", "left", "10", R"(, borrowingLimit: "5")") +
         cluster_queue("right-cq", "right", "10"));
  CHECK(t.available("left-cq1") == 35'000);  // the left subtree's 30 plus 5 from the root
  CHECK(t.available("left-cq2") == 15'000);
  CHECK(t.available("right-cq") == 50'000);
  CHECK(t.potential("left-cq1") == 35'000);
  CHECK(t.potential("left-cq2") == 15'000);
  CHECK(t.potential("right-cq") == 50'000);
  t.use("left-cq1", 33'000);  // 3 beyond the left subtree, taken from the root
  CHECK(t.available("left-cq1") == 2'000);
  CHECK(t.available("left-cq2") == 2'000);
  CHECK(t.available("right-cq") == 17'000);
}

TEST_CASE("lending limits keep quota inside each subtree on the way up", "[policy][kueue][quota]") {
  // root: root-cq (0)
  //   left (0, lendingLimit 5): left-cq1 (10, lendingLimit 5), left-cq2 (10)
  //   right (0): right-cq (0)
  Tree t(cohort("root", "") + cohort("left", "root", "0", R"(, lendingLimit: "5")") +
         cohort("right", "root", "0") +
         cluster_queue("left-cq1", "left", "10", R"(, lendingLimit: "5")") +
         cluster_queue("left-cq2", "left", "10") + cluster_queue("right-cq", "right", "0") +
         cluster_queue("root-cq", "root", "0"));
  CHECK(t.available("left-cq1") == 20'000);
  CHECK(t.available("left-cq2") == 15'000);  // only 5 of left-cq1's 10 are lent
  CHECK(t.available("right-cq") == 5'000);   // left lends the root 5 of its 15
  CHECK(t.available("root-cq") == 5'000);
  CHECK(t.potential("right-cq") == 5'000);
  t.use("left-cq2", 12'000);  // 2 beyond its nominal, from what left-cq1 lends
  CHECK(t.available("left-cq1") == 8'000);
  // left keeps 10 of its subtree's 15 for itself, so the 2 beyond that count at the root.
  CHECK(t.available("right-cq") == 3'000);
  t.use("left-cq2", 3'000);
  CHECK(t.available("right-cq") == 0);
  CHECK(t.available("left-cq1") == 5'000);  // the part left-cq1 never lends
}

TEST_CASE("usage goes up as far as local quotas cannot hold it and comes back exactly",
          "[policy][kueue][quota]") {
  Tree t(cohort("root", "") + cohort("left", "root", "4", R"(, lendingLimit: "2")") +
         cluster_queue("a", "left", "4", R"(, lendingLimit: "1")") +
         cluster_queue("b", "root", "0"));
  std::size_t a = t.cq("a");
  std::size_t left = t.quota.ancestors(a)[0];
  std::size_t root = t.quota.ancestors(a)[1];
  CHECK(t.quota.local_quota(a, k_cpu) == 3'000);
  CHECK(t.quota.subtree_quota(left, k_cpu) == 5'000);
  CHECK(t.quota.local_quota(left, k_cpu) == 3'000);
  Admitted first = t.use("a", 2'000);  // within a's local quota
  CHECK(t.quota.usage(left, k_cpu) == 0);
  Admitted second = t.use("a", 3'000);  // 2 beyond it, held by left's local quota
  CHECK(t.quota.usage(left, k_cpu) == 2'000);
  CHECK(t.quota.usage(root, k_cpu) == 0);
  Admitted third = t.use("a", 2'000);  // 1 more than left keeps reaches the root
  CHECK(t.quota.usage(left, k_cpu) == 4'000);
  CHECK(t.quota.usage(root, k_cpu) == 1'000);
  CHECK(t.available("b") == 1'000);
  t.quota.remove(second);
  CHECK(t.quota.usage(a, k_cpu) == 4'000);
  CHECK(t.quota.usage(left, k_cpu) == 1'000);
  CHECK(t.quota.usage(root, k_cpu) == 0);
  t.quota.remove(third);
  t.quota.remove(first);
  CHECK(t.quota.usage(a, k_cpu) == 0);
  CHECK(t.quota.usage(left, k_cpu) == 0);
  CHECK(t.available("b") == 2'000);
}

TEST_CASE("a request fits the lowest subtree that holds it, measured by the subtree's height",
          "[policy][kueue][quota]") {
  // root (5)
  //   mid: cq (5), sibling (5)
  Tree t(cohort("root", "", "5") + cohort("mid", "root") + cluster_queue("cq", "mid", "5") +
         cluster_queue("sibling", "mid", "5"));
  std::size_t cq = t.cq("cq");
  SubtreeFit own = t.quota.lowest_subtree_that_fits(cq, k_cpu, 5'000);
  CHECK(own.level == 0);
  CHECK(own.may_reclaim);
  SubtreeFit mid = t.quota.lowest_subtree_that_fits(cq, k_cpu, 10'000);
  CHECK(mid.level == 1);
  CHECK(mid.may_reclaim);  // mid is not the root: reclaiming below it is possible
  SubtreeFit root = t.quota.lowest_subtree_that_fits(cq, k_cpu, 15'000);
  CHECK(root.level == 2);
  CHECK_FALSE(root.may_reclaim);
  SubtreeFit none = t.quota.lowest_subtree_that_fits(cq, k_cpu, 16'000);
  CHECK(none.level == 2);
  CHECK_FALSE(none.may_reclaim);
  t.use("sibling", 5'000);
  CHECK(t.quota.lowest_subtree_that_fits(cq, k_cpu, 10'000).level == 2);
}

TEST_CASE("requests that fit a node leave the parent what its free local quota cannot hold",
          "[policy][kueue][quota]") {
  Tree t(cohort("root", "") + cluster_queue("a", "root", "4", R"(, lendingLimit: "1")"));
  std::size_t a = t.cq("a");
  t.use("a", 1'000);
  FRAmounts rest;
  CHECK(t.quota.fits_in_quota(a, {{k_cpu, 3'000}}, rest));
  CHECK(rest.at(k_cpu) == 1'000);  // 2 of the 3 fit a's unused local quota
  CHECK_FALSE(t.quota.fits_in_quota(a, {{k_cpu, 4'000}}, rest));
  CHECK(rest.at(k_cpu) == 2'000);
  CHECK(t.quota.within_nominal(a, {k_cpu}));
  t.use("a", 4'000);
  CHECK_FALSE(t.quota.within_nominal(a, {k_cpu}));
}

TEST_CASE("a flat cohort reduces to nominal minus the guaranteed parts", "[policy][kueue][quota]") {
  Tree t(cluster_queue("a", "flat", "4", R"(, lendingLimit: "1")") +
         cluster_queue("b", "flat", "4", R"(, borrowingLimit: "2")"));
  CHECK_FALSE(t.quota.hierarchical(t.cq("a")));
  CHECK(t.available("a") == 8'000);
  CHECK(t.available("b") == 5'000);  // a's 1 lendable plus its own 4
  CHECK(t.potential("b") == 5'000);
  t.use("b", 5'000);
  CHECK(t.available("a") == 3'000);
  CHECK(t.quota.lowest_subtree_that_fits(t.cq("a"), k_cpu, 3'000).level == 0);
  CHECK(t.quota.lowest_subtree_that_fits(t.cq("a"), k_cpu, 5'000).level == 1);
  CHECK_FALSE(t.quota.lowest_subtree_that_fits(t.cq("a"), k_cpu, 5'000).may_reclaim);
}

TEST_CASE("a deep chain of cohorts passes quota and usage all the way", "[policy][kueue][quota]") {
  constexpr int k_depth = 1000;
  std::string objects = cohort("c0", "", "5");
  for (int i = 1; i < k_depth; ++i) {
    objects += cohort(fmt::format("c{}", i), fmt::format("c{}", i - 1));
  }
  Tree t(objects + cluster_queue("deep", fmt::format("c{}", k_depth - 1), "0") +
         cluster_queue("top", "c0", "0"));
  CHECK(t.quota.ancestors(t.cq("deep")).size() == k_depth);
  CHECK(t.available("deep") == 5'000);
  SubtreeFit fit = t.quota.lowest_subtree_that_fits(t.cq("deep"), k_cpu, 5'000);
  CHECK(fit.level == k_depth);
  CHECK_FALSE(fit.may_reclaim);
  t.use("deep", 2'000);
  CHECK(t.available("top") == 3'000);
}

TEST_CASE("ClusterQueues below cohorts whose parents form a cycle are inactive",
          "[policy][kueue][quota]") {
  Tree t(cohort("x", "y") + cohort("y", "x") + cohort("below", "x") +
         cluster_queue("looped", "below", "4") + cluster_queue("fine", "z", "4"));
  CHECK_FALSE(t.quota.active(t.cq("looped")));
  CHECK_THAT(t.quota.inactive_reason(t.cq("looped")), Catch::Contains("cycle"));
  CHECK_FALSE(t.quota.has_parent(t.cq("looped")));
  CHECK(t.quota.active(t.cq("fine")));
  t.use("looped", 1'000);  // passes nowhere, terminates
  CHECK(t.available("looped") == 3'000);
}

}  // namespace
}  // namespace kpreempt::policy::kueue
