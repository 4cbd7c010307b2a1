// SPDX-License-Identifier: Apache-2.0
// The Kueue knobs of `advise`.
#include "scenario/advise_knobs.h"

namespace kpreempt::scenario::knobs {

void kueue(const KnobContext& ctx, std::vector<Knob>& out) {
  (void)ctx;
  (void)out;
}

}  // namespace kpreempt::scenario::knobs
