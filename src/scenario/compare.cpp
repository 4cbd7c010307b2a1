// SPDX-License-Identifier: Apache-2.0
// Expectations against a decision, and policy args as the CLI's --set would pass them.
#include "kpreempt/scenario/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace kpreempt::scenario {
namespace {

std::string list(const std::set<std::string>& refs) {
  std::string out = "[";
  for (const std::string& r : refs) {
    out += out.size() > 1 ? ", " : "";
    out += r;
  }
  return out + "]";
}

std::set<std::string> victim_set(const policy::Decision& d) {
  std::set<std::string> out;
  for (const policy::Victim& v : d.victims) {
    out.insert(model::to_string(v.ref));
  }
  return out;
}

std::string node_text(const std::string& node) {
  return node.empty() ? "no node" : fmt::format("node {}", node);
}

void compare_node(const Expect& e, const policy::Decision& d, std::vector<std::string>& out) {
  if (e.node && d.node != *e.node) {
    out.push_back(fmt::format("{}, expected {}", node_text(d.node), *e.node));
  }
  if (!e.node_one_of.empty() &&
      std::find(e.node_one_of.begin(), e.node_one_of.end(), d.node) == e.node_one_of.end()) {
    out.push_back(fmt::format("{}, expected one of {}", node_text(d.node),
                              list({e.node_one_of.begin(), e.node_one_of.end()})));
  }
}

void compare_victims(const Expect& e, const policy::Decision& d, std::vector<std::string>& out) {
  const std::set<std::string> got = victim_set(d);
  if (e.victims) {
    std::set<std::string> want(e.victims->begin(), e.victims->end());
    if (got != want) {
      out.push_back(fmt::format("victims {}, expected {}", list(got), list(want)));
    }
  }
  std::set<std::string> forbidden;
  for (const std::string& ref : e.not_victims) {
    if (got.count(ref) != 0) {
      forbidden.insert(ref);
    }
  }
  if (!forbidden.empty()) {
    out.push_back(fmt::format("evicts {}, listed in notVictims", list(forbidden)));
  }
  if (e.max_victims && std::int64_t(d.victims.size()) > *e.max_victims) {
    out.push_back(fmt::format("{} victims {}, expected at most {}", d.victims.size(), list(got),
                              *e.max_victims));
  }
}

void compare_placements(const Expect& e, const policy::Decision& d,
                        const std::optional<Placements>& placements,
                        std::vector<std::string>& out) {
  const bool placed = d.outcome != policy::Outcome::unschedulable;
  const Placements got = placements.value_or(Placements{placed ? 1 : 0, placed ? 0 : 1});
  if (e.placed && got.placed != *e.placed) {
    out.push_back(fmt::format("{} placed, expected {}", got.placed, *e.placed));
  }
  if (e.pending && got.pending != *e.pending) {
    out.push_back(fmt::format("{} pending, expected {}", got.pending, *e.pending));
  }
}

}  // namespace

std::string loop_text(const render::Cascade& c) {
  std::vector<std::string> steps;
  for (const render::CascadeDecision& d : c.loop.value_or(std::vector<render::CascadeDecision>{})) {
    steps.push_back(fmt::format("{} evicts {}", d.preemptor, fmt::join(d.victims, " and ")));
  }
  return fmt::format("{}", fmt::join(steps, ", "));
}

std::vector<std::string> compare_cascade(const CascadeExpect& expect, const render::Cascade& c) {
  std::vector<std::string> out;
  if (expect.no_loop_within && c.loop) {
    out.push_back(fmt::format("loop after round {}: {}", c.rounds.size(), loop_text(c)));
  }
  if (expect.max_evictions && static_cast<std::int64_t>(c.evictions) > *expect.max_evictions) {
    out.push_back(fmt::format("cascade: {} evictions in {} round{}, expected at most {}",
                              c.evictions, c.rounds.size(), c.rounds.size() == 1 ? "" : "s",
                              *expect.max_evictions));
  }
  return out;
}

std::vector<std::string> compare(const Expect& expect, const policy::Decision& decision,
                                 const std::optional<Placements>& placements) {
  std::vector<std::string> out;
  const std::string_view outcome = policy::to_string(decision.outcome);
  if (outcome != expect.outcome) {
    out.push_back(fmt::format("outcome {}, expected {}", outcome, expect.outcome));
  }
  compare_node(expect, decision, out);
  compare_victims(expect, decision, out);
  compare_placements(expect, decision, placements, out);
  return out;
}

}  // namespace kpreempt::scenario
