// SPDX-License-Identifier: Apache-2.0
// Side-by-side comparison of several policies' decisions for one preemptor.
#pragma once

#include "kpreempt/policy/policy.h"

#include <ostream>
#include <string>
#include <vector>

namespace kpreempt::render {

// Sentences saying where `other` differs from `base`: "with toleration, batch/etl-7 survives;
// with default, it is evicted". Empty when they agree.
std::vector<std::string> differences(const policy::Decision& base, const policy::Decision& other);

void print_comparison(const std::vector<policy::Decision>& decisions, bool color,
                      std::ostream& out);

}  // namespace kpreempt::render
