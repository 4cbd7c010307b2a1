// SPDX-License-Identifier: Apache-2.0
// Steps D and E (apache/yunikorn-core v1.7.0 pkg/scheduler/objects/preemption.go
// calculateAdditionalVictims and the victim trimming of TryPreemption) and the required-node
// path (required_node_preemptor.go).
#include "policy/yunikorn/steps.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::yunikorn {
namespace {

bool contains(const std::vector<model::PodId>& v, model::PodId id) {
  return std::find(v.begin(), v.end(), id) != v.end();
}

// The ask's keys with an explicit zero request, "memory" or "memory, nvidia.com/gpu".
std::string zero_keys(const Res& ask) {
  std::string out;
  for (const auto& [k, v] : ask) {
    if (v <= 0) {
      out += (out.empty() ? "" : ", ") + k;
    }
  }
  return out;
}

// Step D of v1.8: the victim test on the ask's keys, each victim must fit the ask queue's
// remaining guarantee; none needed is success.
bool additional_victims_v18(const Cluster& c, const Res& ask, QueueSnapshots& s,
                            const std::vector<model::PodId>& rest, Trace& t) {
  for (model::PodId v : rest) {
    const YkPod& p = c.pods[v];
    const bool over = queue_over(c, s, p.queue, ask);
    s.remove(p.queue, p.res);
    if (!over) {
      s.add(p.queue, p.res);
      continue;
    }
    const ORes before = s.remaining(t.ask_queue);
    if (!fits_actual(before, p.res)) {
      s.add(p.queue, p.res);
      break;
    }
    s.add(t.ask_queue, p.res);
    const ORes after = s.remaining(t.ask_queue);
    if (equal_maps(before, after) || (zero_valued(before) && zero_valued(after))) {
      s.remove(t.ask_queue, p.res);
      s.add(p.queue, p.res);
      continue;
    }
    t.additional.push_back(v);
  }
  return t.additional.empty() || ask_under(ask, s.remaining(t.ask_queue));
}

// Step D: queue-side victims beyond the node's, until the ask queue is within its guarantee.
bool additional_victims(const Cluster& c, const Res& ask, Trace& t) {
  QueueSnapshots s(c, t.ask_queue);
  for (model::PodId v : t.node_victims) {
    s.remove(c.pods[v].queue, c.pods[v].res);
  }
  std::vector<model::PodId> rest;
  for (model::PodId v : t.candidates) {
    if (!contains(t.node_victims, v)) {
      rest.push_back(v);
    }
  }
  std::stable_sort(rest.begin(), rest.end(), [&](model::PodId a, model::PodId b) {
    if (flag_score(c.pods[a]) != flag_score(c.pods[b])) {
      return flag_score(c.pods[a]) < flag_score(c.pods[b]);
    }
    return c.pods[a].create > c.pods[b].create;
  });
  if (c.rules.resource_wise) {
    return additional_victims_v18(c, ask, s, rest, t);
  }
  for (model::PodId v : rest) {
    const YkPod& p = c.pods[v];
    const bool over = s.over(p.queue);
    s.remove(p.queue, p.res);
    if (!over) {
      s.add(p.queue, p.res);
      continue;
    }
    const ORes before = s.remaining(t.ask_queue);
    s.add(t.ask_queue, p.res);
    const ORes after = s.remaining(t.ask_queue);
    if (after && neg(after)) {
      s.remove(t.ask_queue, p.res);
      s.add(p.queue, p.res);
      break;
    }
    if (equal_maps(before, after) || (zero_valued(before) && zero_valued(after))) {
      s.remove(t.ask_queue, p.res);
      s.add(p.queue, p.res);
      continue;
    }
    t.additional.push_back(v);
  }
  return s.within(t.ask_queue);
}

// Step E: the victims actually sent. Free space is ignored and every pod carries pods: 1, so
// at most two victims survive.
void trim(const Cluster& c, model::PodId ask, Trace& t) {
  const Res& res = c.pods[ask].res;
  const bool fit_now = fits(c.available[t.chosen], res);
  std::vector<model::PodId> all = t.node_victims;
  all.insert(all.end(), t.additional.begin(), t.additional.end());
  Res total;
  for (model::PodId v : all) {
    if (!fit_now && c.snap.facts(v).node != t.chosen) {
      t.pods[v] = {Code::other_node,
                   "on another node while the ask does not fit the chosen node yet"};
      continue;
    }
    if (not_covered(res, total)) {
      t.selected.push_back(v);
      t.pods[v] = {Code::selected, ""};
    } else if (total.empty()) {
      // StrictlyGreaterThanOnlyExisting against an empty total needs every ask value > 0, so an
      // explicit zero request (memory: "0") makes upstream send no victim at all.
      t.pods[v] = {Code::not_needed,
                   fmt::format("the ask requests 0 of {}: upstream counts no victim as covering it",
                               zero_keys(res))};
    } else {
      t.pods[v] = {Code::not_needed,
                   fmt::format("victims so far ({}) already cover the ask", to_string(total))};
    }
    add_to(total, c.pods[v].res);
  }
  if (not_covered(res, total)) {
    t.selected.clear();
    fail_with(t, Code::shortfall,
              fmt::format("the victims ({}) do not cover the whole ask ({}); free space is not "
                          "counted",
                          to_string(total), to_string(res)));
    return;
  }
  t.outcome = Outcome::preempt;
  t.reason = Code::preempt;
  // Upstream still marks the ask as having triggered preemption and reserves the node, though
  // nothing on it is freed.
  t.detail = t.selected.empty() ? fmt::format(
                                      "the ask requests 0 of {}, so upstream's trimming "
                                      "keeps no victim while the node stays full",
                                      zero_keys(res))
                                : "";
}

bool covers(const Res& total, const Res& ask) {
  return std::all_of(ask.begin(), ask.end(),
                     [&](const auto& e) { return get(total, e.first) >= e.second; });
}

}  // namespace

void fail_with(Trace& t, Code reason, std::string detail) {
  t.outcome = Outcome::unschedulable;
  t.reason = reason;
  t.detail = std::move(detail);
}

void finish(const Cluster& c, model::PodId ask, Trace& t) {
  if (!additional_victims(c, c.pods[ask].res, t)) {
    fail_with(t, Code::guarantee_not_reachable,
              "the ask's queue cannot be brought within its guarantee");
    return;
  }
  trim(c, ask, t);
}

void required_node_preemption(const Cluster& c, const common::Filters& f, model::PodId ask,
                              Trace& t) {
  const YkPod& a = c.pods[ask];
  std::optional<model::NodeId> n = c.snap.find_node(a.required_node_name);
  if (!fits_defined(t.headroom, a.res) || !n) {
    fail_with(
        t, !n ? Code::no_node : Code::queue_headroom,
        !n ? "the required node is not in the dump" : "the queue headroom cannot hold the ask");
    return;
  }
  t.chosen = *n;
  if (fits(c.available[*n], a.res) && f.run(common::NodeView{*n, {}, {}}).ok()) {
    t.outcome = Outcome::fits;
    t.reason = Code::fits;
    t.detail = "the required node has room";
    return;
  }
  std::vector<model::PodId> cands;
  for (model::PodId id : c.snap.pods_on(*n)) {
    const YkPod& p = c.pods[id];
    if (!p.yk || p.queue == k_no_queue) {
      t.pods[id] = {Code::foreign_pod, "not scheduled by YuniKorn: never a victim"};
    } else if (p.required_node) {
      t.pods[id] = {Code::required_node, "another required-node pod"};
    } else if (p.priority > a.priority) {
      t.pods[id] = {Code::higher_priority,
                    fmt::format("priority {} is above the ask's {}", p.priority, a.priority)};
    } else if (p.preempted) {
      t.pods[id] = {Code::already_preempted, "already terminating"};
    } else if (!common_key(p.res, a.res)) {
      t.pods[id] = {Code::no_common_resource, "shares no resource type with the ask"};
    } else {
      t.pods[id] = {Code::candidate, ""};
      cands.push_back(id);
    }
  }
  std::stable_sort(cands.begin(), cands.end(), [&](model::PodId x, model::PodId y) {
    const YkPod& px = c.pods[x];
    const YkPod& py = c.pods[y];
    if (allocation_type(px) != allocation_type(py)) {
      return allocation_type(px) < allocation_type(py);
    }
    if (px.priority != py.priority) {
      return px.priority < py.priority;
    }
    return px.create > py.create;
  });
  Res total;
  for (model::PodId id : cands) {
    if (covers(total, a.res)) {
      t.pods[id] = {Code::not_needed, "the pods taken already cover the ask"};
      continue;
    }
    add_to(total, c.pods[id].res);
    t.selected.push_back(id);
    t.pods[id] = {Code::selected, ""};
  }
  if (t.selected.empty() || !covers(add(total, c.available[*n]), a.res)) {
    t.selected.clear();
    fail_with(t, Code::no_victims_on_required_node,
              "the required node cannot be freed for the ask");
    return;
  }
  t.outcome = Outcome::preempt;
  t.reason = Code::required_node_preemption;
  t.detail = "";
}

}  // namespace kpreempt::policy::yunikorn
