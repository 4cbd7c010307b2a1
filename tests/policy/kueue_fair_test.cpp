// SPDX-License-Identifier: Apache-2.0
// Dominant resource shares and their order (kueue pkg/cache/scheduler/fair_sharing.go).
#include "policy/kueue/fair_sharing.h"

#include <catch2/catch.hpp>

#include <cmath>

namespace {

using kpreempt::policy::kueue::compare;
using kpreempt::policy::kueue::negative_share;
using kpreempt::policy::kueue::Share;

Share share(double ratio, double weight) {
  return Share{weight, ratio, ratio > 0 ? "cpu" : "", ratio > 0, {}};
}

}  // namespace

TEST_CASE("a share is the unweighted ratio over the weight", "[policy][kueue][fair]") {
  CHECK(share(250, 1).value() == 250);
  CHECK(share(250, 2).value() == 125);
  CHECK(share(0, 0).value() == 0);  // a zero weight that does not borrow has share 0
  CHECK(std::isinf(share(10, 0).value()));
}

TEST_CASE("CompareDRS ranks zero-weight borrowers above everything", "[policy][kueue][fair]") {
  CHECK(compare(share(1, 0), share(1000, 1)) == 1);
  CHECK(compare(share(1000, 1), share(1, 0)) == -1);
  CHECK(compare(share(2, 0), share(1, 0)) == 1);  // both zero weight: the unweighted ratios
  CHECK(compare(share(100, 1), share(200, 2)) == 0);
  CHECK(compare(share(0, 1), negative_share()) == 1);
  CHECK(compare(share(0, 0), share(0, 1)) == 0);
}
