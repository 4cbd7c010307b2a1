// SPDX-License-Identifier: Apache-2.0
// Output of `advise`: the best suggestions per policy as sentences with a command each, or a
// `kind: Advice` document.
#include "kpreempt/render/advice.h"

#include "render/structured.h"

#include <fmt/format.h>

#include <ostream>

namespace kpreempt::render {
namespace {

using Json = nlohmann::ordered_json;

Json object_json(const model::ObjectRef& r) {
  Json j = Json::object();
  j["kind"] = r.kind;
  if (!r.namespace_.empty()) {
    j["namespace"] = r.namespace_;
  }
  j["name"] = r.name;
  return j;
}

Json suggestion_json(const Suggestion& s) {
  Json j = Json::object();
  j["object"] = object_json(s.object);
  j["field"] = s.field;
  j["from"] = s.from;
  j["to"] = s.to;
  j["next"] = s.next.empty() ? Json(nullptr) : Json(s.next);
  j["effect"] = s.effect;
  j["instead"] = s.instead;
  j["sentence"] = s.sentence;
  j["verified"] = s.verified;
  j["sideEffects"] = {{"changedDecisions", s.changed_decisions}, {"changed", s.changed}};
  j["command"] = s.command.empty() ? Json(nullptr) : Json(s.command);
  j["notes"] = s.notes;
  return j;
}

Json result_json(const AdviceResult& r) {
  Json j = Json::object();
  j["policy"] = r.policy;
  j["line"] = r.line;
  j["already"] = r.already;
  j["today"] = r.baseline;
  Json suggestions = Json::array();
  for (const Suggestion& s : r.suggestions) {
    suggestions.push_back(suggestion_json(s));
  }
  j["suggestions"] = std::move(suggestions);
  Json none = Json::array();
  for (const NoEffect& n : r.no_effect) {
    none.push_back({{"object", object_json(n.object)}, {"field", n.field}, {"why", n.why}});
  }
  j["noEffect"] = std::move(none);
  j["probes"] = r.probes;
  j["warnings"] = r.warnings;
  return j;
}

Json to_json(const Advice& a) {
  Json doc = Json::object();
  doc["apiVersion"] = "kpreempt/v1alpha1";
  doc["kind"] = "Advice";
  doc["goal"] = a.goal;
  doc["target"] = a.target;
  doc["now"] = model::to_string(a.now);
  doc["pending"] = a.pending;
  Json results = Json::array();
  for (const AdviceResult& r : a.results) {
    results.push_back(result_json(r));
  }
  doc["results"] = std::move(results);
  doc["notes"] = a.notes;
  return doc;
}

std::string side_effects(const Suggestion& s) {
  if (s.changed_decisions == 0) {
    return "no other pending decision changes";
  }
  std::string names;
  for (const std::string& n : s.changed) {
    names += (names.empty() ? "" : ", ") + n;
  }
  const std::size_t more = s.changed_decisions - s.changed.size();
  return fmt::format("changes {} other pending decision{}: {}{}", s.changed_decisions,
                     s.changed_decisions == 1 ? "" : "s", names,
                     more > 0 ? fmt::format(" and {} more", more) : "");
}

std::string heading(const Advice& a) {
  if (a.goal == "save") {
    return fmt::format("What would save {}", a.target);
  }
  if (a.goal == "fit") {
    return fmt::format("What would let {} fit without evicting anyone", a.target);
  }
  if (a.goal == "admit") {
    return fmt::format("What would admit {}", a.target);
  }
  return fmt::format("What would get {} a node", a.target);
}

// "default (kubernetes v1.37 pkg/scheduler/...)", as explain heads a decision.
std::string policy_heading(const AdviceResult& r) {
  const policy::Entry* e = policy::find(r.policy);
  if (e == nullptr || r.line.empty()) {
    return r.policy;
  }
  const auto line = policy::parse_release_line(r.line);
  return fmt::format("{} ({})", r.policy,
                     line ? e->nearest(*line).upstream : std::string_view(r.line));
}

void text_result(const Advice& a, const AdviceResult& r, std::ostream& out) {
  out << "\n" << policy_heading(r) << "\n";
  if (!r.baseline.empty()) {
    out << fmt::format("  today     {}\n", r.baseline);
  }
  if (r.already) {
    out << fmt::format("  nothing to change: the goal ({}) already holds\n", a.goal);
    return;
  }
  if (r.suggestions.empty()) {
    out << "  no single change found that reaches the goal\n";
  }
  for (std::size_t i = 0; i < r.suggestions.size() && i < a.limit; ++i) {
    const Suggestion& s = r.suggestions[i];
    out << fmt::format("  {}. {}\n     {}; {}\n", i + 1, s.sentence, s.effect, side_effects(s));
    for (const std::string& line : s.instead) {
      out << fmt::format("     then {}\n", line);
    }
    if (!s.next.empty()) {
      out << fmt::format("     checked: {} reaches the goal, {} does not\n", s.to, s.next);
    }
    if (!s.command.empty()) {
      out << fmt::format("     $ {}\n", s.command);
    }
    for (const std::string& n : s.notes) {
      out << fmt::format("     note: {}\n", n);
    }
  }
  if (r.suggestions.size() > a.limit) {
    out << fmt::format("  ({} more: --limit {} or -o json)\n", r.suggestions.size() - a.limit,
                       r.suggestions.size());
  }
  for (const NoEffect& n : r.no_effect) {
    out << fmt::format("  no effect: {} of {}: {}\n", n.field, model::to_string(n.object), n.why);
  }
}

}  // namespace

void render_advice(Format format, const Advice& a, std::ostream& out) {
  if (format == Format::json || format == Format::yaml) {
    print_structured(to_json(a), format == Format::yaml, out);
    return;
  }
  out << heading(a) << "\n";
  if (a.results.empty()) {
    out << "\nno chosen policy judges it\n";
  }
  for (const AdviceResult& r : a.results) {
    text_result(a, r, out);
  }
  out << "\n";
  for (const std::string& n : a.notes) {
    out << fmt::format("note: {}\n", n);
  }
}

}  // namespace kpreempt::render
