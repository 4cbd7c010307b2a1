// SPDX-License-Identifier: Apache-2.0
// Steps A-E of apache/yunikorn-core v1.7.0 pkg/scheduler/objects/preemption.go
// (checkPreemptionQueueGuarantees, calculateVictimsByNode, checkPreemptionPredicates,
// calculateAdditionalVictims, TryPreemption) with predicates.go scoring.
#include "policy/yunikorn/steps.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::yunikorn {
namespace {

void note(Trace& t, model::PodId id, Code code, std::string detail = {}) {
  t.pods[id] = PodNote{code, std::move(detail)};
}

// Step A: can removing every candidate bring the ask queue (with the ask added) within its
// guarantee?
// v1.8 passes at once when the ask fits the remaining guarantee, and then tests only the
// ask's keys.
bool guarantees_reachable(const Cluster& c, model::PodId ask, const Trace& t) {
  QueueSnapshots s(c, t.ask_queue);
  const Res& res = c.pods[ask].res;
  if (c.rules.resource_wise && fits_actual(s.remaining(t.ask_queue), res)) {
    return true;
  }
  s.add(t.ask_queue, res);
  for (model::PodId v : t.candidates) {
    s.remove(c.pods[v].queue, c.pods[v].res);
    if (c.rules.resource_wise ? ask_under(res, s.remaining(t.ask_queue)) : s.within(t.ask_queue)) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool queue_over(const Cluster& c, const QueueSnapshots& s, std::uint32_t q, const Res& ask) {
  return c.rules.resource_wise ? victim_over(ask, s.remaining(q)) : s.over(q);
}

namespace {

// sortVictimsForPreemption: opted-in first, then non-originators, then newest first.
void sort_node_candidates(const Cluster& c, std::vector<model::PodId>& v) {
  std::stable_sort(v.begin(), v.end(), [&](model::PodId a, model::PodId b) {
    const YkPod& pa = c.pods[a];
    const YkPod& pb = c.pods[b];
    if (pa.allow_preempt_self != pb.allow_preempt_self) {
      return pa.allow_preempt_self;
    }
    if (pa.originator != pb.originator) {
      return !pa.originator;
    }
    return pa.create > pb.create;
  });
}

// Pass 1 of calculateVictimsByNode: the order victims are tried in (head, then tail).
std::vector<model::PodId> first_pass(const Cluster& c, model::PodId ask, model::NodeId n,
                                     Trace& t) {
  const Res& res = c.pods[ask].res;
  QueueSnapshots s(c, t.ask_queue);
  Res av = c.available[n];
  std::vector<model::PodId> head, tail;
  for (model::PodId v : t.nodes[n].sorted) {
    const YkPod& p = c.pods[v];
    const bool over = queue_over(c, s, p.queue, res);
    s.remove(p.queue, p.res);
    if (!over) {
      s.add(p.queue, p.res);
      note(t, v, Code::would_drop_queue_below_guaranteed, "its queue is not over its guarantee");
      continue;
    }
    if (c.rules.resource_wise && !fits_actual(s.remaining(t.ask_queue), p.res)) {
      s.add(p.queue, p.res);
      note(t, v, Code::ask_queue_would_exceed_guaranteed,
           "it does not fit the ask queue's remaining guarantee");
      break;
    }
    s.add(t.ask_queue, p.res);
    ORes r = s.remaining(t.ask_queue);
    if (!c.rules.resource_wise && r && neg(r)) {
      // Upstream stops scanning this node at the first such pod.
      note(t, v, Code::ask_queue_would_exceed_guaranteed,
           "the ask's queue would exceed its guarantee");
      break;
    }
    if (equal_maps(shortfall(res, av), shortfall(res, add(av, p.res)))) {
      s.remove(t.ask_queue, p.res);
      s.add(p.queue, p.res);
      tail.push_back(v);
      note(t, v, Code::does_not_reduce_shortfall, "frees nothing the ask lacks on this node");
    } else {
      add_to(av, p.res);
      head.push_back(v);
    }
  }
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// Step B for one node: its victim list and the index after which the ask fits.
void victims_by_node(const Cluster& c, model::PodId ask, model::NodeId n, Trace& t) {
  NodeTrace& nt = t.nodes[n];
  const Res& res = c.pods[ask].res;
  if (fits(c.available[n], res)) {
    nt.solution = true;
    nt.index = -1;
    return;
  }
  const std::vector<model::PodId> order = first_pass(c, ask, n, t);
  QueueSnapshots s(c, t.ask_queue);
  Res av = c.available[n];
  int index = -1;
  for (model::PodId v : order) {
    const YkPod& p = c.pods[v];
    const bool over = queue_over(c, s, p.queue, res);
    s.remove(p.queue, p.res);
    if (!over) {
      s.add(p.queue, p.res);
      note(t, v, Code::would_drop_queue_below_guaranteed,
           "its queue would drop below its guarantee");
      continue;
    }
    add_to(av, p.res);
    nt.results.push_back(v);
    if (index < 0 && fits(av, res)) {
      index = static_cast<int>(nt.results.size()) - 1;
    }
  }
  nt.solution = index >= 0;
  nt.index = index;
}

std::uint64_t score_of(const Cluster& c, const NodeTrace& nt) {
  if (nt.sorted.empty()) {
    return k_score_unfit;
  }
  if (nt.success_at < 0) {
    return 0;
  }
  std::uint64_t flags = 0;
  for (int i = 0; i <= nt.success_at && i < static_cast<int>(nt.sorted.size()); ++i) {
    flags |= flag_score(c.pods[nt.sorted[static_cast<std::size_t>(i)]]);
  }
  return flags + static_cast<std::uint64_t>(nt.success_at + 1);
}

// The shim's predicate check for one node: evict results[0..index-1], then one more at a time.
void check_node(const Cluster& c, const common::Filters& f, model::NodeId n, Trace& t) {
  NodeTrace& nt = t.nodes[n];
  nt.checked = true;
  common::NodeView view{n, {}, {}};
  if (nt.index < 0) {
    common::FilterStatus st = f.run(view);
    nt.passed = st.ok();
    nt.filter_detail = st.detail;
  } else {
    view.removed.assign(nt.results.begin(), nt.results.begin() + nt.index);
    for (std::size_t i = static_cast<std::size_t>(nt.index); i < nt.results.size(); ++i) {
      view.removed.push_back(nt.results[i]);
      common::FilterStatus st = f.run(view);
      nt.filter_detail = st.detail;
      if (st.ok()) {
        nt.passed = true;
        nt.success_at = static_cast<int>(i);
        break;
      }
    }
  }
  if (nt.passed) {
    nt.score = score_of(c, nt);
  }
}

std::vector<model::NodeId> check_order(const Cluster& c, const Trace& t) {
  std::vector<model::NodeId> out;
  for (model::NodeId n = 0; n < t.nodes.size(); ++n) {
    const NodeTrace& nt = t.nodes[n];
    if (nt.solution && !(nt.index < 0 && t.nodes_tried)) {
      out.push_back(n);
    }
  }
  std::sort(out.begin(), out.end(), [&](model::NodeId a, model::NodeId b) {
    if (t.nodes[a].index != t.nodes[b].index) {
      return t.nodes[a].index < t.nodes[b].index;
    }
    return c.snap.nodes()[a].name < c.snap.nodes()[b].name;
  });
  return out;
}

// Step C: batches of ten checks run concurrently upstream; the best score wins and, among
// equal scores in one batch, whichever finished first (a race: reported as a tie).
bool choose_node(const Cluster& c, const common::Filters& f, Trace& t) {
  const std::vector<model::NodeId> order = check_order(c, t);
  std::optional<std::uint64_t> best;
  std::size_t best_batch = 0;
  for (std::size_t start = 0; start < order.size(); start += 10) {
    const std::size_t end = std::min(order.size(), start + 10);
    for (std::size_t i = start; i < end; ++i) {
      const model::NodeId n = order[i];
      check_node(c, f, n, t);
      if (!t.nodes[n].passed) {
        continue;
      }
      if (!best || t.nodes[n].score < *best) {
        best = t.nodes[n].score;
        best_batch = start;
        t.chosen = n;
        t.tied = {n};
      } else if (t.nodes[n].score == *best && best_batch == start) {
        t.tied.push_back(n);  // same batch: upstream keeps whichever result arrived first
      }
    }
    if (best && *best < k_score_fit_max) {
      break;
    }
  }
  if (t.tied.size() < 2) {
    t.tied.clear();
  }
  return best.has_value();
}

}  // namespace

void general_preemption(const Cluster& c, const common::Filters& f, model::PodId ask, Trace& t) {
  QueueSnapshots base(c, t.ask_queue);
  find_candidates(c, ask, base, t);
  // v1.8's Step A can pass without a candidate (the ask fits the remaining guarantee).
  if ((t.candidates.empty() && !c.rules.resource_wise) || !guarantees_reachable(c, ask, t)) {
    fail_with(t, Code::does_not_guarantee,
              t.candidates.empty()
                  ? "no pod is a candidate victim"
                  : "removing every candidate would not bring the queue within its guarantee");
    return;
  }
  if (t.candidates.empty()) {
    fail_with(t, Code::no_victims, "the ask fits its queue's guarantee but no pod is a candidate");
    return;
  }
  for (model::NodeId n = 0; n < t.nodes.size(); ++n) {
    NodeTrace& nt = t.nodes[n];
    for (model::PodId v : t.candidates) {
      if (c.snap.facts(v).node == n) {
        nt.sorted.push_back(v);
      }
    }
    sort_node_candidates(c, nt.sorted);
    if (!fits(c.capacity[n], c.pods[ask].res)) {
      nt.too_small = true;
      for (model::PodId v : nt.sorted) {
        note(t, v, Code::node_too_small, "the node's capacity cannot hold the ask");
      }
      continue;
    }
    victims_by_node(c, ask, n, t);
  }
  if (!choose_node(c, f, t)) {
    fail_with(t, Code::no_node, "no node can be freed for the ask");
    return;
  }
  const NodeTrace& chosen = t.nodes[t.chosen];
  for (int i = 0; i <= chosen.success_at; ++i) {
    t.node_victims.push_back(chosen.results[static_cast<std::size_t>(i)]);
  }
  finish(c, ask, t);
}

}  // namespace kpreempt::policy::yunikorn
