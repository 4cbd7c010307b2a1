// SPDX-License-Identifier: Apache-2.0
// Job-level (all-or-nothing) preemption of the Coscheduling plugin: every pending member of the
// gang is placed before anything is evicted. Mirrors koordinator-sh/koordinator
// pkg/scheduler/plugins/coscheduling/core/preemption.go (preempt, jobEligibleToPreemptOthers,
// removePossibleVictims, estimatePreemptionCost, placeToSchedulePods, selectVictims),
// commit a7a1b76bbf81 (v1.8.0-61).
#include "policy/common/explain.h"
#include "policy/koordinator/preempt.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace kpreempt::policy::koordinator {
namespace {

using common::FilterStatus;

constexpr std::string_view k_job_key = "scheduling.koordinator.sh/questioned-object-key";

std::string label_of(const model::Pod& p, std::string_view key) {
  const std::string* v = model::find(p.labels, key);
  return v == nullptr ? std::string() : *v;
}

bool contains(const std::vector<model::PodId>& v, model::PodId p) {
  return std::find(v.begin(), v.end(), p) != v.end();
}

// RunFilterPluginsWithNominatedPods with the job's own nominated pods left out
// (MakeNominatedPodsOfTheSameJob). Every member is filtered with the trigger pod's PreFilter
// state, as upstream reuses the trigger's cycle state.
FilterStatus run_filters(const Context& ctx, common::NodeView view,
                         const std::vector<model::PodId>& job) {
  const std::size_t before = view.added.size();
  for (model::PodId p : ctx.filters.nominated_counted(view.node)) {
    if (!contains(job, p)) {
      view.added.push_back(p);
    }
  }
  FilterStatus first = ctx.filters.run(view);
  if (view.added.size() == before || !first.ok()) {
    return first;
  }
  view.added.resize(before);
  return ctx.filters.run(view);
}

// The default IsEligiblePod of the evaluator, with the reason a pod is not a possible victim;
// none for a possible victim.
std::optional<Code> skip_code(const Context& ctx, model::PodId v, std::int32_t prio) {
  const model::Pod& pod = ctx.snap.pods()[v];
  if (ctx.snap.facts(v).priority >= prio) {
    return Code::not_lower_priority;
  }
  if (label_of(pod, "scheduling.koordinator.sh/disable-preemptible") == "true") {
    return Code::disable_preemptible;
  }
  if (non_preemptible(pod)) {
    return Code::non_preemptible;
  }
  return std::nullopt;
}

bool terminating_by_preemption(const model::Pod& p) {
  if (!p.terminating()) {
    return false;
  }
  for (const model::PodCondition& c : p.conditions) {
    if (c.type == "DisruptionTarget") {
      return c.status == "True" && c.reason == "PreemptionByScheduler";
    }
  }
  return false;
}

// jobEligibleToPreemptOthers: the trigger's preemptionPolicy, then every pending member's
// nominated node.
bool eligible(const Context& ctx, const std::vector<model::PodId>& pending, JobLevel& out) {
  if (ctx.snap.facts(ctx.in.preemptor).preempt_never) {
    out.code = Code::cannot_trigger_preemption;
    out.detail = "the trigger pod's preemptionPolicy is Never";
    return false;
  }
  for (model::PodId m : pending) {
    const model::Pod& pod = ctx.snap.pods()[m];
    const std::optional<model::NodeId> node = ctx.snap.find_node(pod.nominated_node_name);
    if (!node || (m == ctx.in.preemptor && ctx.first[*node].code == common::Code::unresolvable)) {
      continue;
    }
    for (model::PodId v : ctx.snap.pods_on(*node)) {
      if (!skip_code(ctx, v, ctx.snap.facts(m).priority) &&
          terminating_by_preemption(ctx.snap.pods()[v])) {
        out.code = Code::terminating_victim_on_nominated_node;
        out.detail = fmt::format("{}/{} is still terminating on {}, nominated for {}",
                                 ctx.snap.pods()[v].namespace_, ctx.snap.pods()[v].name,
                                 pod.nominated_node_name, pod.name);
        return false;
      }
    }
  }
  return true;
}

// estimatePreemptionCost: rank the distinct victim priorities, then per node add the rank of
// the first victim of each job key.
void estimate_costs(const Context& ctx, const std::vector<std::vector<model::PodId>>& possible,
                    JobLevel& out) {
  std::set<std::int32_t> prios;
  for (const auto& node : possible) {
    for (model::PodId v : node) {
      prios.insert(ctx.snap.facts(v).priority);
    }
  }
  out.cost.assign(possible.size(), 0);
  for (std::size_t n = 0; n < possible.size(); ++n) {
    std::set<std::string> jobs;
    for (model::PodId v : possible[n]) {
      if (jobs.insert(label_of(ctx.snap.pods()[v], k_job_key)).second) {
        out.cost[n] += std::distance(prios.begin(), prios.find(ctx.snap.facts(v).priority));
      }
    }
  }
}

// placeToSchedulePods: each member narrows the feasible set of the previous one and takes the
// cheapest node, the first by name on ties. Upstream builds an assumed node for the next member
// but never stores it where findFeasibleNodes reads, so every member sees its node with only the
// victims removed, without the earlier members on it.
bool place(const Context& ctx, const std::vector<model::NodeId>& potential,
           const std::vector<std::vector<model::PodId>>& possible, JobLevel& out) {
  std::vector<model::NodeId> feasible = potential;
  const std::vector<model::PodId> none;
  for (model::PodId m : out.pending) {
    std::vector<model::NodeId> next;
    for (model::NodeId n : feasible) {
      if (run_filters(ctx, common::NodeView{n, possible[n], none}, out.pending).ok()) {
        next.push_back(n);
      }
    }
    feasible = next;
    if (feasible.empty()) {
      out.code = Code::member_unplaceable;
      out.detail = fmt::format(
          "member {} fits no node even with every possible victim removed; nothing is evicted",
          ctx.snap.pods()[m].name);
      return false;
    }
    model::NodeId best = feasible.front();
    for (model::NodeId n : feasible) {
      if (out.cost[n] < out.cost[best]) {
        best = n;
      }
    }
    out.placements.push_back(Placement{m, best});
  }
  return true;
}

// How many of `members`, placed one after another, fit node `n` with `removed` gone.
std::size_t fit_stacked(const Context& ctx, model::NodeId n,
                        const std::vector<model::PodId>& removed,
                        const std::vector<model::PodId>& members,
                        const std::vector<model::PodId>& pending) {
  std::vector<model::PodId> added;
  for (model::PodId m : members) {
    if (!run_filters(ctx, common::NodeView{n, removed, added}, pending).ok()) {
      break;
    }
    added.push_back(m);
  }
  return added.size();
}

bool by_reprieve_order(const model::Snapshot& snap, model::PodId a, model::PodId b) {
  const std::int32_t pa = snap.facts(a).priority, pb = snap.facts(b).priority;
  if (pa != pb) {
    return pa > pb;
  }
  const std::string ja = label_of(snap.pods()[a], k_job_key);
  const std::string jb = label_of(snap.pods()[b], k_job_key);
  return ja != jb ? ja < jb : snap.pods()[a].name < snap.pods()[b].name;
}

// selectVictims: on each node that got members, put possible victims back most important
// first while every member placed there still fits.
void assign_back(const Context& ctx, model::NodeId n, std::vector<model::PodId> possible,
                 JobLevel& out) {
  std::vector<model::PodId> members;
  for (const Placement& p : out.placements) {
    if (p.node == n) {
      members.push_back(p.pod);
    }
  }
  std::sort(possible.begin(), possible.end(),
            [&](model::PodId a, model::PodId b) { return by_reprieve_order(ctx.snap, a, b); });
  const std::size_t fit = fit_stacked(ctx, n, possible, members, out.pending);
  if (fit < members.size()) {
    // Placement did not stack the members, so try-assign-back finds them too many for the node
    // with any victim back: every possible victim here goes, and still not all members fit.
    out.warnings.push_back(fmt::format(
        "upstream-members-not-stacked: {} members were placed on {}, which holds {} of them "
        "even with every possible victim evicted; Koordinator places each member without the "
        "earlier ones (placeToSchedulePods), so it evicts every possible victim there and the "
        "members that do not fit stay pending",
        members.size(), ctx.snap.nodes()[n].name, fit));
  }
  std::vector<model::PodId> removed = possible;
  for (model::PodId v : possible) {
    std::erase(removed, v);
    const bool fits = fit_stacked(ctx, n, removed, members, out.pending) == members.size();
    PodVerdict& verdict_ = *std::find_if(out.pods[n].begin(), out.pods[n].end(), [&](auto& pv) {
      return pv.pod.name == ctx.snap.pods()[v].name &&
             pv.pod.namespace_ == ctx.snap.pods()[v].namespace_;
    });
    if (fits) {
      verdict_.code = Code::reprieved;
      verdict_.detail = "every member placed here still fits with it back";
      continue;
    }
    removed.push_back(v);
    out.victims[n].push_back(v);
    verdict_.code = Code::victim_job_fit;
    verdict_.victim = true;
    verdict_.detail = "with it back a member placed here no longer fits";
  }
}

}  // namespace

JobLevel run_job_level(const Context& ctx, const std::vector<bool>& potential,
                       const std::optional<Gang>& gang) {
  JobLevel out;
  out.pending = gang ? gang->pending : std::vector<model::PodId>{ctx.in.preemptor};
  const std::size_t n_nodes = ctx.snap.nodes().size();
  out.victims.resize(n_nodes);
  out.pods.resize(n_nodes);
  out.node_code.resize(n_nodes);
  if (!eligible(ctx, out.pending, out)) {
    return out;
  }
  const std::int32_t prio = ctx.snap.facts(ctx.in.preemptor).priority;
  std::vector<std::vector<model::PodId>> possible(n_nodes);
  std::vector<model::NodeId> nodes;
  bool any = false;
  for (model::NodeId n : ctx.snap.nodes_by_name()) {
    if (!potential[n]) {
      continue;
    }
    nodes.push_back(n);
    for (model::PodId v : ctx.snap.pods_on(n)) {
      std::optional<Code> code = skip_code(ctx, v, prio);
      if (!code) {
        possible[n].push_back(v);
        const bool same_job = gang && contains(gang->members, v);
        code = same_job ? Code::same_job : Code::possible_victim;
      }
      out.pods[n].push_back(verdict(ctx.snap, v, *code, ""));
    }
    out.node_code[n] = possible[n].empty() ? Code::no_potential_victims : Code::possible_victims;
    any = any || !possible[n].empty();
  }
  if (!any) {
    out.code = Code::no_potential_victims;
    out.detail = "no pod with lower priority that may be preempted on any examined node";
    return out;
  }
  estimate_costs(ctx, possible, out);
  if (!place(ctx, nodes, possible, out)) {
    return out;
  }
  for (model::NodeId n : nodes) {
    if (std::any_of(out.placements.begin(), out.placements.end(),
                    [&](const Placement& p) { return p.node == n; })) {
      assign_back(ctx, n, possible[n], out);
      out.node_code[n] = Code::members_placed;
      continue;
    }
    // Nodes that received no member keep all their pods.
    for (PodVerdict& v : out.pods[n]) {
      if (v.code == Code::possible_victim || v.code == Code::same_job) {
        v.code = Code::kept_no_member_placed;
      }
    }
    if (!possible[n].empty()) {
      out.node_code[n] = Code::no_member_placed;
    }
  }
  out.ok = true;
  return out;
}

}  // namespace kpreempt::policy::koordinator
