// SPDX-License-Identifier: Apache-2.0
// CapacityScheduling internals: ElasticQuotaInfo arithmetic and the per-node victim search.
// Mirrors kubernetes-sigs/scheduler-plugins pkg/capacityscheduling/elasticquota.go and
// capacity_scheduling.go (v0.35, commit 903da7df82cb).
#pragma once

#include "policy/common/filters.h"
#include "policy/common/pdb.h"
#include "policy/common/select_victims.h"

#include "kpreempt/model/elastic_quota.h"
#include "kpreempt/model/resources.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/policy.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::policy::capacity {

inline constexpr std::int64_t k_upper_bound_of_max = INT64_MAX;
inline constexpr std::int64_t k_lower_bound_of_min = 0;

// cmp2: true when x1 + x2 > y in any dimension. cpu, memory, ephemeral-storage and pods are
// compared directly (a dimension y does not list is 0 there); scalar resources only for the
// names x1 carries, a name missing from y standing for `bound`.
bool exceeds(const model::Resources& x1, const model::Resources& x2, const model::Resources& y,
             std::int64_t bound);

// ElasticQuotaInfo: one namespace's bounds in scheduler units and the usage of its pods.
struct QuotaInfo {
  const model::ElasticQuota* source = nullptr;
  model::Resources min, max, used;
};

// The ElasticQuotaInfos snapshot a scheduling cycle works on. Copied per node for the dry run,
// where pods are taken off (RemovePod) and put back (AddPod).
class QuotaState {
 public:
  explicit QuotaState(const model::Snapshot& snap);

  const QuotaInfo* find(std::string_view ns) const;
  const std::vector<QuotaInfo>& quotas() const { return m_quotas; }
  // computePodResourceRequest for a pod of the snapshot.
  const model::Resources& request(model::PodId id) const { return (*m_requests)[id]; }

  bool over_max_with(const QuotaInfo& q, const model::Resources& r) const;
  bool over_min_with(const QuotaInfo& q, const model::Resources& r) const;
  bool over_min(const QuotaInfo& q) const;
  bool aggregated_over_min_with(const model::Resources& r) const;
  model::Resources total_used() const;
  model::Resources total_min() const;

  // deletePodIfPresent / addPodIfNotPresent on the pod's namespace quota.
  void remove(model::PodId id);
  void add(model::PodId id);
  bool counted(model::PodId id) const { return m_counted[id]; }

 private:
  QuotaInfo* find_mut(std::string_view ns);

  const model::Snapshot* m_snap;
  std::shared_ptr<const std::vector<model::Resources>> m_requests;
  std::vector<QuotaInfo> m_quotas;  // one per namespace, input order
  std::vector<bool> m_counted;      // per pod: part of its quota's used
};

// What PreFilter computed for the preemptor.
struct PreFilter {
  std::string namespace_;     // the preemptor's
  bool has_quota = false;     // its namespace has an ElasticQuota
  model::Resources request;   // podReq
  model::Resources in_quota;  // nominatedPodsReqInEQWithPodReq
  model::Resources all;       // nominatedPodsReqWithPodReq
  bool over_max = false;
  bool aggregated_over_min = false;
  bool above_min = false;  // usedOverMinWith(in_quota): same-namespace mode
  bool rejects() const { return over_max || aggregated_over_min; }
};

PreFilter run_prefilter(const QuotaState& quotas, const model::Snapshot& snap,
                        model::PodId preemptor);

// SelectVictimsOnNode of the plugin, on copies of the node and of the quota state.
common::DryRun select_victims(const common::Filters& filters, const QuotaState& quotas,
                              const PreFilter& pre, model::NodeId node, model::Instant now);

// "cpu=3m memory=100Mi" for tables; every dimension that is set, scalars included.
std::string format_resources(const model::Resources& r);

// Explanation pieces (capacity_explain.cpp).
// Warnings about the quotas of the dump: ignored API group, several quotas in a namespace.
void add_input_warnings(const model::Snapshot& snap, Decision& d);
// The winner's victims in eviction order, each with its quota and reason code.
void add_victims(const Input& in, model::NodeId winner, const common::DryRun& dry,
                 const QuotaState& quotas, Decision& d);
// The quota table (min, max, used before and after) and details. `placed` says whether
// the preemptor's request lands in its quota (fits or preempt).
void add_quota_report(const Input& in, const QuotaState& quotas, const PreFilter& pre, bool placed,
                      Decision& d);

}  // namespace kpreempt::policy::capacity
