// SPDX-License-Identifier: Apache-2.0
// Dominant resource shares of Kueue v0.19.2 (pkg/cache/scheduler/fair_sharing.go
// dominantResourceShare, calculateLendable, CompareDRS, PreciseWeightedShare; resource_node.go
// potentialAvailable). The float arithmetic is upstream's: a per-mille ratio in float64.
#include "policy/kueue/fair_sharing.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <map>

namespace kpreempt::policy::kueue {
namespace {

// parseFairWeight: spec.fairSharing.weight as a float (AsFloat64Slow), 1 when unset.
double weight_of(const std::optional<model::Quantity>& w) {
  if (!w) {
    return 1.0;
  }
  return static_cast<double>(w->wide_milli()) / 1000.0;
}

int cmp(double a, double b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

}  // namespace

double Share::value() const {
  if (zero()) {
    return 0.0;
  }
  if (weight == 0) {
    return std::numeric_limits<double>::infinity();
  }
  return ratio / weight;
}

Share negative_share() {
  return Share{1.0, -1, "", false, {}};
}

int compare(const Share& a, const Share& b) {
  if (a.zero_weight_borrows() && b.zero_weight_borrows()) {
    return cmp(a.ratio, b.ratio);
  }
  if (a.zero_weight_borrows()) {
    return 1;
  }
  if (b.zero_weight_borrows()) {
    return -1;
  }
  return cmp(a.value(), b.value());
}

std::string to_string(const Share& s) {
  if (!s.borrowing) {
    return "0";
  }
  std::string where = s.resource.empty() ? "nothing lendable" : s.resource;
  if (std::isinf(s.value())) {
    return fmt::format("+Inf ({}, weight 0)", where);
  }
  if (s.weight != 1.0) {
    return fmt::format("{} ({}, {} / weight {})", s.value(), where, s.ratio, s.weight);
  }
  return fmt::format("{} ({})", s.value(), where);
}

FairShares::FairShares(const QuotaModel& quota, const model::KueueObjects& k) : m_quota(quota) {
  std::map<std::string, double, std::less<>> cohorts;
  for (const model::KueueCohort& c : k.cohorts) {
    cohorts.try_emplace(c.name, weight_of(c.fair_weight));  // the first object of a name wins
  }
  for (std::size_t n = 0; n < quota.node_count(); ++n) {
    if (quota.is_cq(n)) {
      m_weights.push_back(weight_of(quota.cq(n).fair_weight));
    } else {
      auto it = cohorts.find(quota.name(n));
      m_weights.push_back(it == cohorts.end() ? 1.0 : it->second);
    }
  }
}

// dominantResourceShare with no incoming request: usage beyond the subtree quota per
// resource (summed over flavors), over calculateLendable of the parent: for every pair of the
// root's subtree, potentialAvailable of the parent, summed per resource.
Share FairShares::share(std::size_t node) const {
  Share out{m_weights[node], 0, "", false, {}};
  std::optional<std::size_t> parent = m_quota.parent(node);
  if (!parent) {
    return out;
  }
  std::map<std::string, std::int64_t> borrowing;
  for (const FR& fr : m_quota.subtree_pairs(node)) {
    std::int64_t b = m_quota.usage(node, fr) - m_quota.subtree_quota(node, fr);
    if (b > 0) {
      borrowing[fr.resource] += b;
      out.borrowed.push_back(fr);
    }
  }
  if (borrowing.empty()) {
    return out;
  }
  out.borrowing = true;
  std::vector<std::size_t> up = m_quota.ancestors(node);
  std::map<std::string, std::int64_t> lendable;
  for (const FR& fr : m_quota.subtree_pairs(up.back())) {
    lendable[fr.resource] += m_quota.potential_max(*parent, fr);
  }
  for (const auto& [resource, b] : borrowing) {
    std::int64_t lr = lendable[resource];
    if (lr <= 0) {
      continue;
    }
    double ratio = static_cast<double>(b) * 1000.0 / static_cast<double>(lr);
    if (ratio > out.ratio || (ratio == out.ratio && resource < out.resource)) {
      out.ratio = ratio;
      out.resource = resource;
    }
  }
  return out;
}

}  // namespace kpreempt::policy::kueue
