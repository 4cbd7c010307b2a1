// SPDX-License-Identifier: Apache-2.0
// `-o html` for cascade and diff: a timeline of rounds, and base and head side by side.
#include "render/html_page.h"

#include "kpreempt/render/html.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace kpreempt::render {
namespace {

std::string joined(const std::vector<std::string>& names) {
  return names.empty() ? "-" : fmt::format("{}", fmt::join(names, ", "));
}

constexpr int k_chart_height = 160;

// Per round two bars, admitted and evicted, on one scale, with the pending count under them.
void timeline(std::ostream& out, const Cascade& c) {
  std::size_t top = 1;
  for (const CascadeRound& r : c.rounds) {
    top = std::max({top, r.admitted, r.evicted});
  }
  const int step = c.rounds.size() > 30 ? 24 : 56;
  const int bar = step / 2 - 4;
  const int width = 50 + static_cast<int>(c.rounds.size()) * step;
  out << "<p class=\"legend\"><span><i style=\"background:#1a7f37\"></i>admitted</span>"
         "<span><i style=\"background:#e5534b\"></i>evicted</span><span>under each round: "
         "pending after it</span></p>\n";
  out << html::svg_open(width, k_chart_height + 44, "rounds");
  const double unit = static_cast<double>(k_chart_height - 10) / static_cast<double>(top);
  out << fmt::format("<text x=\"0\" y=\"{}\" class=\"small\">round</text>", k_chart_height + 16)
      << fmt::format("<text x=\"0\" y=\"{}\" class=\"small\">pending</text>", k_chart_height + 32);
  out << fmt::format("<text x=\"20\" y=\"12\" class=\"small\">{}</text>", top)
      << fmt::format("<line x1=\"44\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#8c959f\"/>", width,
                     k_chart_height, k_chart_height);
  int x = 50;
  for (const CascadeRound& r : c.rounds) {
    const auto draw = [&](std::size_t n, int dx, const char* cls, const char* what) {
      const double h = static_cast<double>(n) * unit;
      out << fmt::format(
          "<rect x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{:.1f}\" class=\"{}\"><title>round "
          "{}: {} {}</title></rect>",
          x + dx, k_chart_height - h, bar, h, cls, r.round, n, what);
    };
    draw(r.admitted, 0, "admitted", "admitted");
    draw(r.evicted, bar + 2, "evicted", "evicted");
    out << fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", x, k_chart_height + 16, r.round)
        << fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\">{}</text>\n", x,
                       k_chart_height + 32, r.pending);
    x += step;
  }
  out << "</svg>\n";
}

void round_section(std::ostream& out, const CascadeRound& r) {
  out << fmt::format(
      "<h3>Round {}</h3>\n<p>{} admitted, {} evicted, {} recreated, {} pending</p>\n", r.round,
      r.admitted, r.evicted, r.recreated.size(), r.pending);
  std::vector<std::vector<std::string>> rows;
  for (const CascadeDecision& d : r.decisions) {
    rows.push_back({d.preemptor, d.policy, std::string(policy::to_string(d.outcome)),
                    d.node.empty() ? "-" : d.node, joined(d.victims),
                    d.because.empty() ? "-" : d.because});
  }
  if (!rows.empty()) {
    html::table(out, {"preemptor", "policy", "outcome", "node", "evicts", "because"}, rows);
  }
  if (!r.recreated.empty()) {
    out << "<p>recreated: " << html::esc(joined(r.recreated)) << "</p>\n";
  }
  if (!r.gone.empty()) {
    out << "<p>gone: " << html::esc(joined(r.gone)) << "</p>\n";
  }
}

std::string side(const std::optional<policy::Outcome>& o, const std::string& node) {
  if (!o) {
    return "<span class=\"note\">not applied</span>";
  }
  return html::outcome_badge(policy::to_string(*o)) +
         (node.empty() ? "" : " on " + html::esc(node));
}

std::string names_cell(const std::vector<std::string>& names, const char* cls) {
  if (names.empty()) {
    return "<td>-</td>";
  }
  return fmt::format("<td class=\"{}\">{}</td>", cls, html::esc(joined(names)));
}

void decision_rows(std::ostream& out, const Diff& diff) {
  out << "<h2>Decisions that change</h2>\n<table class=\"diff\">\n<tr><th>preemptor</th>"
         "<th>policy</th><th>base</th><th>head</th><th>victims no longer evicted</th>"
         "<th>victims now evicted</th><th>why</th><th>changed configuration</th></tr>\n";
  for (const DecisionChange& c : diff.decisions) {
    const bool moved = c.before != c.after || c.node_before != c.node_after;
    const char* cls = moved ? " class=\"changed\"" : "";
    std::vector<std::string> causes;
    for (const ConfigChange* cc : c.causes) {
      causes.push_back(cc->loc.line == 0
                           ? fmt::format("{} ({})", cc->object, cc->loc.file)
                           : fmt::format("{} ({}:{})", cc->object, cc->loc.file, cc->loc.line));
    }
    out << "<tr><td>" << html::esc(c.subject) << "</td><td>" << html::esc(c.policy) << "</td><td"
        << cls << ">" << side(c.before, c.node_before) << "</td><td" << cls << ">"
        << side(c.after, c.node_after) << "</td>" << names_cell(c.victims_removed, "removed")
        << names_cell(c.victims_added, "added") << "<td>" << html::esc(c.why) << "</td><td>"
        << html::esc(joined(causes)) << "</td></tr>\n";
  }
  out << "</table>\n";
}

}  // namespace

void render_cascade_html(const Cascade& c, std::ostream& out) {
  html::begin_page(out, "kpreempt cascade");
  out << "<h1>Cascade</h1>\n";
  out << "<p>"
      << html::esc(
             fmt::format("{} round{}, {} admitted, {} evictions ({} pods evicted more than once), "
                         "amplification {:.2f}; ",
                         c.rounds.size(), c.rounds.size() == 1 ? "" : "s", c.admitted, c.evictions,
                         c.evicted_more_than_once, c.amplification()))
      << (c.settled ? "<b>settled</b>"
          : c.loop  ? "<b class=\"warn\">loops</b>"
                    : "<b class=\"warn\">not settled within the rounds</b>")
      << "</p>\n";
  timeline(out, c);
  if (c.loop) {
    out << fmt::format("<h2>Loop: the state after round {} repeats after round {}</h2>\n",
                       c.loop_from, c.rounds.size());
    std::vector<std::vector<std::string>> rows;
    for (const CascadeDecision& d : *c.loop) {
      rows.push_back({d.preemptor, joined(d.victims), d.because});
    }
    html::table(out, {"preemptor", "evicts", "because"}, rows);
  }
  out << "<h2>Rounds</h2>\n";
  for (const CascadeRound& r : c.rounds) {
    round_section(out, r);
  }
  if (!c.not_modelled.empty()) {
    out << "<h2>Not modelled</h2>\n<ul>\n";
    for (const std::string& n : c.not_modelled) {
      out << "<li>" << html::esc(n) << "</li>\n";
    }
    out << "</ul>\n";
  }
  html::end_page(out);
}

void render_diff_html(const Diff& diff, std::ostream& out) {
  html::begin_page(out, "kpreempt diff");
  out << "<h1>What the change does to preemption</h1>\n<p>" << html::esc(diff_summary(diff))
      << "</p>\n";
  for (const std::string& n : diff.notes) {
    out << "<p class=\"note\">note: " << html::esc(n) << "</p>\n";
  }
  if (!diff.decisions.empty()) {
    decision_rows(out, diff);
  }
  if (!diff.edges.empty()) {
    out << "<h2>Who may preempt whom</h2>\n";
    std::vector<std::vector<std::string>> rows;
    for (const EdgeChange& e : diff.edges) {
      rows.push_back(
          {std::string(html::k_changed_row) + e.policy, e.preemptor, e.victim, e.before, e.after});
    }
    html::table(out, {"policy", "preemptor", "victim", "base", "head"}, rows);
  }
  if (!diff.config.empty()) {
    out << "<h2>Configuration changes</h2>\n";
    std::vector<std::vector<std::string>> rows;
    for (const ConfigChange& cc : diff.config) {
      rows.push_back(
          {cc.object, std::string(to_string(cc.kind)),
           cc.loc.line == 0 ? cc.loc.file.str() : fmt::format("{}:{}", cc.loc.file, cc.loc.line)});
    }
    html::table(out, {"object", "change", "where"}, rows);
  }
  if (!diff.new_findings.empty()) {
    out << "<h2>New lint findings</h2>\n";
    std::vector<std::vector<std::string>> rows;
    for (const LintChange& f : diff.new_findings) {
      rows.push_back({f.rule, f.level, f.object, f.message});
    }
    html::table(out, {"rule", "level", "object", "message"}, rows);
  }
  html::end_page(out);
}

}  // namespace kpreempt::render
