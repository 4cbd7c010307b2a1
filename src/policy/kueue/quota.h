// SPDX-License-Identifier: Apache-2.0
// Kueue's quota arithmetic for flat cohorts: ClusterQueue quotas, the usage of admitted
// Workloads, and what a ClusterQueue may take (kubernetes-sigs/kueue v0.14.8
// pkg/cache/scheduler/resource_node.go available/potentialAvailable,
// clusterqueue_snapshot.go BorrowingWith).
#pragma once

#include "kpreempt/model/kueue.h"
#include "kpreempt/model/time.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kpreempt::policy::kueue {

// A (flavor, resource) pair, Kueue's FlavorResource.
struct FR {
  std::string flavor, resource;
  friend auto operator<=>(const FR&, const FR&) = default;
};
using FRAmounts = std::map<FR, std::int64_t>;
using FRSet = std::set<FR>;

struct Quota {
  std::int64_t nominal = 0;
  std::optional<std::int64_t> borrowing_limit, lending_limit;
};

// An admitted Workload (holds quota): its ClusterQueue and what it uses.
struct Admitted {
  std::uint32_t workload = 0;  // index into KueueObjects::workloads
  std::size_t cq = 0;
  FRAmounts usage;
  FRSet uses;  // pairs named by its podSetAssignments' flavors
};

class QuotaModel {
 public:
  explicit QuotaModel(const model::KueueObjects& k);

  std::optional<std::size_t> find_cq(std::string_view name) const;
  const model::ClusterQueue& cq(std::size_t i) const { return *m_cqs[i]; }
  bool has_cohort(std::size_t i) const { return !m_cqs[i]->cohort.empty(); }
  // Every ClusterQueue of i's cohort, i included, in input order.
  std::vector<std::size_t> cohort_members(std::size_t i) const;
  // stopPolicy or a missing ResourceFlavor make a ClusterQueue inactive.
  bool active(std::size_t i) const { return m_active[i]; }
  const std::string& inactive_reason(std::size_t i) const { return m_inactive_reason[i]; }

  Quota quota(std::size_t i, const FR& fr) const;  // unlisted pair: nominal 0
  std::int64_t usage(std::size_t i, const FR& fr) const;
  std::int64_t guaranteed(std::size_t i, const FR& fr) const;
  std::int64_t available(std::size_t i, const FR& fr) const;
  std::int64_t potential_max(std::size_t i, const FR& fr) const;
  bool borrows_with(std::size_t i, const FR& fr, std::int64_t v) const {
    return usage(i, fr) + v > quota(i, fr).nominal;
  }
  bool over_nominal(std::size_t i, const FRSet& frs) const;
  // Cohort totals for the pair: capacity (lendable nominal) and used (usage above the
  // guaranteed parts).
  std::int64_t cohort_capacity(std::size_t i, const FR& fr) const;
  std::int64_t cohort_used(std::size_t i, const FR& fr) const;

  const std::vector<Admitted>& admitted() const { return m_admitted; }
  void remove(const Admitted& a);
  void add(const Admitted& a);
  // Every pair the ClusterQueue lists, in resource-group order.
  std::vector<FR> listed_pairs(std::size_t i) const;

 private:
  void add_admitted(const model::KueueObjects& k, std::uint32_t index);
  std::vector<const model::ClusterQueue*> m_cqs;
  std::vector<std::map<FR, Quota>> m_quotas;
  std::vector<FRAmounts> m_usage;
  std::vector<bool> m_active;
  std::vector<std::string> m_inactive_reason;
  std::vector<Admitted> m_admitted;
};

// Whether the Workload holds quota: QuotaReserved=True, not Finished, with an admission
// naming an existing ClusterQueue.
bool holds_quota(const model::Workload& w);
// The time Kueue orders a workload by in the queue (creation, or the eviction time for
// workloads evicted by an admission check or PodsReady timeout).
model::Instant queue_order_time(const model::Workload& w);
// QuotaReserved lastTransitionTime when true, else `now` (candidate ordering).
model::Instant quota_reserved_time(const model::Workload& w, model::Instant now);

}  // namespace kpreempt::policy::kueue
