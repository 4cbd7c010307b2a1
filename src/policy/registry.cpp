// SPDX-License-Identifier: Apache-2.0
// The only list of policies: it feeds --policy, --help, `all` and the renderers.
#include "policy/common/kube_line.h"

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

// The keys each policy reads (default.cpp, toleration.cpp, koordinator/args.cpp,
// yunikorn/report.h).
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
constexpr std::array<std::string_view, 1> k_yunikorn_keys{"YuniKorn.quotaPreemption"};
// The Kueue Configuration's own field paths (kueue/fair_config.cpp).
constexpr std::array<std::string_view, 2> k_kueue_keys{"fairSharing.enable",
                                                       "fairSharing.preemptionStrategies"};
constexpr std::span<const std::string_view> k_no_keys;

// The release lines each policy models, oldest first: the last is the default.
constexpr std::array k_default_lines{
    LineInfo{{1, 34}, "kubernetes v1.34 pkg/scheduler/framework/plugins/defaultpreemption"},
    LineInfo{{1, 35}, "kubernetes v1.35 pkg/scheduler/framework/plugins/defaultpreemption"},
    LineInfo{{1, 36}, "kubernetes v1.36 pkg/scheduler/framework/plugins/defaultpreemption"},
    LineInfo{{1, 37}, "kubernetes v1.37 pkg/scheduler/framework/plugins/defaultpreemption"},
};
// scheduler-plugins v0.35 vendors Kubernetes v1.35.
constexpr std::array k_toleration_lines{
    LineInfo{{0, 35}, "scheduler-plugins v0.35 pkg/preemptiontoleration", {1, 35}}};
constexpr std::array k_capacity_lines{
    LineInfo{{0, 35}, "scheduler-plugins v0.35 pkg/capacityscheduling", {1, 35}}};
constexpr std::array k_koordinator_lines{LineInfo{
    {1, 8}, "koordinator v1.8.0-61 pkg/scheduler/plugins/elasticquota, coscheduling/core"}};
constexpr std::array k_kueue_lines{
    LineInfo{{0, 14}, "kueue v0.14.8 pkg/scheduler/preemption, flavorassigner"},
    LineInfo{{0, 19}, "kueue v0.19.2 pkg/scheduler/preemption, flavorassigner"}};
constexpr std::array k_yunikorn_lines{
    LineInfo{{1, 7}, "yunikorn-core v1.7.0 pkg/scheduler/objects/preemption.go"},
    LineInfo{{1, 8}, "yunikorn-core v1.8.0 pkg/scheduler/objects/preemption.go"},
};
constexpr std::span<const GateInfo> k_no_gates;
using Image = model::SchedulerImageKind;

constexpr std::array k_policies{
    Entry{"default", "kube-scheduler DefaultPreemption", k_default_lines, "DefaultPreemption",
          decide_default, always, false, k_default_keys, &k_default_class_rules, Scheduler::kube,
          common::k_kube_gates, Image::kube_scheduler},
    Entry{"toleration", "scheduler-plugins PreemptionToleration", k_toleration_lines,
          "PreemptionToleration", decide_toleration, toleration_applies, false, k_toleration_keys,
          &k_toleration_class_rules, Scheduler::kube, common::k_kube_gates,
          Image::scheduler_plugins},
    Entry{"capacity", "scheduler-plugins CapacityScheduling (ElasticQuota min/max)",
          k_capacity_lines, "CapacityScheduling", decide_capacity, capacity_applies, false,
          k_no_keys, &k_quota_class_rules, Scheduler::kube, common::k_kube_gates,
          Image::scheduler_plugins},
    Entry{"koordinator", "Koordinator ElasticQuota and job-level (gang) preemption",
          k_koordinator_lines, "ElasticQuota", decide_koordinator, koordinator_applies, false,
          k_koordinator_keys, &k_quota_class_rules, Scheduler::koordinator, k_no_gates,
          Image::koordinator},
    Entry{"kueue", "Kueue classical workload preemption (ClusterQueue and cohort quota)",
          k_kueue_lines, "Kueue", decide_kueue, kueue_applies, true, k_kueue_keys,
          &k_quota_class_rules, Scheduler::kueue, k_no_gates, Image::kueue},
    Entry{"yunikorn", "Apache YuniKorn queue-guarantee preemption (the seven laws)",
          k_yunikorn_lines, "YuniKorn", decide_yunikorn, yunikorn_applies, false, k_yunikorn_keys,
          &k_yunikorn_class_rules, Scheduler::yunikorn, k_no_gates, Image::yunikorn},
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
