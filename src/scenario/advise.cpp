// SPDX-License-Identifier: Apache-2.0
#include "kpreempt/scenario/advise.h"

#include "kpreempt/render/render.h"
#include "kpreempt/scenario/parallel.h"
#include "kpreempt/scenario/sequence.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace kpreempt::scenario {
namespace {

// Changed decisions named in a suggestion; the count covers them all.
constexpr std::size_t k_changes_named = 5;

// Filters whose verdict depends only on the preemptor's spec and the node's.
const std::set<std::string, std::less<>> k_static_filters = {"NodeAffinity", "TaintToleration",
                                                             "NodeUnschedulable", "NodeName"};

// What a decision does, as far as other decisions can tell: outcome, node, victims.
struct Signature {
  policy::Outcome outcome = policy::Outcome::unschedulable;
  std::string node;
  std::vector<model::ObjectRef> victims;
  friend bool operator==(const Signature&, const Signature&) = default;
};

Signature signature_of(const policy::Decision& d) {
  Signature s{d.outcome, d.node, {}};
  for (const policy::Victim& v : d.victims) {
    s.victims.push_back(v.ref);
  }
  std::sort(s.victims.begin(), s.victims.end());
  return s;
}

model::ObjectRef ref_of(const model::Snapshot& snap, const PendingRef& p) {
  if (p.pod != model::k_none) {
    const model::Pod& pod = snap.pods()[p.pod];
    return {"Pod", pod.namespace_, pod.name};
  }
  const model::Workload& w = snap.kueue().workloads[p.workload];
  return {"Workload", w.namespace_, w.name};
}

std::string name_of(const model::ObjectRef& r) {
  return r.kind == "Pod" ? fmt::format("{}/{}", r.namespace_, r.name)
                         : fmt::format("{} {}/{}", r.kind, r.namespace_, r.name);
}

// How a workload's pods fared, placed one after another.
struct GroupRun {
  std::size_t members = 0, placed = 0, fits = 0;
  std::string first_line;  // the release line of the first decision

  std::string sentence() const {
    return fmt::format("{} of {} pods placed ({} fit, {} preempt)", placed, members, fits,
                       placed - fits);
  }
};

// The policy as an oracle over the snapshot as it currently is.
class Oracle {
 public:
  Oracle(model::Snapshot& snap, const AdviseRun& run, const AdviseTarget& target,
         const std::vector<PendingRef>& pending)
      : m_snap(snap), m_run(run), m_target(target), m_pending(pending) {
    if (target.goal == AdviseGoal::save) {
      m_victim = ref_of(snap, target.subject);
    }
    // Upstream's default preemption takes victims only among pods of lower priority
    // (selectVictimsOnNode), so a pod can only be threatened by a preemptor above it.
    const std::string_view name = run.entry.name;
    m_priority_bound =
        target.subject.pod != model::k_none && (name == "default" || name == "toleration");
  }

  // With `nodes`, the decision keeps its per-node verdicts (without per-pod ones).
  policy::Decision decide(const PendingRef& p, bool nodes = false) const {
    policy::Input in{m_snap, p.pod, m_run.now, m_run.args, p.workload, false};
    policy::Decision d = policy::run(m_run.entry, in, m_run.line);
    if (!nodes) {
      d.nodes = {};
    }
    return d;
  }

  // Whether the goal holds on the snapshot as it is now. `first` are tried first (the
  // preemptors that threatened the victim before), so that a "no" is usually quick.
  bool holds(const std::vector<PendingRef>& first) {
    ++m_probes;
    if (m_target.goal != AdviseGoal::save) {
      if (m_target.group.size() > 1) {
        const GroupRun g = run_group();
        return g.placed == g.members && (m_target.goal != AdviseGoal::fit || g.fits == g.members);
      }
      return reached(decide(m_target.subject));
    }
    std::vector<PendingRef> order = first;
    for (const PendingRef& p : m_pending) {
      if (std::find(first.begin(), first.end(), p) == first.end()) {
        order.push_back(p);
      }
    }
    std::erase_if(order, [&](const PendingRef& p) { return !may_threaten(p); });
    std::atomic<bool> threatened{false};
    parallel_for(order.size(), threatened, [&](std::size_t i) {
      if (lists_victim(decide(order[i]))) {
        threatened = true;
      }
    });
    return !threatened;
  }

  // The workload's pods still pending (a replica count knob deletes the others), decided in
  // queue order, each after the ones before it.
  GroupRun run_group() const {
    std::vector<render::Explanation> items;
    for (const PendingRef& p : m_target.group) {
      if (p.pod == model::k_none || m_snap.pods()[p.pod].pending()) {
        items.push_back(render::Explanation{p.pod, p.workload, m_run.now, {}});
      }
    }
    const SequenceRun run{m_run.entry, m_run.args, m_run.line, m_run.now, false};
    const render::SequenceSummary summary =
        decide_in_sequence(m_snap, run, items, std::vector<bool>(items.size(), true));
    GroupRun g;
    g.members = items.size();
    for (const render::SequenceStep& step : summary.steps) {
      g.placed += step.outcome != policy::Outcome::unschedulable ? 1 : 0;
      g.fits += step.outcome == policy::Outcome::fits ? 1 : 0;
    }
    if (!items.empty() && !items.front().decisions.empty()) {
      g.first_line = items.front().decisions.front().line;
    }
    return g;
  }

  bool reached(const policy::Decision& d) const {
    switch (m_target.goal) {
      case AdviseGoal::fit:
        return d.outcome == policy::Outcome::fits;
      case AdviseGoal::place:
      case AdviseGoal::admit:
        return d.outcome != policy::Outcome::unschedulable;
      case AdviseGoal::save:
        break;
    }
    return false;
  }

  bool lists_victim(const policy::Decision& d) const {
    return std::any_of(d.victims.begin(), d.victims.end(),
                       [&](const policy::Victim& v) { return v.ref == m_victim; });
  }

  // Every pending preemptor's decision but the target's, in `m_pending` order; `nodes` as
  // decide().
  std::vector<policy::Decision> decide_all(bool nodes = false) const {
    std::vector<policy::Decision> out(m_pending.size());
    const std::atomic<bool> never{false};
    parallel_for(m_pending.size(), never, [&](std::size_t i) {
      if (!m_target.member(m_pending[i])) {
        out[i] = decide(m_pending[i], nodes);
      }
    });
    return out;
  }

  // Leaves `p` out of every later check: its baseline decision says it can never use the
  // victim's node for reasons no knob changes.
  void rule_out(const PendingRef& p) { m_ruled_out.push_back(p); }

  // Whether a baseline decision of a node-level policy found that the victim's node can never
  // be its pick: unusable by filters that read only the preemptor's and the node's spec
  // (affinity, taints, cordon, nodeName), or still too full with every pod of lower priority
  // gone. Every save knob only takes pods out of what a preemptor may evict (a victim's or a
  // class's priority raised, a budget tightened, a toleration widened) or changes a threat
  // itself, so such a node stays out of reach.
  bool node_out_of_reach(const policy::Decision& d) const {
    if (!m_priority_bound) {
      return false;
    }
    const model::NodeId node = m_snap.facts(m_target.subject.pod).node;
    if (node == model::k_none) {
      return false;
    }
    const std::string& name = m_snap.nodes()[node].name;
    for (const policy::NodeVerdict& v : d.nodes) {
      if (v.node != name) {
        continue;
      }
      if (v.code.code == policy::Code::still_unschedulable ||
          v.code.code == policy::Code::does_not_fit_after_removal ||
          v.code.code == policy::Code::no_victims) {
        return true;
      }
      return v.code.code == policy::Code::node_unresolvable && !v.code.subject.empty() &&
             k_static_filters.contains(v.code.subject.front());
    }
    return false;
  }

  std::size_t probes() const { return m_probes; }
  const model::ObjectRef& victim() const { return m_victim; }

 private:
  bool may_threaten(const PendingRef& p) const {
    if (m_target.member(p) ||
        std::find(m_ruled_out.begin(), m_ruled_out.end(), p) != m_ruled_out.end()) {
      return false;
    }
    if (!m_priority_bound || p.pod == model::k_none) {
      return true;
    }
    return m_snap.facts(p.pod).priority > m_snap.facts(m_target.subject.pod).priority;
  }

  model::Snapshot& m_snap;
  const AdviseRun& m_run;
  AdviseTarget m_target;
  const std::vector<PendingRef>& m_pending;
  model::ObjectRef m_victim;
  bool m_priority_bound = false;
  std::vector<PendingRef> m_ruled_out;
  std::size_t m_probes = 0;
};

// Where a knob's goal starts to hold: `to` holds, `next` (one step back toward `from`) does not.
struct Boundary {
  std::int64_t to = 0, next = 0;
};

class Search {
 public:
  Search(model::Snapshot& snap, Oracle& oracle, std::vector<PendingRef> first)
      : m_snap(snap), m_oracle(oracle), m_first(std::move(first)) {}

  bool holds_at(const Knob& k, std::int64_t v) {
    if (v == k.from) {
      return false;  // the goal does not hold today, or there would be nothing to advise
    }
    auto [it, fresh] = m_memo.try_emplace(v, false);
    if (fresh) {
      model::SnapshotEdit edit(m_snap);
      k.apply(edit, v);
      it->second = m_oracle.holds(m_first);
    }
    return it->second;
  }

  // The boundary between `from` and `limit`, or nullopt when the goal holds nowhere tried.
  std::optional<Boundary> numeric(const Knob& k) {
    m_memo.clear();
    if (k.limit == k.from || !holds_at(k, k.limit)) {
      return std::nullopt;
    }
    const bool up = k.limit > k.from;
    // Landmarks between from and limit, nearest first: the first that holds bounds the search.
    std::vector<std::int64_t> marks;
    for (std::int64_t m : k.landmarks) {
      if (up ? (m > k.from && m < k.limit) : (m < k.from && m > k.limit)) {
        marks.push_back(m);
      }
    }
    std::sort(marks.begin(), marks.end());
    marks.erase(std::unique(marks.begin(), marks.end()), marks.end());
    if (!up) {
      std::reverse(marks.begin(), marks.end());
    }
    std::int64_t no = k.from, yes = k.limit;
    // Binary search over the landmarks first (few probes), then over the integers between.
    std::size_t lo = 0, hi = marks.size();
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (holds_at(k, marks[mid])) {
        yes = marks[mid];
        hi = mid;
      } else {
        no = marks[mid];
        lo = mid + 1;
      }
    }
    while (yes - no > 1 || no - yes > 1) {
      const std::int64_t mid = no + (yes - no) / 2;
      (holds_at(k, mid) ? yes : no) = mid;
    }
    return Boundary{yes, no};
  }

  // Every choice other than the current one that reaches the goal.
  std::vector<std::int64_t> choices(const Knob& k) {
    m_memo.clear();
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(k.choices.size()); ++i) {
      if (i != k.from && holds_at(k, i)) {
        out.push_back(i);
      }
    }
    return out;
  }

 private:
  model::Snapshot& m_snap;
  Oracle& m_oracle;
  std::vector<PendingRef> m_first;
  std::map<std::int64_t, bool> m_memo;
};

std::string value_of(const Knob& k, std::int64_t v) {
  return k.choices.empty() ? k.show(v) : k.choices[static_cast<std::size_t>(v)];
}

double relative_size(const Knob& k, std::int64_t to) {
  if (!k.choices.empty()) {
    return 1.0;
  }
  const double from = static_cast<double>(k.from);
  return std::abs(static_cast<double>(to) - from) / std::max(std::abs(from), 1.0);
}

render::Suggestion suggestion_of(const Knob& k, std::int64_t to, std::optional<std::int64_t> next) {
  render::Suggestion s;
  s.object = k.object;
  s.field = k.field;
  s.from = value_of(k, k.from);
  s.to = value_of(k, to);
  s.next = next ? value_of(k, *next) : "";
  s.verified = true;
  const char* verb = !k.choices.empty() ? "set" : (to > k.from ? "raise" : "lower");
  s.sentence = !k.sentence.empty() ? k.sentence
                                   : fmt::format("{} {} from {} to {}", verb, k.what, s.from, s.to);
  s.command = k.command ? k.command(to) : "";
  s.notes = k.notes;
  s.size = relative_size(k, to);
  return s;
}

// Runs the value the knob's command would rather set; the command sets it only if it too
// reaches the goal, and `to` otherwise.
void prefer(const Knob& k, std::int64_t to, Search& search, render::Suggestion& s) {
  const std::optional<std::int64_t> p = k.preferred ? k.preferred(to) : std::nullopt;
  if (!p || *p == to || !k.command) {
    return;
  }
  if (search.holds_at(k, *p)) {
    s.command = k.command(*p);
    s.notes.push_back(fmt::format(
        "the command sets {}, the nearest value past the boundary that exists, also checked",
        k.show(*p)));
  } else {
    s.notes.push_back(
        fmt::format("{}, the nearest that exists, does not reach the goal: the command makes {}",
                    k.show(*p), k.show(to)));
  }
}

std::string join_names(const std::vector<std::string>& names) {
  if (names.size() <= 1) {
    return names.empty() ? "" : names.front();
  }
  std::string out;
  for (std::size_t i = 0; i + 1 < names.size(); ++i) {
    out += (i == 0 ? "" : ", ") + names[i];
  }
  return out + " and " + names.back();
}

// What one policy decides for the target today, in one sentence.
std::string baseline_sentence(const model::Snapshot& snap, const AdviseTarget& target,
                              const std::vector<PendingRef>& threats, const policy::Decision* own) {
  if (target.goal == AdviseGoal::save) {
    if (threats.empty()) {
      return "no pending preemptor evicts it";
    }
    std::vector<std::string> names;
    for (const PendingRef& p : threats) {
      names.push_back(name_of(ref_of(snap, p)));
    }
    return fmt::format("evicted by {}", join_names(names));
  }
  return own != nullptr ? own->summary : "";
}

// Runs every other pending preemptor with the suggestion applied: what changes, and for a
// victim, which pods it saves and what its threats do instead.
class SideEffects {
 public:
  // `before`: every pending preemptor's decision today, as Oracle::decide_all gives them.
  SideEffects(model::Snapshot& snap, Oracle& oracle, const AdviseTarget& target,
              const std::vector<PendingRef>& pending, const std::vector<PendingRef>& threats,
              const std::vector<policy::Decision>& before)
      : m_snap(snap), m_oracle(oracle), m_target(target), m_pending(pending), m_threats(threats) {
    for (const policy::Decision& d : before) {
      m_before.push_back(signature_of(d));
    }
  }

  void fill(const Knob& k, std::int64_t to, render::Suggestion& s) {
    model::SnapshotEdit edit(m_snap);
    k.apply(edit, to);
    const std::vector<policy::Decision> after = m_oracle.decide_all();
    std::set<model::ObjectRef> victims_before, victims_after;
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
      const PendingRef& p = m_pending[i];
      if (m_target.member(p)) {
        continue;
      }
      const Signature now = signature_of(after[i]);
      const bool threat = std::find(m_threats.begin(), m_threats.end(), p) != m_threats.end();
      if (threat) {
        victims_before.insert(m_before[i].victims.begin(), m_before[i].victims.end());
        s.instead.push_back(fmt::format("{}: {}", name_of(ref_of(m_snap, p)), after[i].summary));
      }
      victims_after.insert(now.victims.begin(), now.victims.end());
      if (!threat && !(now == m_before[i])) {
        ++s.changed_decisions;
        if (s.changed.size() < k_changes_named) {
          s.changed.push_back(name_of(ref_of(m_snap, p)));
        }
      }
    }
    if (m_target.goal == AdviseGoal::save) {
      std::vector<std::string> saved;
      for (const model::ObjectRef& v : victims_before) {
        if (!victims_after.contains(v)) {
          saved.push_back(name_of(v));
        }
      }
      s.effect =
          fmt::format("saves {}", saved.empty() ? name_of(m_oracle.victim()) : join_names(saved));
    } else if (m_target.group.size() > 1) {
      s.effect = m_oracle.run_group().sentence();
    } else {
      const policy::Decision own = m_oracle.decide(m_target.subject);
      s.effect = own.summary;
    }
  }

 private:
  model::Snapshot& m_snap;
  Oracle& m_oracle;
  AdviseTarget m_target;
  const std::vector<PendingRef>& m_pending;
  const std::vector<PendingRef>& m_threats;
  std::vector<Signature> m_before;
};

void rank(std::vector<render::Suggestion>& s) {
  std::stable_sort(s.begin(), s.end(), [](const auto& a, const auto& b) {
    if (a.changed_decisions != b.changed_decisions) {
      return a.changed_decisions < b.changed_decisions;
    }
    return a.size < b.size;
  });
}

std::string no_effect_why(const Knob& k, AdviseGoal goal) {
  if (k.limit == k.from && k.choices.empty()) {
    return "already at its limit";
  }
  const char* reach = goal == AdviseGoal::save    ? "save it"
                      : goal == AdviseGoal::fit   ? "let it fit"
                      : goal == AdviseGoal::place ? "place it"
                                                  : "admit it";
  if (!k.choices.empty()) {
    return fmt::format("no other setting would {}", reach);
  }
  return fmt::format("{} it as far as {} does not {}", k.limit > k.from ? "raising" : "lowering",
                     k.show(k.limit), reach);
}

}  // namespace

std::string_view to_string(AdviseGoal g) {
  switch (g) {
    case AdviseGoal::save:
      return "save";
    case AdviseGoal::fit:
      return "fit";
    case AdviseGoal::place:
      return "place";
    case AdviseGoal::admit:
      return "admit";
  }
  return "save";
}

render::AdviceResult advise(model::Snapshot& snap, const AdviseRun& run, const AdviseTarget& target,
                            const std::vector<PendingRef>& pending) {
  render::AdviceResult r;
  r.policy = std::string(run.entry.name);
  Oracle oracle(snap, run, target, pending);
  std::vector<PendingRef> threats;
  std::optional<policy::Decision> own;
  // Every other pending preemptor's decision today: who threatens the victim, who never can,
  // and what side effects are measured against.
  std::vector<policy::Decision> before = oracle.decide_all(target.goal == AdviseGoal::save);
  if (target.goal == AdviseGoal::save) {
    for (std::size_t i = 0; i < pending.size(); ++i) {
      if (target.member(pending[i])) {
        continue;
      }
      r.line = before[i].line;
      if (oracle.lists_victim(before[i])) {
        threats.push_back(pending[i]);
      } else if (oracle.node_out_of_reach(before[i])) {
        oracle.rule_out(pending[i]);
      }
      before[i].nodes = {};
    }
    r.already = threats.empty();
  } else if (target.group.size() > 1) {
    const GroupRun g = oracle.run_group();
    r.already = g.placed == g.members && (target.goal != AdviseGoal::fit || g.fits == g.members);
    r.line = g.first_line;
    r.baseline = g.sentence();
  } else {
    own = oracle.decide(target.subject);
    r.already = oracle.reached(*own);
    r.line = own->line;
    r.warnings = own->warnings;
  }
  if (r.baseline.empty()) {
    r.baseline = baseline_sentence(snap, target, threats, own ? &*own : nullptr);
  }
  if (r.already) {
    return r;
  }
  Search search(snap, oracle, threats);
  SideEffects effects(snap, oracle, target, pending, threats, before);
  for (const Knob& k : knobs_for(KnobContext{snap, run.entry, target, threats})) {
    if (k.choices.empty()) {
      if (auto b = search.numeric(k)) {
        r.suggestions.push_back(suggestion_of(k, b->to, b->next));
        prefer(k, b->to, search, r.suggestions.back());
        effects.fill(k, b->to, r.suggestions.back());
      } else {
        r.no_effect.push_back({k.object, k.field, no_effect_why(k, target.goal)});
      }
      continue;
    }
    const std::vector<std::int64_t> good = search.choices(k);
    if (good.empty()) {
      r.no_effect.push_back({k.object, k.field, no_effect_why(k, target.goal)});
    }
    for (std::int64_t c : good) {
      r.suggestions.push_back(suggestion_of(k, c, std::nullopt));
      effects.fill(k, c, r.suggestions.back());
    }
  }
  rank(r.suggestions);
  r.probes = oracle.probes();
  return r;
}

std::vector<std::string> advise_assumptions() {
  return {
      "each suggestion changes one field and is checked by running the policy on the edited "
      "cluster, on both sides of the boundary it reports",
      "side effects count the other pending preemptors whose outcome, node or victims change, "
      "each decided on its own against the edited cluster",
  };
}

}  // namespace kpreempt::scenario
