// SPDX-License-Identifier: Apache-2.0
// Quota admission and pod-level preemption of the ElasticQuota plugin. Mirrors
// koordinator-sh/koordinator pkg/scheduler/plugins/elasticquota/plugin.go (PreFilter, AddPod,
// RemovePod) and preempt.go (PodEligibleToPreemptOthers, SelectVictimsOnNode, canPreempt),
// commit a7a1b76bbf81 (v1.8.0-61), on the kube-scheduler preemption framework.
#include "policy/common/explain.h"
#include "policy/common/pdb.h"
#include "policy/koordinator/preempt.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::koordinator {
namespace {

using common::FilterStatus;

std::string check_limit(const ResVec& used, const std::optional<ResVec>& limit,
                        std::vector<std::string>& exceeded) {
  if (!limit || less_equal(used, *limit, &exceeded)) {
    return "";
  }
  return fmt::format("{}", fmt::join(exceeded, ", "));
}

// canPreempt, with the reason a pod is not a candidate; none for a candidate.
std::optional<Code> skip_code(const Context& ctx, model::PodId v) {
  const model::Pod& pod = ctx.snap.pods()[v];
  if (non_preemptible(pod)) {
    return Code::non_preemptible;
  }
  const std::string& q = ctx.quotas.quota_of(v);
  if (ctx.args.disable_default_quota_preemption && q == model::k_koord_default_quota) {
    return Code::default_quota_protected;
  }
  if (ctx.snap.facts(v).priority >= ctx.snap.facts(ctx.in.preemptor).priority) {
    return Code::not_lower_priority;
  }
  if (q != ctx.quota.name) {
    return Code::other_quota;
  }
  return std::nullopt;
}

std::string skip_detail(const Context& ctx, model::PodId v, Code code) {
  if (code == Code::non_preemptible) {
    return "labelled quota.scheduling.koordinator.sh/preemptible=false";
  }
  if (code == Code::default_quota_protected) {
    return "in koordinator-default-quota, protected by disableDefaultQuotaPreemption";
  }
  if (code == Code::not_lower_priority) {
    return fmt::format("priority {} is not below the preemptor's {}", ctx.snap.facts(v).priority,
                       ctx.snap.facts(ctx.in.preemptor).priority);
  }
  return fmt::format("quota {} is not the preemptor's {}", ctx.quotas.quota_of(v), ctx.quota.name);
}

// The dry run's copy of the preemptor's quota usage (RemovePod/AddPod extensions): only pods
// of the preemptor's quota move it.
struct UsedCopy {
  const Context& ctx;
  ResVec used;
  void remove(model::PodId p) {
    if (ctx.quotas.quota_of(p) == ctx.quota.name) {
      used = subtract_floor0(used, ctx.quotas.masked_request(p, ctx.quota));
    }
  }
  void add_back(model::PodId p) {
    if (ctx.quotas.quota_of(p) == ctx.quota.name) {
      used = add(used, ctx.quotas.masked_request(p, ctx.quota));
    }
  }
  // newUsed = Mask(used + podReq, keys of podReq) <= limit captured at PreFilter.
  bool fits() const {
    return !ctx.limit || less_equal(mask(add(used, ctx.request), ctx.request), *ctx.limit);
  }
};

void reprieve_all(const Context& ctx, const common::PdbSplit& split, common::NodeView& view,
                  UsedCopy& used, NodeRun& run, std::vector<std::size_t>& index_of) {
  auto one = [&](model::PodId id, bool violating) {
    PodVerdict& v = run.pods[index_of[id]];
    std::erase(view.removed, id);
    used.add_back(id);
    const FilterStatus s = ctx.filters.run_with_nominated(view);
    bool gone = false;
    if (!s.ok()) {
      view.removed.push_back(id);
      used.remove(id);
      run.victims.push_back(id);
      run.victim_codes.push_back(Code::victim_node_fit);
      run.pdb_violations += violating ? 1 : 0;
      v = verdict(ctx.snap, id, Code::victim_node_fit,
                  fmt::format("must go: with it back the preemptor fails ({})", s.detail));
      gone = true;
    }
    if (!used.fits()) {
      if (gone) {
        // Upstream removes the pod from the node a second time, which fails: the node is
        // reported with an Error status and dropped.
        run.result = NodeRun::Result::error;
        run.code = Code::error_double_removal;
        run.detail = "the victim fails both the node and the quota check";
        return;
      }
      view.removed.push_back(id);
      used.remove(id);
      run.victims.push_back(id);
      run.victim_codes.push_back(Code::victim_quota);
      v = verdict(ctx.snap, id, Code::victim_quota,
                  "must go: with it back the quota's used plus the preemptor exceeds its limit");
    } else if (!gone) {
      v = verdict(ctx.snap, id, Code::reprieved, "the preemptor still fits node and quota with it");
    }
  };
  for (model::PodId id : split.violating) {
    one(id, true);
  }
  for (model::PodId id : split.non_violating) {
    if (run.result != NodeRun::Result::error) {
      one(id, false);
    }
  }
}

NodeRun dry_run(const Context& ctx, model::NodeId node) {
  NodeRun run;
  run.node = node;
  common::NodeView view{node, {}, {}};
  UsedCopy used{ctx, ctx.quota.used};
  std::vector<std::size_t> index_of(ctx.snap.pods().size(), 0);
  for (model::PodId id : ctx.snap.pods_on(node)) {
    index_of[id] = run.pods.size();
    if (std::optional<Code> code = skip_code(ctx, id)) {
      run.pods.push_back(verdict(ctx.snap, id, *code, skip_detail(ctx, id, *code)));
      continue;
    }
    run.pods.push_back(verdict(ctx.snap, id, Code::same_quota_lower_priority, "a candidate"));
    view.removed.push_back(id);
    used.remove(id);
  }
  if (view.removed.empty()) {
    run.code = Code::no_potential_victims;
    run.detail = "no pod of the same quota with lower priority that may be preempted";
    return run;
  }
  if (FilterStatus s = ctx.filters.run_with_nominated(view); !s.ok()) {
    run.result = NodeRun::Result::does_not_fit;
    run.code = Code::does_not_fit_after_removal;
    run.detail = fmt::format("{}: {} (even with every candidate removed)", s.plugin, s.detail);
    return run;
  }
  std::vector<model::PodId> sorted = view.removed;
  common::sort_by_importance(ctx.snap, ctx.in.now, sorted);
  reprieve_all(ctx, common::split_by_pdbs(ctx.snap, sorted), view, used, run, index_of);
  if (run.result == NodeRun::Result::error) {
    return run;
  }
  if (run.victims.empty()) {
    run.result = NodeRun::Result::error;
    run.code = Code::error_no_victims_needed;
    run.detail = "expected at least one victim pod on the node";
    return run;
  }
  run.result = NodeRun::Result::candidate;
  return run;
}

// PodEligibleToPreemptOthers of the ElasticQuota plugin: any terminating pod of the same quota
// with lower priority on the nominated node blocks, no DisruptionTarget condition needed.
std::optional<Code> ineligible(const Context& ctx, std::string& detail) {
  const model::Pod& p = ctx.snap.pods()[ctx.in.preemptor];
  if (ctx.snap.facts(ctx.in.preemptor).preempt_never) {
    detail = "preemptionPolicy is Never";
    return Code::cannot_trigger_preemption;
  }
  const std::optional<model::NodeId> node = ctx.snap.find_node(p.nominated_node_name);
  if (p.nominated_node_name.empty() || !node ||
      ctx.first[*node].code == common::Code::unresolvable) {
    return std::nullopt;
  }
  for (model::PodId id : ctx.snap.pods_on(*node)) {
    if (ctx.snap.pods()[id].terminating() && ctx.quotas.quota_of(id) == ctx.quota.name &&
        ctx.snap.facts(id).priority < ctx.snap.facts(ctx.in.preemptor).priority) {
      detail = fmt::format("pod {}/{} of quota {} is terminating on the nominated node {}",
                           ctx.snap.pods()[id].namespace_, ctx.snap.pods()[id].name, ctx.quota.name,
                           p.nominated_node_name);
      return Code::terminating_victim_on_nominated_node;
    }
  }
  return std::nullopt;
}

}  // namespace

Context::Context(const Input& input, KoordArgs a)
    : in(input),
      snap(input.snapshot),
      args(std::move(a)),
      quotas(input.snapshot, args),
      filters(input.snapshot, input.preemptor),
      quota(*quotas.find(quotas.quota_of(input.preemptor))),
      limit(quotas.limit(quota)),
      request(to_vec(input.snapshot.facts(input.preemptor).requests)) {
  for (model::NodeId id = 0; id < snap.nodes().size(); ++id) {
    if (std::optional<FilterStatus> rejected = filters.prefilter_rejects(id)) {
      first.push_back(*rejected);
    } else {
      first.push_back(filters.run_with_nominated(common::NodeView{id, {}, {}}));
    }
  }
}

Admission admit(const Context& ctx) {
  const ResVec req = ctx.quotas.masked_request(ctx.in.preemptor, ctx.quota);
  std::vector<std::string> exceeded;
  if (std::string bad = check_limit(add(ctx.quota.used, req), ctx.limit, exceeded); !bad.empty()) {
    return {
        false, Code::quota_runtime_exceeded,
        fmt::format("quota {}: used {} + request {} exceeds {} {} ({})", ctx.quota.name,
                    to_string(ctx.quota.used), to_string(req),
                    ctx.args.enable_runtime_quota ? "runtime" : "max", to_string(*ctx.limit), bad)};
  }
  if (non_preemptible(ctx.snap.pods()[ctx.in.preemptor])) {
    // The unscaled min, and only its keys.
    const ResVec npu = add(ctx.quota.non_preemptible_used, req);
    if (std::string bad = check_limit(npu, ctx.quota.min, exceeded); !bad.empty()) {
      return {false, Code::non_preemptible_min_exceeded,
              fmt::format("quota {}: non-preemptible used {} + request {} exceeds min {} ({})",
                          ctx.quota.name, to_string(ctx.quota.non_preemptible_used), to_string(req),
                          to_string(ctx.quota.min), bad)};
    }
  }
  if (ctx.args.enable_check_parent_quota) {
    const std::vector<const QuotaNode*> path = ctx.quotas.path(ctx.quota.name);
    for (std::size_t i = 1; i < path.size(); ++i) {
      const std::optional<ResVec> lim = ctx.quotas.limit(*path[i]);
      const ResVec used = mask(add(req, path[i]->used), req);
      if (std::string bad = check_limit(used, lim, exceeded); !bad.empty()) {
        return {false, Code::parent_quota_exceeded,
                fmt::format("parent quota {}: used {} + request {} exceeds {} ({})", path[i]->name,
                            to_string(path[i]->used), to_string(req), to_string(*lim), bad)};
      }
    }
  }
  return {};
}

PodLevel run_pod_level(const Context& ctx, const std::vector<bool>& potential) {
  PodLevel out;
  if ((out.ineligible = ineligible(ctx, out.ineligible_detail))) {
    return out;
  }
  std::vector<CandidateRank> ranks;
  std::vector<std::size_t> candidates;
  for (model::NodeId id : ctx.snap.nodes_by_name()) {
    if (!potential[id]) {
      continue;
    }
    out.runs.push_back(dry_run(ctx, id));
    NodeRun& run = out.runs.back();
    if (run.result == NodeRun::Result::candidate) {
      // pickOneNodeForPreemption reads the highest priority from the first victim; unlike
      // kube-scheduler since v1.32 the plugin does not re-sort its victims, so a PDB-violating
      // victim comes first even when it is not the most important.
      run.rank = common::rank_of(ctx.snap, ctx.in.now, run.victims, run.pdb_violations);
      ranks.push_back(*run.rank);
      candidates.push_back(out.runs.size() - 1);
    }
  }
  if (!candidates.empty()) {
    out.pick = common::pick_candidate(ranks);
    out.winner = candidates[out.pick.winner];
    std::vector<std::size_t> tied;
    for (std::size_t i : out.pick.tied) {
      tied.push_back(candidates[i]);
    }
    out.pick.tied = tied;
  }
  return out;
}

}  // namespace kpreempt::policy::koordinator
