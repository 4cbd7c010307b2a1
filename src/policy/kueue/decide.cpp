// SPDX-License-Identifier: Apache-2.0
// The kueue policy: one scheduling attempt of Kueue v0.14.8 for one pending workload
// (kubernetes-sigs/kueue pkg/scheduler/scheduler.go nominate → flavorassigner.Assign →
// preemption.GetTargets), classical preemption with fair sharing off.
#include "policy/kueue/internal.h"
#include "policy/kueue/report.h"

#include "kpreempt/policy/kueue.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy {
namespace {

using namespace kueue;

void scope_warnings(const model::KueueObjects& k, Decision& d) {
  bool fair = std::any_of(k.cluster_queues.begin(), k.cluster_queues.end(),
                          [](const auto& cq) { return cq.fair_sharing; });
  if (fair || !k.cohorts.empty()) {
    d.warnings.push_back(
        "the dump has ClusterQueue fairSharing settings or Cohort objects; fair sharing and "
        "hierarchical cohorts are not modelled, the result assumes classical preemption in flat "
        "cohorts");
  }
  if (std::any_of(k.flavors.begin(), k.flavors.end(),
                  [](const auto& f) { return !f.topology_name.empty(); })) {
    d.warnings.push_back(
        "some ResourceFlavors set topologyName; topology-aware scheduling is not modelled");
  }
}

void pod_set_warnings(const Preemptor& p, const model::ClusterQueue& cq, Decision& d) {
  if (std::any_of(p.pod_sets.begin(), p.pod_sets.end(),
                  [](const auto& ps) { return ps.min_count.has_value(); })) {
    d.warnings.push_back("minCount (partial admission) is not modelled; the full count is used");
  }
  if (cq.queueing_strategy == "StrictFIFO") {
    d.warnings.push_back(fmt::format(
        "ClusterQueue {} is StrictFIFO; the workload is evaluated as if it were at the head",
        cq.name));
  }
}

bool borrows_after(const Context& ctx, const Assignment& a, const std::vector<Target>& victims) {
  for (const Target& t : victims) {
    ctx.quota.remove(*t.a);
  }
  bool out = std::any_of(a.totals.begin(), a.totals.end(), [&](const auto& kv) {
    return ctx.quota.borrows_with(ctx.p.cq, kv.first, kv.second);
  });
  for (const Target& t : victims) {
    ctx.quota.add(*t.a);
  }
  return out;
}

void decide_preemption(Context& ctx, const Assignment& a, Search& s, Decision& d) {
  s = find_targets(ctx, a.needs_preemption(), a.totals);
  if (s.targets.empty()) {
    bool any_candidate = std::any_of(s.verdicts.begin(), s.verdicts.end(), [](const Verdict& v) {
      return v.code == Code::insufficient_candidates || v.code == Code::not_needed ||
             v.code == Code::reclaim_requires_no_borrowing || v.code == Code::cq_below_nominal ||
             v.code == Code::above_max_priority_threshold;
    });
    d.outcome = Outcome::unschedulable;
    d.reasons.push_back(any_candidate ? Code::insufficient_candidates : Code::no_candidates);
    return;
  }
  d.outcome = Outcome::preempt;
  d.reasons.push_back(Code::preempt);
}

}  // namespace

Decision decide_kueue(const Input& in) {
  Decision d;
  d.policy = "kueue";
  const model::KueueObjects& k = in.snapshot.kueue();
  scope_warnings(k, d);
  QuotaModel quota(k);
  std::optional<Preemptor> p = resolve_preemptor(in, quota, d);
  if (!p) {
    return d;
  }
  Context ctx{in, k, quota, std::move(*p)};
  pod_set_warnings(ctx.p, quota.cq(ctx.p.cq), d);
  Assignment a = assign_flavors(ctx);
  Search s;
  bool searched = false;
  if (a.no_fit) {
    d.outcome = Outcome::unschedulable;
    d.reasons.push_back(a.code.value_or(Code::error_));
  } else if (a.worst == PMode::fit) {
    d.outcome = Outcome::fits;
    d.reasons.push_back(a.borrow() > 0 ? Code::fits_borrowing : Code::fits);
  } else {
    decide_preemption(ctx, a, s, d);
    searched = true;
  }
  Report r{ctx, a, s, searched, borrows_after(ctx, a, s.targets)};
  write_report(r, d);
  return d;
}

bool kueue_applies(const model::Snapshot& snap, model::PodId preemptor) {
  return preemptor != model::k_none &&
         model::find(snap.pods()[preemptor].labels, model::k_kueue_queue_label) != nullptr;
}

}  // namespace kpreempt::policy
