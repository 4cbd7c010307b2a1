// SPDX-License-Identifier: Apache-2.0
// The only list of policies: it feeds --policy, --help, `all` and the renderers.
#include "kpreempt/policy/capacity.h"
#include "kpreempt/policy/default.h"
#include "kpreempt/policy/koordinator.h"
#include "kpreempt/policy/kueue.h"
#include "kpreempt/policy/policy.h"
#include "kpreempt/policy/toleration.h"
#include "kpreempt/policy/yunikorn.h"

#include <array>
#include <string_view>

namespace kpreempt::policy {
namespace {

bool always(const model::Snapshot& /*snap*/, model::PodId /*preemptor*/) {
  return true;
}

// The keys each policy reads (default.cpp, toleration.cpp, koordinator/args.cpp).
constexpr std::array<std::string_view, 2> k_default_keys{
    "DefaultPreemption.minCandidateNodesAbsolute", "DefaultPreemption.minCandidateNodesPercentage"};
constexpr std::array<std::string_view, 2> k_toleration_keys{
    "PreemptionToleration.minCandidateNodesAbsolute",
    "PreemptionToleration.minCandidateNodesPercentage"};
constexpr std::array<std::string_view, 7> k_koordinator_keys{
    "ElasticQuota.enableRuntimeQuota",     "ElasticQuota.disableDefaultQuotaPreemption",
    "ElasticQuota.enableCheckParentQuota", "ElasticQuota.enableMinQuotaScale",
    "ElasticQuota.defaultQuotaGroupMax.*", "ElasticQuota.systemQuotaGroupMax.*",
    "Coscheduling.enablePreemption"};
constexpr std::span<const std::string_view> k_no_keys;

constexpr std::array k_policies{
    Entry{"default", "kube-scheduler DefaultPreemption",
          "kubernetes v1.34 pkg/scheduler/framework/plugins/defaultpreemption", "DefaultPreemption",
          decide_default, always, false, k_default_keys, &k_default_class_rules, Scheduler::kube},
    Entry{"toleration", "scheduler-plugins PreemptionToleration",
          "scheduler-plugins v0.35 pkg/preemptiontoleration", "PreemptionToleration",
          decide_toleration, toleration_applies, false, k_toleration_keys,
          &k_toleration_class_rules, Scheduler::kube},
    Entry{"capacity", "scheduler-plugins CapacityScheduling (ElasticQuota min/max)",
          "scheduler-plugins v0.35 pkg/capacityscheduling", "CapacityScheduling", decide_capacity,
          capacity_applies, false, k_no_keys, &k_quota_class_rules, Scheduler::kube},
    Entry{"koordinator", "Koordinator ElasticQuota and job-level (gang) preemption",
          "koordinator v1.8.0-61 pkg/scheduler/plugins/elasticquota, coscheduling/core",
          "ElasticQuota", decide_koordinator, koordinator_applies, false, k_koordinator_keys,
          &k_quota_class_rules, Scheduler::koordinator},
    Entry{"kueue", "Kueue classical workload preemption (ClusterQueue and cohort quota)",
          "kueue v0.14.8 pkg/scheduler/preemption, flavorassigner", "Kueue", decide_kueue,
          kueue_applies, true, k_no_keys, &k_quota_class_rules, Scheduler::kueue},
    Entry{"yunikorn", "Apache YuniKorn queue-guarantee preemption (the seven laws)",
          "yunikorn-core v1.7.0 pkg/scheduler/objects/preemption.go", "YuniKorn", decide_yunikorn,
          yunikorn_applies, false, k_no_keys, &k_yunikorn_class_rules, Scheduler::yunikorn},
};

}  // namespace

std::span<const Entry> all() {
  return k_policies;
}

const Entry* find(std::string_view name) {
  for (const Entry& e : k_policies) {
    if (e.name == name) {
      return &e;
    }
  }
  return nullptr;
}

}  // namespace kpreempt::policy
