// SPDX-License-Identifier: Apache-2.0
// Turning a kueue decision into the Decision fields people read: victims, the summary
// sentence, per-ClusterQueue verdicts, the quota table and the JSON details.
#pragma once

#include "policy/kueue/internal.h"

#include "kpreempt/policy/policy.h"

namespace kpreempt::policy::kueue {

struct Report {
  Context& ctx;
  const Assignment& a;
  const Search& s;
  bool searched = false;
  bool borrows = false;  // with the victims removed, the preemptor would borrow
};

void write_report(const Report& r, Decision& d);
// The shares and strategy comparisons of a fair-sharing search (fair_report.cpp).
void add_fair_report(const Report& r, Decision& d);

// Amounts as people write them: cpu "1500m" or "2", memory "3Gi", counts as integers.
std::string format_amount(const std::string& resource, std::int64_t v);

}  // namespace kpreempt::policy::kueue
