// SPDX-License-Identifier: Apache-2.0
// Kueue's dominant resource share (kubernetes-sigs/kueue v0.19.2
// pkg/cache/scheduler/fair_sharing.go): how far a ClusterQueue or Cohort borrows beyond its
// subtree quota, relative to what its parent could lend it, divided by its fair sharing weight.
#pragma once

#include "policy/kueue/quota.h"

#include "kpreempt/model/kueue.h"

#include <string>
#include <vector>

namespace kpreempt::policy::kueue {

// DRS: the largest per-resource ratio (per mille) of what the node borrows to what its
// parent's tree could lend it, with the resource that gave it.
struct Share {
  double weight = 1.0;
  double ratio = 0;      // unweightedRatio; -1 only for negative_share()
  std::string resource;  // dominantResource, empty when not borrowing
  bool borrowing = false;
  std::vector<FR> borrowed;  // pairs the node uses beyond its subtree quota

  bool zero() const { return ratio == 0; }
  bool zero_weight_borrows() const { return weight == 0 && !zero(); }
  // PreciseWeightedShare: 0 when not borrowing, +Inf for a zero weight, else ratio / weight.
  double value() const;
};

// NegativeDRS: below every share, the start of a search for the highest.
Share negative_share();
// CompareDRS: a zero-weight borrower ranks above everything else; two of them compare by
// their unweighted ratios; the rest by weighted share.
int compare(const Share& a, const Share& b);
// "312.5 (cpu)", "0", "+Inf (cpu, weight 0)": a share as the explanation prints it.
std::string to_string(const Share& s);

class FairShares {
 public:
  FairShares(const QuotaModel& quota, const model::KueueObjects& k);
  double weight(std::size_t node) const { return m_weights[node]; }
  // dominantResourceShare of a node at the quota model's current usage.
  Share share(std::size_t node) const;

 private:
  const QuotaModel& m_quota;
  std::vector<double> m_weights;  // per node, spec.fairSharing.weight or 1
};

}  // namespace kpreempt::policy::kueue
