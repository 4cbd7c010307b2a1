// SPDX-License-Identifier: Apache-2.0
// The kueue policy: one scheduling attempt of Kueue v0.14.8 for one pending workload
// (kubernetes-sigs/kueue pkg/scheduler/scheduler.go nominate → flavorassigner.Assign →
// preemption.GetTargets): classical preemption, or fair sharing when the Configuration or
// --set turns it on.
#include "policy/kueue/internal.h"
#include "policy/kueue/report.h"

#include "kpreempt/policy/kueue.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy {
namespace {

using namespace kueue;

// Fair sharing weights matter only when the Kueue Configuration turns fair sharing on.
void scope_warnings(const model::KueueObjects& k, bool fair_on, Decision& d) {
  std::vector<std::string> fair;
  for (const auto& cq : k.cluster_queues) {
    if (cq.fair_sharing) {
      fair.push_back("ClusterQueue " + cq.name);
    }
  }
  for (const auto& c : k.cohorts) {
    if (c.fair_sharing) {
      fair.push_back("Cohort " + c.name);
    }
  }
  if (!fair.empty() && !fair_on) {
    std::size_t more = fair.size() > 3 ? fair.size() - 3 : 0;
    fair.resize(std::min<std::size_t>(fair.size(), 3));
    d.warnings.push_back(fmt::format(
        "{}{} set{} fairSharing; fair sharing is off (no Kueue Configuration in the input "
        "enables it; --set fairSharing.enable=true turns it on), the result is classical "
        "preemption",
        fmt::join(fair, ", "), more > 0 ? fmt::format(" and {} more", more) : "",
        fair.size() + more == 1 ? "s" : ""));
  }
  if (std::any_of(k.flavors.begin(), k.flavors.end(),
                  [](const auto& f) { return !f.topology_name.empty(); })) {
    d.warnings.push_back(
        "some ResourceFlavors set topologyName; topology-aware scheduling is not modelled");
  }
}

void queue_warnings(const model::ClusterQueue& cq, Decision& d) {
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
  FRAmounts requests = a.search_requests(ctx.rules);
  bool out = std::any_of(requests.begin(), requests.end(), [&](const auto& kv) {
    return ctx.quota.borrows_with(ctx.p.cq, kv.first, kv.second);
  });
  for (const Target& t : victims) {
    ctx.quota.add(*t.a);
  }
  return out;
}

void preemption_outcome(const Search& s, Decision& d) {
  if (s.targets.empty()) {
    bool any_candidate = std::any_of(s.verdicts.begin(), s.verdicts.end(), [](const Verdict& v) {
      return v.code == Code::insufficient_candidates || v.code == Code::not_needed ||
             v.code == Code::fair_share_above_final ||
             v.code == Code::fair_share_not_below_initial ||
             v.code == Code::reclaim_requires_no_borrowing || v.code == Code::cq_below_nominal ||
             v.code == Code::cohort_below_nominal || v.code == Code::above_max_priority_threshold;
    });
    d.outcome = Outcome::unschedulable;
    d.reasons.push_back(any_candidate ? Code::insufficient_candidates : Code::no_candidates);
    return;
  }
  d.outcome = Outcome::preempt;
  d.reasons.push_back(Code::preempt);
}

void outcome(const Attempt& t, Decision& d) {
  if (t.a.no_fit) {
    d.outcome = Outcome::unschedulable;
    d.reasons.push_back(t.a.code.value_or(Code::error_));
  } else if (t.a.worst == PMode::fit) {
    d.outcome = Outcome::fits;
    d.reasons.push_back(t.a.borrow() > 0 ? Code::fits_borrowing : Code::fits);
  } else {
    preemption_outcome(t.s, d);
  }
}

// Upstream writes the reduced counts to status.admission.podSetAssignments[].count.
void report_partial(const Context& ctx, const Reduced& r, Decision& d) {
  std::string counts;
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.counts.size(); ++i) {
    const model::KueuePodSet& ps = ctx.p.pod_sets[i];
    counts += fmt::format("{}{} {} of {}", i == 0 ? "" : ", ", ps.name, r.counts[i], ps.count);
    j.push_back({{"podSet", ps.name}, {"count", r.counts[i]}, {"specCount", ps.count}});
  }
  d.summary += fmt::format(" Partial admission: {} pods.", counts);
  if (d.details.is_object()) {
    d.details["partialAdmission"] = std::move(j);
  }
}

}  // namespace

namespace kueue {

Rules rules_for(ReleaseLine line) {
  if (line.unset() || line >= ReleaseLine{0, 19}) {
    return {};
  }
  return {.skip_zero_uncovered = false,
          .positive_requests_only = false,
          .own_label_keys = false,
          .fungibility_preference = false,
          .no_candidates_last = false,
          .workload_slices = false,
          .fair_within_nominal = false,
          .fair_prune_not_borrowing = false};
}

}  // namespace kueue

Decision decide_kueue(const Input& in) {
  Decision d;
  d.policy = "kueue";
  const model::KueueObjects& k = in.snapshot.kueue();
  FairConfig fair = fair_config(in, k, d);
  scope_warnings(k, fair.on, d);
  QuotaModel quota(k);
  std::optional<Preemptor> p = resolve_preemptor(in, quota, d);
  if (!p) {
    return d;
  }
  Context ctx{in, k, quota, std::move(*p), rules_for(in.line), std::move(fair)};
  queue_warnings(quota.cq(ctx.p.cq), d);
  bind_replaced_slice(ctx);
  Attempt t = attempt(ctx);
  std::optional<Reduced> reduced;
  if (!t.ok) {
    reduced = reduce_counts(ctx);
  }
  if (reduced) {
    ctx.p.requests = reduced->requests;
    t = std::move(reduced->at);
  }
  outcome(t, d);
  if (ctx.fair.on) {
    d.reasons.push_back(Code::fair_sharing);
  }
  Report r{ctx, t.a, t.s, t.searched, borrows_after(ctx, t.a, t.s.targets)};
  write_report(r, d);
  if (reduced) {
    report_partial(ctx, *reduced, d);
  }
  if (ctx.p.replaces) {
    const model::Workload& old = k.workloads[*ctx.p.replaces];
    d.summary += fmt::format(
        " It replaces the admitted slice Workload/{}/{}, which finishes "
        "instead of being preempted.",
        old.namespace_, old.name);
  }
  return d;
}

bool kueue_applies(const model::Snapshot& snap, model::PodId preemptor) {
  return preemptor != model::k_none &&
         model::find(snap.pods()[preemptor].labels, model::k_kueue_queue_label) != nullptr;
}

}  // namespace kpreempt::policy
