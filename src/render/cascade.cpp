// SPDX-License-Identifier: Apache-2.0
// Output of a preemption cascade: the rounds' timelines and the summary, as text or as a
// `kind: Cascade` document.
#include "kpreempt/render/cascade.h"

#include "render/structured.h"

#include "kpreempt/render/html.h"

#include <fmt/format.h>

#include <ostream>

namespace kpreempt::render {
namespace {

using Json = nlohmann::ordered_json;

Json decision_json(const CascadeDecision& d) {
  Json j = Json::object();
  j["preemptor"] = d.preemptor;
  j["policy"] = d.policy;
  j["outcome"] = std::string(policy::to_string(d.outcome));
  j["node"] = d.node.empty() ? Json(nullptr) : Json(d.node);
  j["victims"] = d.victims;
  return j;
}

Json to_json(const Cascade& c) {
  Json doc = Json::object();
  doc["apiVersion"] = "kpreempt/v1alpha1";
  doc["kind"] = "Cascade";
  Json rounds = Json::array();
  for (const CascadeRound& r : c.rounds) {
    Json jr = Json::object();
    jr["round"] = r.round;
    Json decisions = Json::array();
    for (const CascadeDecision& d : r.decisions) {
      decisions.push_back(decision_json(d));
    }
    jr["decisions"] = std::move(decisions);
    jr["recreated"] = r.recreated;
    jr["gone"] = r.gone;
    jr["admitted"] = r.admitted;
    jr["evicted"] = r.evicted;
    jr["pending"] = r.pending;
    rounds.push_back(std::move(jr));
  }
  doc["rounds"] = std::move(rounds);
  Json s = Json::object();
  s["rounds"] = c.rounds.size();
  s["admitted"] = c.admitted;
  s["evictions"] = c.evictions;
  s["podsEvictedMoreThanOnce"] = c.evicted_more_than_once;
  s["amplification"] = c.amplification();
  s["settled"] = c.settled;
  if (c.loop) {
    Json cycle = Json::array();
    Json because = Json::array();
    for (const CascadeDecision& d : *c.loop) {
      cycle.push_back(decision_json(d));
      because.push_back(d.because);
    }
    Json loop = Json::object();
    loop["fromRound"] = c.loop_from;
    loop["cycle"] = std::move(cycle);
    loop["because"] = std::move(because);
    s["loop"] = std::move(loop);
  } else {
    s["loop"] = nullptr;
  }
  s["assumptions"] = c.not_modelled;
  doc["summary"] = std::move(s);
  return doc;
}

std::string joined(const std::vector<std::string>& names) {
  return names.empty() ? "-" : fmt::format("{}", fmt::join(names, ", "));
}

void render_text(const Cascade& c, std::ostream& out) {
  for (const CascadeRound& r : c.rounds) {
    out << fmt::format("round {}: {} admitted, {} evicted, {} recreated, {} pending\n", r.round,
                       r.admitted, r.evicted, r.recreated.size(), r.pending);
    for (const CascadeDecision& d : r.decisions) {
      std::string line = fmt::format("  {}  {}  {}  {}", d.preemptor, d.policy,
                                     policy::to_string(d.outcome), d.node.empty() ? "-" : d.node);
      if (!d.victims.empty()) {
        line += "  evicts " + joined(d.victims);
      }
      out << line << '\n';
    }
    if (!r.recreated.empty()) {
      out << "  recreated: " << joined(r.recreated) << '\n';
    }
    if (!r.gone.empty()) {
      out << "  gone: " << joined(r.gone) << '\n';
    }
  }
  out << fmt::format(
      "\n{} round{}, {} admitted, {} evictions ({} pods evicted more than once), "
      "amplification {:.2f}; {}\n",
      c.rounds.size(), c.rounds.size() == 1 ? "" : "s", c.admitted, c.evictions,
      c.evicted_more_than_once, c.amplification(),
      c.settled ? "settled"
      : c.loop  ? "loops"
                : "not settled within the rounds");
  if (c.loop) {
    out << fmt::format("loop: the state after round {} repeats after round {}:\n", c.loop_from,
                       c.rounds.size());
    for (const CascadeDecision& d : *c.loop) {
      out << fmt::format("  {} -> {}\n    because {}\n", d.preemptor, joined(d.victims), d.because);
    }
  }
  if (!c.not_modelled.empty()) {
    out << "not modelled:\n";
    for (const std::string& n : c.not_modelled) {
      out << "  - " << n << '\n';
    }
  }
}

}  // namespace

void render_cascade(Format format, const Cascade& c, std::ostream& out) {
  if (format == Format::json || format == Format::yaml) {
    print_structured(to_json(c), format == Format::yaml, out);
    return;
  }
  if (format == Format::html) {
    render_cascade_html(c, out);
    return;
  }
  render_text(c, out);
}

}  // namespace kpreempt::render
