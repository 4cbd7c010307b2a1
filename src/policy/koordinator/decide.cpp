// SPDX-License-Identifier: Apache-2.0
// koord-scheduler for one pending pod: gang readiness, ElasticQuota admission, then the stock
// PostFilter chain (Coscheduling job-level preemption when enabled, then ElasticQuota pod-level
// preemption). Mirrors koordinator-sh/koordinator pkg/scheduler/plugins/coscheduling and
// pkg/scheduler/plugins/elasticquota with config/manager/scheduler-config.yaml, commit
// a7a1b76bbf81 (v1.8.0-61).
#include "policy/common/explain.h"
#include "policy/koordinator/preempt.h"

#include "kpreempt/diag.h"
#include "kpreempt/policy/koordinator.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy {
namespace {

using koordinator::Context;
using koordinator::Gang;

// With match policy once-satisfied (the default) a gang that already had minMember members
// bound is scheduled as plain pods.
bool once_satisfied(const model::Snapshot& snap, const Gang& g, model::PodId pod) {
  const model::Pod& p = snap.pods()[pod];
  const model::KoordPodGroup* pg = snap.koordinator().find_pod_group(p.namespace_, g.name);
  std::string policy;
  for (const model::StringMap* m : {pg != nullptr ? &pg->annotations : nullptr, &p.annotations}) {
    for (const char* key : {"gang.scheduling.koordinator.sh/match-policy",
                            "pod-group.scheduling.sigs.k8s.io/match-policy"}) {
      if (const std::string* v = m != nullptr ? model::find(*m, key) : nullptr;
          v != nullptr && policy.empty()) {
        policy = *v;
      }
    }
  }
  return (policy.empty() || policy == "once-satisfied") && g.initialised && g.bound >= g.min_member;
}

std::string gang_name(const model::Snapshot& snap, model::PodId id) {
  std::optional<Gang> g = koordinator::gang_of(snap, id);
  return g ? g->name : std::string();
}

Victim victim_of(const Context& ctx, model::PodId id, model::NodeId node, Reason reason) {
  const model::Pod& p = ctx.snap.pods()[id];
  return Victim{model::ObjectRef{"Pod", p.namespace_, p.name},
                ctx.snap.nodes()[node].name,
                ctx.snap.facts(id).priority,
                std::move(reason),
                ctx.quotas.quota_of(id),
                gang_name(ctx.snap, id)};
}

// A node verdict for every node, from the furthest step it reached.
void node_verdicts(const Context& ctx, const koordinator::PodLevel* pod,
                   const koordinator::JobLevel* job, Decision& d) {
  for (model::NodeId n : ctx.snap.nodes_by_name()) {
    NodeVerdict v;
    v.node = ctx.snap.nodes()[n].name;
    const common::FilterStatus& f = ctx.first[n];
    if (f.ok()) {
      v.code = Code::passes_filters;
    } else {
      v.code = Reason(
          f.code == common::Code::unresolvable ? Code::node_unresolvable : Code::node_unschedulable,
          std::string(f.plugin));
    }
    v.detail = f.detail;
    for (model::PodId id : ctx.snap.pods_on(n)) {
      v.pods.push_back(common::plain_verdict(ctx.snap, id, ctx.filters.priority(), "not examined"));
    }
    const koordinator::NodeRun* run = nullptr;
    for (std::size_t i = 0; pod != nullptr && i < pod->runs.size(); ++i) {
      if (pod->runs[i].node == n) {
        run = &pod->runs[i];
      }
    }
    if (job != nullptr && !job->node_code.empty() && job->node_code[n]) {
      v.code = nested(Code::job, *job->node_code[n]);
      v.detail = job->cost.empty() ? job->detail : fmt::format("preemption cost {}", job->cost[n]);
      v.pods = job->pods[n];
    }
    if (run != nullptr) {
      v.code = run->result == koordinator::NodeRun::Result::candidate ? Reason(Code::candidate)
                                                                      : run->code;
      v.detail = run->detail;
      v.rank = run->rank;
      v.pods = run->pods;
    }
    d.nodes.push_back(std::move(v));
  }
}

void finish_job(const Context& ctx, const koordinator::JobLevel& job, Decision& d) {
  d.outcome = Outcome::preempt;
  d.reasons.insert(d.reasons.begin(), Code::preempt);
  Table t{"Job-level placement (Coscheduling)", {"MEMBER", "NODE", "COST", "VICTIMS"}, {}};
  for (const koordinator::Placement& p : job.placements) {
    if (p.pod == ctx.in.preemptor) {
      d.node = ctx.snap.nodes()[p.node].name;
    }
    std::vector<std::string> names;
    for (model::PodId v : job.victims[p.node]) {
      names.push_back(ctx.snap.pods()[v].namespace_ + "/" + ctx.snap.pods()[v].name);
    }
    t.rows.push_back({ctx.snap.pods()[p.pod].name, ctx.snap.nodes()[p.node].name,
                      std::to_string(job.cost[p.node]),
                      names.empty() ? "-" : fmt::format("{}", fmt::join(names, ", "))});
  }
  for (model::NodeId n : ctx.snap.nodes_by_name()) {
    for (model::PodId v : job.victims[n]) {
      d.victims.push_back(victim_of(ctx, v, n, Code::victim_job_fit));
    }
  }
  d.tables.push_back(std::move(t));
  d.summary = fmt::format(
      "the job is placed as a whole ({} pending member(s)); {} victim(s) across nodes, "
      "the trigger pod goes to {}",
      job.placements.size(), d.victims.size(), d.node.empty() ? "-" : d.node);
}

void finish_pod(const Context& ctx, const koordinator::PodLevel& pod, Decision& d) {
  const koordinator::NodeRun& run = pod.runs[*pod.winner];
  d.outcome = Outcome::preempt;
  d.node = ctx.snap.nodes()[run.node].name;
  d.reasons.insert(d.reasons.begin(), Code::preempt);
  if (!pod.pick.tied.empty()) {
    std::vector<std::string> names;
    for (std::size_t i : pod.pick.tied) {
      names.push_back(ctx.snap.nodes()[pod.runs[i].node].name);
    }
    d.tied_nodes = names;
    d.reasons.insert(d.reasons.begin() + 1, Reason(Code::tie, names));
  }
  for (std::size_t i = 0; i < run.victims.size(); ++i) {
    d.victims.push_back(victim_of(ctx, run.victims[i], run.node, run.victim_codes[i]));
  }
  d.summary = fmt::format(
      "preempt {} pod(s) of quota {} on {}{}", d.victims.size(), ctx.quota.name, d.node,
      pod.pick.decided_by ? fmt::format(" ({})", name(*pod.pick.decided_by)) : std::string());
}

std::vector<bool> potential_nodes(const Context& ctx, const koordinator::Admission& adm) {
  std::vector<bool> out;
  for (const common::FilterStatus& f : ctx.first) {
    // A PreFilter rejection gives every node the same Unschedulable status.
    out.push_back(!adm.ok || f.code == common::Code::unschedulable);
  }
  return out;
}

// The PostFilter chain: job level first when enabled, then the pod level for the trigger pod.
void preempt(const Context& ctx, const koordinator::Admission& adm, const std::optional<Gang>& gang,
             Decision& d) {
  const std::vector<bool> potential = potential_nodes(ctx, adm);
  koordinator::JobLevel job;
  if (ctx.args.enable_preemption) {
    job = koordinator::run_job_level(ctx, potential, gang);
    if (job.ok) {
      d.warnings.insert(d.warnings.end(), job.warnings.begin(), job.warnings.end());
      finish_job(ctx, job, d);
      node_verdicts(ctx, nullptr, &job, d);
      d.details = koordinator::details(ctx, adm, gang, &job, d);
      return;
    }
    d.reasons.push_back(nested(Code::job, job.code.value_or(Code::error_)));
    d.warnings.push_back("job-level preemption failed (" + job.detail +
                         "); the trigger pod tries pod-level preemption alone");
  }
  const koordinator::PodLevel pod = koordinator::run_pod_level(ctx, potential);
  if (pod.winner) {
    finish_pod(ctx, pod, d);
  } else {
    d.reasons.push_back(pod.ineligible.value_or(Code::no_candidates));
    d.summary = pod.ineligible ? "the pod may not preempt: " + pod.ineligible_detail
                               : "no node can be freed by evicting lower-priority pods of "
                                 "quota " +
                                     ctx.quota.name;
    d.warnings.push_back(
        "the stock profile would next run DefaultPreemption, which ignores "
        "quotas (compare --policy default)");
  }
  node_verdicts(ctx, &pod, ctx.args.enable_preemption ? &job : nullptr, d);
  d.details = koordinator::details(ctx, adm, gang, ctx.args.enable_preemption ? &job : nullptr, d);
}

}  // namespace

Decision decide_koordinator(const Input& in) {
  if (in.preemptor == model::k_none) {
    throw UsageError("policy koordinator explains a pending Pod (--pod), not a Workload");
  }
  const Context ctx(in, koordinator::read_args(in));
  Decision d;
  d.policy = "koordinator";
  d.warnings = ctx.filters.warnings();
  d.warnings.insert(d.warnings.end(), ctx.quotas.warnings().begin(), ctx.quotas.warnings().end());
  std::optional<Gang> gang = koordinator::gang_of(in.snapshot, in.preemptor);
  const koordinator::Admission adm = koordinator::admit(ctx);
  if (!adm.ok) {
    d.reasons.push_back(adm.code.value_or(Code::error_));
  }
  if (gang &&
      (!gang->initialised || static_cast<std::int64_t>(gang->members.size()) < gang->min_member)) {
    d.reasons.insert(d.reasons.begin(), Code::gang_not_ready);
    d.summary = fmt::format(
        "gang {} is not ready ({} of minMember {} pods{}): rejected before "
        "filtering, no preemption",
        gang->id, gang->members.size(), gang->min_member,
        gang->initialised ? "" : ", not initialised");
    node_verdicts(ctx, nullptr, nullptr, d);
    d.details = koordinator::details(ctx, adm, gang, nullptr, d);
  } else {
    if (gang && once_satisfied(in.snapshot, *gang, in.preemptor)) {
      d.warnings.push_back("gang " + gang->id +
                           " was once satisfied: its pods schedule one by one");
      gang.reset();
    }
    const bool node_fits = std::any_of(ctx.first.begin(), ctx.first.end(),
                                       [](const common::FilterStatus& f) { return f.ok(); });
    if (adm.ok && node_fits) {
      d.outcome = Outcome::fits;
      d.reasons.push_back(Code::fits);
      d.summary = "the pod passes quota admission and fits a node without preemption";
      node_verdicts(ctx, nullptr, nullptr, d);
      d.details = koordinator::details(ctx, adm, gang, nullptr, d);
    } else {
      preempt(ctx, adm, gang, d);
    }
  }
  koordinator::add_quota_table(ctx, adm, d);
  return d;
}

bool koordinator_applies(const model::Snapshot& snap, model::PodId preemptor) {
  return !snap.koordinator().quotas.empty() ||
         (preemptor != model::k_none && koordinator::gang_of(snap, preemptor).has_value());
}

}  // namespace kpreempt::policy
