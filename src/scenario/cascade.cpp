// SPDX-License-Identifier: Apache-2.0
// Rounds of sequential decisions on one snapshot edited throughout: a round's evictions and
// placements stay for the next, and the victims their owners recreate are pending in it.
#include "kpreempt/scenario/cascade.h"

#include "cascade_owners.h"

#include "kpreempt/model/kueue.h"
#include "kpreempt/model/snapshot_edit.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kpreempt::scenario {
namespace {

// The pending preemptors some run takes, in queue order.
std::vector<render::Explanation> pending(const model::Snapshot& snap, const RunFor& run_for,
                                         model::Instant now) {
  std::vector<render::Explanation> out = pending_preemptors(snap, now);
  std::erase_if(out, [&](const render::Explanation& e) {
    return run_for(snap, e.preemptor, e.workload) == nullptr;
  });
  sort_queue_order(snap, out);
  return out;
}

}  // namespace

std::string cascade_state(const model::Snapshot& snap) {
  std::string s;
  auto pod_name = [&](model::PodId id) {
    return snap.pods()[id].namespace_ + "/" + snap.pods()[id].name;
  };
  for (model::NodeId n = 0; n < snap.nodes().size(); ++n) {
    std::vector<std::string> names;
    for (model::PodId id : snap.pods_on(n)) {
      names.push_back(pod_name(id));
    }
    std::sort(names.begin(), names.end());
    s += fmt::format("{}:{};", snap.nodes()[n].name, fmt::join(names, ","));
  }
  std::vector<std::string> waiting;
  for (model::PodId id = 0; id < snap.pods().size(); ++id) {
    if (snap.pods()[id].pending()) {
      waiting.push_back(pod_name(id));
    }
  }
  std::sort(waiting.begin(), waiting.end());
  s += fmt::format("|pending:{}|admitted:", fmt::join(waiting, ","));
  for (const model::Workload& w : snap.kueue().workloads) {
    if (w.admitted) {
      s += w.namespace_ + "/" + w.name + ",";
    }
  }
  return s;
}

render::Cascade run_cascade(model::Snapshot& snap, const CascadeOptions& o, const RunFor& run_for) {
  render::Cascade c;
  c.not_modelled = cascade_assumptions();
  model::SnapshotEdit edit(snap);
  std::vector<std::string> states{cascade_state(snap)};
  std::map<std::string, std::size_t> times_evicted;
  Owners owners(o.backoff_limit);
  std::vector<render::Explanation> items = pending(snap, run_for, o.now);
  for (std::size_t round = 1; round <= o.rounds; ++round) {
    SequenceState state;
    render::SequenceSummary summary;
    render::CascadeRound r;
    r.round = round;
    std::vector<Eviction> victims;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const model::PodId pod = items[i].preemptor;
      const std::uint32_t workload = items[i].workload;
      const SequenceRun* run = run_for(snap, pod, workload);
      const std::string who = render::preemptor_name(snap, pod, workload);
      const bool decided = decide_step(snap, edit, *run, items, i, state, summary);
      const render::SequenceStep& step = summary.steps.back();
      const policy::Decision& d = items[i].decisions.back();
      render::CascadeDecision cd{who, d.policy, step.outcome, step.node, {}, {}};
      if (decided) {
        for (const policy::Victim& v : d.victims) {
          cd.victims.push_back(ref_text(v.ref));
          // YuniKorn deletes its victims without a DisruptionTarget condition.
          victims.push_back({v.ref, d.policy != "yunikorn"});
        }
        cd.because = d.victims.empty() ? "" : eviction_cause(snap, pod, workload, d);
      }
      r.admitted += step.outcome == policy::Outcome::unschedulable ? 0 : 1;
      r.decisions.push_back(std::move(cd));
    }
    r.evicted = victims.size();
    for (const Eviction& v : victims) {
      ++times_evicted[ref_text(v.victim)];
    }
    owners.bring_back(snap, edit, o.now, victims, r);
    items = pending(snap, run_for, o.now);  // the next round's
    r.pending = items.size();
    c.admitted += r.admitted;
    c.evictions += r.evicted;
    c.rounds.push_back(std::move(r));
    if (victims.empty()) {
      c.settled = true;
      break;
    }
    std::string now_state = cascade_state(snap);
    const auto seen = std::find(states.begin(), states.end(), now_state);
    if (seen != states.end()) {
      c.loop_from = static_cast<std::size_t>(seen - states.begin());
      std::vector<render::CascadeDecision> cycle;
      for (std::size_t k = c.loop_from; k < c.rounds.size(); ++k) {
        for (const render::CascadeDecision& d : c.rounds[k].decisions) {
          if (!d.victims.empty()) {
            cycle.push_back(d);
          }
        }
      }
      c.loop = std::move(cycle);
      break;
    }
    states.push_back(std::move(now_state));
  }
  c.evicted_more_than_once = static_cast<std::size_t>(std::count_if(
      times_evicted.begin(), times_evicted.end(), [](const auto& e) { return e.second > 1; }));
  return c;
}

std::vector<NamedScheduler> capacity_schedulers(const model::Snapshot& snap) {
  std::vector<NamedScheduler> out;
  for (const model::SchedulerProfile& p : snap.scheduler_config().profiles) {
    if (p.capacity_scheduling && p.scheduler_name != "default-scheduler") {
      out.push_back({p.scheduler_name, policy::find("capacity")});
    }
  }
  return out;
}

CascadePolicies::CascadePolicies(const policy::Entry& kube,
                                 const std::vector<NamedScheduler>& named, const ArgsFor& args_for,
                                 const std::vector<policy::UpstreamChoice>& upstream,
                                 const model::Snapshot& snap, model::Instant now) {
  std::vector<const policy::Entry*> entries{&kube, policy::find("yunikorn"),
                                            policy::find("koordinator"), policy::find("kueue")};
  for (const NamedScheduler& n : named) {
    entries.push_back(n.policy);
    m_named.push_back(n.name);
  }
  const policy::DumpLines dump = policy::dump_lines(snap);
  for (const policy::Entry* e : entries) {
    m_args.push_back(std::make_unique<policy::Args>(args_for(*e)));
    m_runs.push_back(std::make_unique<SequenceRun>(
        SequenceRun{*e, *m_args.back(), policy::choose_line(*e, upstream, dump), now, false}));
  }
}

const SequenceRun* CascadePolicies::run_for(const model::Snapshot& snap, model::PodId pod,
                                            std::uint32_t workload) const {
  if (pod == model::k_none) {
    return workload == model::k_none ? nullptr : m_runs[3].get();
  }
  const std::string& scheduler = snap.pods()[pod].scheduler_name;
  for (std::size_t i = 0; i < m_named.size(); ++i) {
    if (m_named[i] == scheduler) {
      return m_runs[4 + i].get();
    }
  }
  if (scheduler == "yunikorn") {
    return m_runs[1].get();
  }
  if (scheduler == "koord-scheduler") {
    return m_runs[2].get();
  }
  return m_runs[0].get();
}

RunFor CascadePolicies::runner() const {
  return [this](const model::Snapshot& snap, model::PodId pod, std::uint32_t workload) {
    return run_for(snap, pod, workload);
  };
}

std::vector<std::string> cascade_assumptions() {
  std::vector<std::string> out = sequence_assumptions();
  out.pop_back();  // evicted pods do come back here
  out.push_back(
      "victims come back at once, between rounds: a ReplicaSet's, StatefulSet's or DaemonSet's "
      "pod with its name and spec, a Job's while its Job allows (backoffLimit, "
      "backoffLimitPerIndex and podFailurePolicy as the dump's Job sets them; a Job not in the "
      "dump has backoffLimit 6, or cascade.backoffLimit); a pod of another owner or of none is "
      "gone");
  out.push_back(
      "a podFailurePolicy rule on exit codes is taken not to match an evicted pod (its "
      "container's exit code is not known); a pod YuniKorn preempts has no DisruptionTarget "
      "condition, so rules on that condition match only the other schedulers' victims");
  out.push_back(
      "an evicted Workload is queued again at once: Kueue's requeuingStrategy backoff applies "
      "to PodsReady timeouts, not to preemption");
  out.push_back(
      "a round that evicts nobody ends the cascade: the pods still pending would be decided on "
      "the same cluster again");
  return out;
}

}  // namespace kpreempt::scenario
