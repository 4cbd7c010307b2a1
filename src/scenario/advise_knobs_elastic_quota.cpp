// SPDX-License-Identifier: Apache-2.0
// The ElasticQuota (capacity, koordinator) knobs of `advise`.
#include "scenario/advise_knobs.h"

namespace kpreempt::scenario::knobs {

void elastic_quota(const KnobContext& ctx, std::vector<Knob>& out) {
  (void)ctx;
  (void)out;
}

}  // namespace kpreempt::scenario::knobs
