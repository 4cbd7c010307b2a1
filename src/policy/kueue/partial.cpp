// SPDX-License-Identifier: Apache-2.0
// Partial admission of Kueue (pkg/scheduler/scheduler.go getInitialAssignments,
// pkg/scheduler/flavorassigner/podset_reducer.go): when the full counts neither fit nor find
// victims, a binary search over smaller pod-set counts down to minCount.
#include "policy/kueue/internal.h"

#include <algorithm>

namespace kpreempt::policy::kueue {
namespace {

// PodSetResources.ScaledTo: totals divided by the current count, then multiplied by the new.
std::vector<model::KueueAmounts> scaled(const Preemptor& p,
                                        const std::vector<model::KueueAmounts>& base,
                                        const std::vector<std::int64_t>& counts) {
  std::vector<model::KueueAmounts> out = base;
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::int64_t cur = p.counts[i];
    if (cur == 0 || cur == counts[i]) {
      continue;
    }
    for (auto& [res, v] : out[i]) {
      v = v / cur * counts[i];
    }
  }
  return out;
}

}  // namespace

Attempt attempt(Context& ctx) {
  Attempt t;
  t.a = assign_flavors(ctx);
  if (t.a.no_fit) {
    return t;
  }
  if (t.a.worst == PMode::fit) {
    t.ok = true;
    return t;
  }
  t.searched = true;
  t.s = find_targets(ctx, t.a.needs_preemption(), t.a.search_requests(ctx.rules));
  t.ok = !t.s.targets.empty();
  return t;
}

// PodSetReducer.Search replayed probe by probe: sort.Search assumes the answer is monotone
// in the index, so only the indexes it visits count.
std::optional<Reduced> reduce_counts(Context& ctx) {
  std::vector<std::int64_t> full, delta;
  std::int64_t total = 0;
  for (const model::KueuePodSet& ps : ctx.p.pod_sets) {
    full.push_back(ps.count);
    delta.push_back(ps.count - ps.min_count.value_or(ps.count));
    total += delta.back();
  }
  if (total <= 0) {
    return std::nullopt;
  }
  const std::vector<model::KueueAmounts> base = ctx.p.requests;
  std::optional<Reduced> found;
  std::int64_t lo = 0, hi = total + 1, last = -1;
  while (lo < hi) {
    std::int64_t h = lo + (hi - lo) / 2;
    std::vector<std::int64_t> counts;
    for (std::size_t i = 0; i < full.size(); ++i) {
      counts.push_back(full[i] - delta[i] * h / total);
    }
    ctx.p.requests = scaled(ctx.p, base, counts);
    Attempt t = attempt(ctx);
    if (t.ok) {
      hi = h;
      last = h;
      found = Reduced{counts, ctx.p.requests, std::move(t)};
    } else {
      lo = h + 1;
    }
  }
  ctx.p.requests = base;
  if (!found || lo != last) {
    return std::nullopt;
  }
  return found;
}

}  // namespace kpreempt::policy::kueue
