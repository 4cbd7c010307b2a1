// SPDX-License-Identifier: Apache-2.0
// `kpreempt diff`: the report in each output format.
#include "render/structured.h"

#include "kpreempt/render/ci_formats.h"
#include "kpreempt/render/diff.h"
#include "kpreempt/render/html.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace kpreempt::render {
namespace {

using Json = nlohmann::ordered_json;

std::string where(const SourceLoc& loc) {
  return loc.line == 0 ? loc.file.str() : fmt::format("{}:{}", loc.file, loc.line);
}

std::string outcome_text(const std::optional<policy::Outcome>& o, const std::string& node) {
  if (!o) {
    return "not applied";
  }
  std::string text(policy::to_string(*o));
  return node.empty() ? text : fmt::format("{} on {}", text, node);
}

Json loc_json(const SourceLoc& loc) {
  Json j = {{"file", loc.file}};
  j["line"] = loc.line == 0 ? Json(nullptr) : Json(loc.line);
  return j;
}

Json side_json(const std::optional<policy::Outcome>& o, const std::string& node) {
  if (!o) {
    return nullptr;
  }
  return {{"outcome", policy::to_string(*o)}, {"node", node.empty() ? Json(nullptr) : Json(node)}};
}

Json diff_json(const Diff& diff) {
  Json decisions = Json::array();
  for (const DecisionChange& c : diff.decisions) {
    Json causes = Json::array();
    for (const ConfigChange* cc : c.causes) {
      Json j = {{"object", cc->object}, {"change", to_string(cc->kind)}};
      j.update(loc_json(cc->loc));
      causes.push_back(std::move(j));
    }
    decisions.push_back({{"subject", c.subject},
                         {"policy", c.policy},
                         {"base", side_json(c.before, c.node_before)},
                         {"head", side_json(c.after, c.node_after)},
                         {"victimsAdded", c.victims_added},
                         {"victimsRemoved", c.victims_removed},
                         {"why", c.why},
                         {"causes", std::move(causes)}});
  }
  Json config = Json::array();
  for (const ConfigChange& cc : diff.config) {
    Json j = {{"object", cc.object}, {"change", to_string(cc.kind)}};
    j.update(loc_json(cc.loc));
    config.push_back(std::move(j));
  }
  Json edges = Json::array();
  for (const EdgeChange& e : diff.edges) {
    edges.push_back({{"policy", e.policy},
                     {"preemptor", e.preemptor},
                     {"victim", e.victim},
                     {"base", e.before},
                     {"head", e.after}});
  }
  Json findings = Json::array();
  for (const LintChange& f : diff.new_findings) {
    Json j = {{"rule", f.rule}, {"level", f.level}, {"object", f.object}, {"message", f.message}};
    j.update(loc_json(f.loc));
    findings.push_back(std::move(j));
  }
  return {{"apiVersion", "kpreempt/v1alpha1"},
          {"kind", "Diff"},
          {"summary",
           {{"preemptors", diff.subjects},
            {"changed", diff.decisions.size()},
            {"outcomeChanges", diff.outcome_changes()},
            {"victimsAdded", diff.victims_added()},
            {"victimsRemoved", diff.victims_removed()},
            {"edgeChanges", diff.edges.size()},
            {"configChanges", diff.config.size()},
            {"newFindings", diff.new_findings.size()}}},
          {"notes", diff.notes},
          {"decisions", std::move(decisions)},
          {"edges", std::move(edges)},
          {"configChanges", std::move(config)},
          {"newFindings", std::move(findings)}};
}

void render_text(const Diff& diff, std::ostream& out) {
  out << diff_summary(diff) << "\n";
  for (const std::string& n : diff.notes) {
    out << "note: " << n << "\n";
  }
  for (const DecisionChange& c : diff.decisions) {
    out << fmt::format("\n{}  {}  {} -> {}\n", c.subject, c.policy,
                       outcome_text(c.before, c.node_before), outcome_text(c.after, c.node_after));
    if (!c.victims_added.empty()) {
      out << fmt::format("  victims added    {}\n", fmt::join(c.victims_added, ", "));
    }
    if (!c.victims_removed.empty()) {
      out << fmt::format("  victims removed  {}\n", fmt::join(c.victims_removed, ", "));
    }
    out << fmt::format("  why              {}\n", c.why);
    for (const ConfigChange* cc : c.causes) {
      out << fmt::format("  changed          {} ({})\n", cc->object, where(cc->loc));
    }
  }
  if (!diff.edges.empty()) {
    out << "\nwho may preempt whom (PREEMPTOR -> VICTIM: BASE -> HEAD)\n";
    for (const EdgeChange& e : diff.edges) {
      out << fmt::format("  {:<11} {} -> {}: {} -> {}\n", e.policy, e.preemptor, e.victim, e.before,
                         e.after);
    }
  }
  if (!diff.config.empty()) {
    out << "\nconfiguration changes\n";
    for (const ConfigChange& cc : diff.config) {
      out << fmt::format("  {:<8} {}  {}\n", to_string(cc.kind), cc.object, where(cc.loc));
    }
  }
  if (!diff.new_findings.empty()) {
    out << "\nnew lint findings\n";
    for (const LintChange& f : diff.new_findings) {
      out << fmt::format("  {}: {}: {}: {} [{}]\n", where(f.loc), f.level, f.object, f.message,
                         f.rule);
    }
  }
}

// Markdown for a pull-request comment: names are checked API names, messages are quoted in
// code spans so that they cannot carry markup.
std::string code(const std::string& text) {
  std::string t = text;
  std::replace(t.begin(), t.end(), '`', '\'');
  return "`" + t + "`";
}

void render_markdown(const Diff& diff, std::ostream& out) {
  out << "### kpreempt diff\n\n" << diff_summary(diff) << "\n";
  for (const std::string& n : diff.notes) {
    out << "\n> " << n << "\n";
  }
  if (!diff.decisions.empty()) {
    out << "\n| preemptor | policy | base | head | victims added | victims removed | changed "
           "configuration |\n|---|---|---|---|---|---|---|\n";
    for (const DecisionChange& c : diff.decisions) {
      std::vector<std::string> added, removed, causes;
      std::transform(c.victims_added.begin(), c.victims_added.end(), std::back_inserter(added),
                     code);
      std::transform(c.victims_removed.begin(), c.victims_removed.end(),
                     std::back_inserter(removed), code);
      for (const ConfigChange* cc : c.causes) {
        causes.push_back(code(cc->object) + " " + code(where(cc->loc)));
      }
      out << fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", code(c.subject), c.policy,
                         outcome_text(c.before, c.node_before), outcome_text(c.after, c.node_after),
                         fmt::join(added, " "), fmt::join(removed, " "), fmt::join(causes, "<br>"));
    }
  }
  if (!diff.edges.empty()) {
    out << "\n**Who may preempt whom**\n\n| policy | preemptor | victim | base | head |\n"
           "|---|---|---|---|---|\n";
    for (const EdgeChange& e : diff.edges) {
      out << fmt::format("| {} | {} | {} | {} | {} |\n", e.policy, code(e.preemptor),
                         code(e.victim), e.before, e.after);
    }
  }
  if (!diff.new_findings.empty()) {
    out << "\n**New lint findings**\n\n";
    for (const LintChange& f : diff.new_findings) {
      out << fmt::format("- {} {} {}: {}\n", code(where(f.loc)), f.rule, code(f.object),
                         code(f.message));
    }
  }
}

// GitHub workflow commands: one annotation per changed decision, on the head line of each
// configuration object that explains it, else on the file of the first change.
void annotate(std::string_view level, const SourceLoc& loc, const std::string& title,
              const std::string& message, std::ostream& out) {
  std::string props;
  if (!loc.file.empty()) {
    props = " file=" + github_escape(loc.file, true);
    if (loc.line != 0) {
      props += fmt::format(",line={}", loc.line);
    }
    props += ",";
  } else {
    props = " ";
  }
  out << fmt::format("::{}{}title={}::{}\n", level, props, github_escape(title, true),
                     github_escape(message, false));
}

void render_github(const Diff& diff, std::ostream& out) {
  for (const DecisionChange& c : diff.decisions) {
    std::string message =
        fmt::format("{} under {}: {} -> {}", c.subject, c.policy,
                    outcome_text(c.before, c.node_before), outcome_text(c.after, c.node_after));
    if (!c.victims_added.empty()) {
      message += fmt::format("; victims added: {}", fmt::join(c.victims_added, ", "));
    }
    if (!c.victims_removed.empty()) {
      message += fmt::format("; victims removed: {}", fmt::join(c.victims_removed, ", "));
    }
    if (c.causes.empty()) {
      annotate("warning", SourceLoc{}, "preemption changes", message, out);
    }
    for (const ConfigChange* cc : c.causes) {
      annotate("warning", cc->loc, "preemption changes: " + cc->object, message, out);
    }
  }
  for (const LintChange& f : diff.new_findings) {
    annotate(f.level == "error" ? "error" : "warning", f.loc, f.rule + " " + f.object, f.message,
             out);
  }
  out << diff_summary(diff) << "\n";
}

// SARIF for code scanning: a result per changed decision at each configuration object that
// explains it (or at the first changed object), per changed matrix cell, per new finding.
Json sarif_location(const SourceLoc& loc) {
  Json physical = {{"artifactLocation", {{"uri", sarif_uri(loc.file)}}}};
  if (loc.line > 0) {
    physical["region"] = {{"startLine", loc.line}};
  }
  return {{"physicalLocation", std::move(physical)}};
}

Json sarif_result(std::string_view rule, std::string_view level, const std::string& message,
                  const std::vector<SourceLoc>& locs) {
  Json locations = Json::array();
  for (const SourceLoc& loc : locs) {
    if (!loc.file.empty()) {
      locations.push_back(sarif_location(loc));
    }
  }
  return {{"ruleId", rule},
          {"level", level},
          {"message", {{"text", message}}},
          {"locations", std::move(locations)}};
}

void render_sarif(const Diff& diff, std::ostream& out) {
  const SourceLoc fallback = diff.config.empty() ? SourceLoc{} : diff.config.front().loc;
  Json results = Json::array();
  for (const DecisionChange& c : diff.decisions) {
    std::vector<SourceLoc> locs;
    for (const ConfigChange* cc : c.causes) {
      locs.push_back(cc->loc);
    }
    if (locs.empty()) {
      locs.push_back(fallback);
    }
    results.push_back(sarif_result(
        "preemption-decision", "warning",
        fmt::format("{} under {}: {} -> {}; victims added: [{}]; victims removed: [{}]", c.subject,
                    c.policy, outcome_text(c.before, c.node_before),
                    outcome_text(c.after, c.node_after), fmt::join(c.victims_added, ", "),
                    fmt::join(c.victims_removed, ", ")),
        locs));
  }
  for (const EdgeChange& e : diff.edges) {
    results.push_back(sarif_result(
        "preemption-edge", "note",
        fmt::format("{}: {} -> {}: {} -> {}", e.policy, e.preemptor, e.victim, e.before, e.after),
        {fallback}));
  }
  for (const LintChange& f : diff.new_findings) {
    results.push_back(sarif_result(f.rule, f.level == "info" ? "note" : f.level,
                                   f.object + ": " + f.message, {f.loc}));
  }
  Json rules = Json::array();
  rules.push_back({{"id", "preemption-decision"},
                   {"shortDescription", {{"text", "A pending preemptor's decision changes"}}}});
  rules.push_back({{"id", "preemption-edge"},
                   {"shortDescription", {{"text", "Who may preempt whom changes"}}}});
  Json driver = {{"name", "kpreempt diff"}, {"rules", std::move(rules)}};
  Json run = {{"tool", {{"driver", std::move(driver)}}},
              {"results", std::move(results)},
              {"properties", {{"summary", diff_summary(diff)}}}};
  Json doc = {{"$schema", k_sarif_schema}, {"version", "2.1.0"}, {"runs", Json::array({run})}};
  out << doc.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::string_view to_string(ConfigChangeKind k) {
  switch (k) {
    case ConfigChangeKind::added:
      return "added";
    case ConfigChangeKind::removed:
      return "removed";
    case ConfigChangeKind::changed:
      break;
  }
  return "changed";
}

std::optional<DiffFormat> parse_diff_format(std::string_view name) {
  static constexpr std::pair<std::string_view, DiffFormat> k_formats[] = {
      {"text", DiffFormat::text},     {"json", DiffFormat::json},
      {"yaml", DiffFormat::yaml},     {"markdown", DiffFormat::markdown},
      {"github", DiffFormat::github}, {"sarif", DiffFormat::sarif},
      {"html", DiffFormat::html}};
  for (const auto& [n, f] : k_formats) {
    if (n == name) {
      return f;
    }
  }
  return std::nullopt;
}

std::string diff_summary(const Diff& diff) {
  std::string config = diff.config.empty()
                           ? "no configuration object changed"
                           : plural(diff.config.size(), "configuration object changed",
                                    "configuration objects changed");
  std::string more;
  if (!diff.edges.empty()) {
    more += ", " + plural(diff.edges.size(), "preemption edge changed", "preemption edges changed");
  }
  if (!diff.new_findings.empty()) {
    more += ", " + plural(diff.new_findings.size(), "new lint finding", "new lint findings");
  }
  if (diff.decisions.empty()) {
    return fmt::format("no decision changes for {}; {}{}",
                       plural(diff.subjects, "preemptor", "preemptors"), config, more);
  }
  return fmt::format("{} among {} (outcome or node {}, victims added {}, removed {}); {}{}",
                     plural(diff.decisions.size(), "decision changes", "decisions change"),
                     plural(diff.subjects, "preemptor", "preemptors"), diff.outcome_changes(),
                     diff.victims_added(), diff.victims_removed(), config, more);
}

void render_diff(DiffFormat format, const Diff& diff, std::ostream& out) {
  switch (format) {
    case DiffFormat::text:
      render_text(diff, out);
      break;
    case DiffFormat::json:
      print_structured(diff_json(diff), false, out);
      break;
    case DiffFormat::yaml:
      print_structured(diff_json(diff), true, out);
      break;
    case DiffFormat::markdown:
      render_markdown(diff, out);
      break;
    case DiffFormat::sarif:
      render_sarif(diff, out);
      break;
    case DiffFormat::github:
      render_github(diff, out);
      break;
    case DiffFormat::html:
      render_diff_html(diff, out);
      break;
  }
}

}  // namespace kpreempt::render
