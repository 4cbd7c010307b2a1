// SPDX-License-Identifier: Apache-2.0
// Koordinator's ElasticQuota state as the scheduler holds it: pod -> quota, per-quota counters
// and the runtime quota of every quota. Mirrors koordinator-sh/koordinator
// pkg/scheduler/plugins/elasticquota (plugin_helper.go GetQuotaName, core/group_quota_manager.go,
// core/runtime_quota_calculator.go), commit a7a1b76bbf81 (v1.8.0-61).
#pragma once

#include "kpreempt/model/koordinator.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/policy.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::policy::koordinator {

// Resource name -> amount in scheduler units (cpu in millicores, the rest in base units). A key
// that is present matters even at 0: masks and limits are defined by their keys.
using ResVec = std::map<std::string, std::int64_t>;

ResVec to_vec(const model::ResourceList& list);
ResVec to_vec(const model::Resources& r);  // keys with a non-zero amount
ResVec mask(const ResVec& v, const ResVec& keys);
ResVec add(ResVec a, const ResVec& b);
ResVec subtract_floor0(ResVec a, const ResVec& b);  // quotav1.SubtractWithNonNegativeResult
// quotav1.LessThanOrEqual: only keys of `limit` are compared, a key missing from `a` counts 0.
bool less_equal(const ResVec& a, const ResVec& limit, std::vector<std::string>* exceeded = nullptr);
std::string to_string(const ResVec& v);  // "cpu=2, memory=1Gi"; "-" when empty

// ElasticQuota and Coscheduling args (pkg/scheduler/apis/config/v1/defaults.go).
struct KoordArgs {
  bool enable_runtime_quota = true;
  bool disable_default_quota_preemption = true;
  bool enable_check_parent_quota = false;
  bool enable_min_quota_scale = true;
  bool enable_preemption = false;  // Coscheduling.enablePreemption
  ResVec default_quota_max, system_quota_max;
};
// --set wins over a KubeSchedulerConfiguration in the dump; bad values throw UsageError.
KoordArgs read_args(const Input& in);

struct QuotaNode {
  std::string name;
  std::string parent;                                // k_koord_root_quota for top-level quotas
  const model::KoordElasticQuota* object = nullptr;  // null for the built-in quotas
  bool builtin = false;
  bool allow_lent = true;
  ResVec min, scaled_min, max, shared_weight;
  ResVec request;          // own pods' masked requests, or children's limited requests
  ResVec limited_request;  // request capped at max
  ResVec used, non_preemptible_used;
  std::optional<ResVec> runtime;  // nullopt: unlimited (built-in quotas with runtime on)
  std::vector<std::string> children;
  std::vector<model::PodId> pods;  // counted pods, input order
};

class QuotaModel {
 public:
  QuotaModel(const model::Snapshot& snap, const KoordArgs& args);

  // The quota a pod is charged to (always a known quota name).
  const std::string& quota_of(model::PodId pod) const { return m_pod_quota[pod]; }
  const QuotaNode* find(std::string_view name) const;
  // The pod's request masked to the keys of the quota's max.
  ResVec masked_request(model::PodId pod, const QuotaNode& q) const;
  // runtime (enableRuntimeQuota) or max; nullopt = unlimited.
  std::optional<ResVec> limit(const QuotaNode& q) const;
  // The quota and its ancestors below the root, quota first.
  std::vector<const QuotaNode*> path(std::string_view name) const;
  const ResVec& cluster_total() const { return m_total; }
  const std::vector<std::string>& warnings() const { return m_warnings; }

 private:
  void build_nodes();
  void count_pods();
  void sum_requests(QuotaNode& q);
  void compute_runtime(const QuotaNode& parent, const ResVec& total);
  std::string resolve(const model::Pod& pod) const;

  const model::Snapshot& m_snap;
  const KoordArgs& m_args;
  std::map<std::string, QuotaNode> m_nodes;
  std::vector<std::string> m_pod_quota;
  ResVec m_keys;  // union of the max keys of every user quota (values unused)
  ResVec m_total;
  std::vector<std::string> m_warnings;
};

bool non_preemptible(const model::Pod& pod);  // label quota.../preemptible == "false"

}  // namespace kpreempt::policy::koordinator
