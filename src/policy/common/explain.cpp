// SPDX-License-Identifier: Apache-2.0
// Node and pod verdicts, victims and summaries for the default algorithm and its variants.
#include "policy/common/explain.h"

#include "policy/common/node_pick.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::common {
namespace {

model::ObjectRef ref_of(const model::Pod& p) {
  return {"Pod", p.namespace_, p.name};
}

std::string plural(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// The victims' own priorities summed; upstream adds 2^31 to each before comparing sums.
std::int64_t raw_sum(const CandidateRank& r) {
  return r.sum_adjusted - r.victim_count * (std::int64_t{1} << 31);
}

std::string rank_detail(const CandidateRank& r) {
  return fmt::format(
      "{} PDB violation(s), highest victim priority {}, {} victim(s), priority sum {}, "
      "earliest start {}",
      r.pdb_violations, r.highest_victim_priority, r.victim_count, raw_sum(r),
      model::to_string(r.earliest_start));
}

// The node's code and detail, from the furthest stage it reached.
std::pair<Reason, std::string> node_code(const NodeState& s) {
  const FilterStatus& f = s.first;
  if (s.excluded) {
    return {Reason(policy::Code::prefilter_excluded, std::string(f.plugin)), f.detail};
  }
  if (f.ok()) {
    return {policy::Code::passes_filters, "the pod fits here without preemption"};
  }
  if (f.code == Code::unresolvable) {
    return {Reason(policy::Code::node_unresolvable, std::string(f.plugin)), f.detail};
  }
  if (!s.dry) {
    return {Reason(policy::Code::unschedulable, std::string(f.plugin)),
            f.detail + " (preemption not attempted)"};
  }
  if (s.dry->result != DryRun::Result::candidate) {
    return {s.dry->code, s.dry->detail};
  }
  if (s.winner) {
    return {policy::Code::candidate, "chosen: " + rank_detail(*s.rank)};
  }
  if (s.tied) {
    return {policy::Code::tied,
            "equal on every criterion; the first tied node by name is reported"};
  }
  return {lost_on(*s.lost), rank_detail(*s.rank)};
}

// The sums as a person adds them, against the best loser's: with the 2^31 upstream adds per
// victim, fewer victims can win with the higher sum, and the line says so rather than read false.
std::string sum_text(const Winner& w) {
  const std::string_view sentence = info(Criterion::sum_priorities).sentence;
  if (!w.runner_up_rank) {
    return std::string(sentence);
  }
  const CandidateRank& a = w.rank;
  const CandidateRank& b = *w.runner_up_rank;
  const bool fewer_wins = raw_sum(a) >= raw_sum(b);
  return fmt::format("{}: {} over {} against {} over {} on {}{}", sentence, raw_sum(a),
                     plural(static_cast<std::size_t>(a.victim_count), "victim"), raw_sum(b),
                     b.victim_count, w.runner_up,
                     fewer_wins ? ", fewer victims ranking first" : "");
}

// Why the winner won, as the summary says it: the deciding criterion and, where one number
// decides, that number.
std::string decided_text(const Winner& w) {
  const Criterion c = *w.decided_by;
  const std::string_view sentence = info(c).sentence;
  switch (c) {
    case Criterion::pdb_violations:
      return fmt::format("{} {}", sentence, w.rank.pdb_violations);
    case Criterion::highest_victim_priority:
      return fmt::format("{} {}", sentence, w.rank.highest_victim_priority);
    case Criterion::sum_priorities:
      return sum_text(w);
    case Criterion::victim_count:
    case Criterion::start_time:
      break;
  }
  return std::string(sentence);
}

void add_pod_verdicts(const Filters& f, model::NodeId id, NodeState& s, NodeVerdict& nv) {
  const model::Snapshot& snap = f.snapshot();
  if (s.dry) {
    nv.pods = std::move(s.dry->pods);  // a big cluster holds one verdict per pod
    if (!s.winner) {
      for (PodVerdict& v : nv.pods) {
        v.victim = false;  // only the winner's victims are evicted
      }
    }
  }
  // A node without a dry run lists no pods: its own code says why none of them was examined,
  // and on a 150k-pod cluster one line per pod would be most of the output.
  for (model::PodId p : f.nominated_counted(id)) {
    nv.pods.push_back(PodVerdict{
        ref_of(snap.pods()[p]), snap.facts(p).priority, false, policy::Code::nominated_counted,
        fmt::format("nominated here with priority {}, not below the preemptor's: counted as "
                    "running on the node",
                    snap.facts(p).priority)});
  }
  if (!s.winner) {
    return;
  }
  for (model::PodId p : snap.nominated_to(id)) {
    if (p != f.preemptor() && snap.facts(p).priority < f.priority()) {
      nv.pods.push_back(PodVerdict{ref_of(snap.pods()[p]), snap.facts(p).priority, false,
                                   policy::Code::nomination_cleared,
                                   "lower-priority pod nominated here; preemption clears its "
                                   "nominatedNodeName"});
    }
  }
}

}  // namespace

void add_victims(const Input& in, model::NodeId winner, const DryRun& dry, Decision& d) {
  const model::Snapshot& snap = in.snapshot;
  for (model::PodId id : dry.victims) {
    const model::Pod& p = snap.pods()[id];
    const auto reason = std::find_if(dry.victim_reasons.begin(), dry.victim_reasons.end(),
                                     [&](const auto& r) { return r.first == id; });
    Victim victim;
    victim.ref = ref_of(p);
    victim.node = snap.nodes()[winner].name;
    victim.priority = snap.facts(id).priority;
    victim.reason = reason != dry.victim_reasons.end() ? reason->second : policy::Code::victim;
    d.victims.push_back(std::move(victim));
    if (!p.start_time) {
      d.warnings.push_back(
          fmt::format("Pod {}/{} has no status.startTime; it was compared as starting at --now",
                      p.namespace_, p.name));
    }
  }
}

void add_node_verdicts(const Filters& f, std::vector<NodeState>& states, Decision& d) {
  const model::Snapshot& snap = f.snapshot();
  d.nodes.reserve(states.size());
  for (model::NodeId id : snap.nodes_by_name()) {
    NodeState& s = states[id];
    NodeVerdict nv;
    nv.node = snap.nodes()[id].name;
    std::tie(nv.code, nv.detail) = node_code(s);
    nv.rank = s.rank;
    add_pod_verdicts(f, id, s, nv);
    d.nodes.push_back(std::move(nv));
  }
}

std::string preempt_summary(const Decision& d, const Winner& w) {
  std::string why;
  if (!d.tied_nodes.empty()) {
    // On a big cluster hundreds of nodes tie: a few names say it, d.tied_nodes lists them all.
    constexpr std::size_t k_named = 3;
    const auto others = d.tied_nodes.begin() + 1;
    const std::size_t count = d.tied_nodes.size() - 1;
    why = count <= k_named + 1
              ? fmt::format("tied with {} on every criterion; first by name",
                            fmt::join(others, d.tied_nodes.end(), ", "))
              : fmt::format("tied with {} and {} other nodes on every criterion; first by name",
                            fmt::join(others, others + k_named, ", "), count - k_named);
  } else if (w.decided_by) {
    why = decided_text(w);
  } else {
    why = "the only candidate";
  }
  return fmt::format("preempt {} on {} ({})", plural(d.victims.size(), "pod"), d.node, why);
}

std::string other_summary(const model::Snapshot& snap, const std::vector<NodeState>& states,
                          const Decision& d) {
  const Reason* first = d.reasons.empty() ? nullptr : &d.reasons.front();
  const auto first_is = [&](policy::Code c) { return first != nullptr && first->code == c; };
  if (first_is(policy::Code::fits)) {
    const auto n = std::count_if(states.begin(), states.end(),
                                 [](const NodeState& s) { return s.first.ok(); });
    return fmt::format("fits without preemption: {} pass the filters",
                       plural(static_cast<std::size_t>(n), "node"));
  }
  if (first_is(policy::Code::preemption_policy_never)) {
    return "cannot preempt: its preemptionPolicy is Never";
  }
  if (first_is(policy::Code::waiting_for_victims)) {
    return fmt::format(
        "cannot preempt yet: a lower-priority pod on its nominated node {} is still terminating "
        "by preemption",
        fmt::join(first->subject, ","));
  }
  std::size_t unresolvable = 0, no_victims = 0, still = 0;
  for (const NodeState& s : states) {
    if (s.excluded || s.first.code == Code::unresolvable) {
      ++unresolvable;
    } else if (s.dry && s.dry->result == DryRun::Result::no_victims) {
      ++no_victims;
    } else if (s.dry) {
      ++still;
    }
  }
  return fmt::format(
      "no candidate node among {}: {} where removing pods cannot help, {} without lower-priority "
      "pods, {} still too full",
      plural(snap.nodes().size(), "node"), unresolvable, no_victims, still);
}

Winner choose_winner(const Input& in, const std::vector<model::NodeId>& candidates,
                     std::vector<NodeState>& states, Decision& d) {
  std::vector<CandidateRank> ranks;
  for (model::NodeId id : candidates) {
    const DryRun& dry = *states[id].dry;
    ranks.push_back(rank_of(in.snapshot, in.now, dry.victims, dry.pdb_violations));
    states[id].rank = ranks.back();
  }
  const Pick pick = pick_candidate(ranks);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    states[candidates[i]].lost = pick.lost[i];
  }
  Winner w{candidates[pick.winner], ranks[pick.winner], pick.decided_by, {}, {}, {}};
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (pick.decided_by == Criterion::sum_priorities && pick.lost[i] == pick.decided_by &&
        (!w.runner_up_rank || ranks[i].sum_adjusted < w.runner_up_rank->sum_adjusted)) {
      w.runner_up = in.snapshot.nodes()[candidates[i]].name;
      w.runner_up_rank = ranks[i];
    }
  }
  for (std::size_t i : pick.tied) {
    d.tied_nodes.push_back(in.snapshot.nodes()[candidates[i]].name);
    states[candidates[i]].tied = true;
  }
  if (!d.tied_nodes.empty()) {
    w.tie = Reason(policy::Code::tie, d.tied_nodes);
  }
  states[w.node].winner = true;
  d.outcome = Outcome::preempt;
  d.node = in.snapshot.nodes()[w.node].name;
  return w;
}

}  // namespace kpreempt::policy::common
