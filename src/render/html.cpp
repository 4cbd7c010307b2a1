// SPDX-License-Identifier: Apache-2.0
// `-o html` for explain: the same render data as the text and JSON renderers (decisions, their
// typed reasons and details, the snapshot), drawn as one self-contained page.
#include "kpreempt/render/html.h"

#include "render/compare.h"
#include "render/html_page.h"
#include "render/html_parts.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>

namespace kpreempt::render {
namespace {

// Nodes drawn one by one in a full picture and in the small one of --all-pending.
constexpr std::size_t k_columns = 7;
constexpr std::size_t k_small_columns = 4;

std::string ref_name(const model::ObjectRef& r) {
  return r.kind == "Pod" ? r.namespace_ + "/" + r.name : model::to_string(r);
}

std::string resources_text(const model::Resources& r) {
  std::vector<std::string> parts;
  if (r.cpu_milli != 0) {
    parts.push_back("cpu " + html::amount_text("cpu", r.cpu_milli));
  }
  if (r.memory != 0) {
    parts.push_back("memory " + html::amount_text("memory", r.memory));
  }
  for (const auto& [name, v] : r.scalar) {
    parts.push_back(name + " " + html::amount_text(name, v));
  }
  return parts.empty() ? "nothing" : fmt::format("{}", fmt::join(parts, ", "));
}

html::Preemptor preemptor_of(const model::Snapshot& snap, const Explanation& e) {
  if (e.preemptor == model::k_none) {
    return {preemptor_name(snap, e.preemptor, e.workload),
            snap.kueue().workloads[e.workload].priority, nullptr};
  }
  const model::PodFacts& f = snap.facts(e.preemptor);
  return {preemptor_name(snap, e.preemptor, e.workload), f.priority, &f.requests};
}

// "priority 50000 (training-critical) · requests cpu 32, memory 400Gi".
std::string preemptor_line(const model::Snapshot& snap, const Explanation& e) {
  if (e.preemptor == model::k_none) {
    return fmt::format("priority {}", snap.kueue().workloads[e.workload].priority);
  }
  const model::Pod& pod = snap.pods()[e.preemptor];
  const model::PodFacts& f = snap.facts(e.preemptor);
  return fmt::format("priority {}{} \u00b7 requests {}{}", f.priority,
                     pod.priority_class_name.empty() ? "" : " (" + pod.priority_class_name + ")",
                     resources_text(f.requests),
                     f.preempt_never ? " \u00b7 preemptionPolicy Never" : "");
}

std::string upstream_of(const policy::Decision& d) {
  const policy::Entry* e = policy::find(d.policy);
  if (e == nullptr) {
    return {};
  }
  const policy::LineInfo& line =
      e->nearest(policy::parse_release_line(d.line).value_or(policy::ReleaseLine{}));
  std::string text(line.upstream);
  for (const auto& [name, value] : d.feature_gates) {
    text += fmt::format("; {}={}", name, value);
  }
  if (!d.line_from.empty()) {
    text += fmt::format("; {} from {}", d.line, d.line_from);
  }
  return text;
}

void victims_table(std::ostream& out, const policy::Decision& d) {
  if (d.victims.empty()) {
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (const policy::Victim& v : d.victims) {
    rows.push_back({ref_name(v.ref), v.node.empty() ? "-" : v.node, v.queue.empty() ? "-" : v.queue,
                    std::to_string(v.priority), reason_text(v.reason)});
  }
  out << "<h4>Victims, in the order upstream evicts them</h4>\n";
  html::table(out, {"victim", "node", "queue", "priority", "reason"}, rows, "victims");
}

// Candidates one per row, the other nodes grouped by code, as the text output has them.
void nodes_table(std::ostream& out, const policy::Decision& d) {
  std::vector<std::vector<std::string>> rows;
  std::map<std::string, std::vector<const policy::NodeVerdict*>> grouped;
  for (const policy::NodeVerdict& n : d.nodes) {
    if (n.node == d.node && d.outcome == policy::Outcome::preempt) {
      continue;
    }
    if (n.rank || d.nodes.size() <= k_columns) {
      rows.push_back({n.node, reason_text(n.code), n.detail});
    } else {
      grouped[reason_text(n.code)].push_back(&n);
    }
  }
  for (const auto& [code, nodes] : grouped) {
    rows.push_back({fmt::format("{} nodes", nodes.size()), code,
                    fmt::format("e.g. {}: {}", nodes.front()->node, nodes.front()->detail)});
  }
  if (rows.empty()) {
    return;
  }
  const bool by_node = d.verdict_unit == policy::VerdictUnit::node;
  out << "<h4>" << (by_node ? "Why not the other nodes" : "Candidates by ClusterQueue")
      << "</h4>\n";
  html::table(out, {by_node ? "node" : "ClusterQueue", "result", "detail"}, rows);
}

void policy_tables(std::ostream& out, const policy::Decision& d) {
  for (const policy::Table& t : d.tables) {
    out << "<h4>" << html::esc(t.title) << "</h4>\n";
    html::table(out, t.columns, t.rows);
  }
}

void decision_section(std::ostream& out, const model::Snapshot& snap, const Explanation& e,
                      const policy::Decision& d, bool small) {
  const char* h = small ? "h4" : "h3";
  out << "<section class=\"decision\">\n"
      << fmt::format("<{0}>{1} <span class=\"upstream\">{2}</span></{0}>\n", h, html::esc(d.policy),
                     html::esc(upstream_of(d)));
  out << "<p>" << html::outcome_badge(policy::to_string(d.outcome))
      << (d.node.empty() ? "" : " on <b>" + html::esc(d.node) + "</b>");
  if (!d.reasons.empty()) {
    std::vector<std::string> reasons;
    for (const policy::Reason& r : d.reasons) {
      reasons.push_back(reason_text(r));
    }
    out << " <span class=\"note\">(" << html::esc(fmt::format("{}", fmt::join(reasons, ", ")))
        << ")</span>";
  }
  out << "</p>\n";
  if (!d.summary.empty()) {
    out << "<p class=\"why\">" << html::esc(d.summary) << "</p>\n";
  }
  if (!d.tied_nodes.empty()) {
    out << "<p class=\"note\">tie: " << html::esc(fmt::format("{}", fmt::join(d.tied_nodes, ", ")))
        << " are equal on every criterion; upstream picks any of them</p>\n";
  }
  for (const std::string& w : d.warnings) {
    out << "<p class=\"warn\">warning: " << html::esc(w) << "</p>\n";
  }
  html::node_picture(out, snap, d, preemptor_of(snap, e), small ? k_small_columns : k_columns);
  html::quota_bars(out, d);
  victims_table(out, d);
  if (!small) {
    policy_tables(out, d);
    nodes_table(out, d);
  }
  out << "</section>\n";
}

void comparison(std::ostream& out, const std::vector<policy::Decision>& decisions) {
  std::vector<std::vector<std::string>> rows;
  for (const policy::Decision& d : decisions) {
    std::vector<std::string> names;
    for (const policy::Victim& v : d.victims) {
      names.push_back(ref_name(v.ref));
    }
    rows.push_back({d.policy, std::string(policy::to_string(d.outcome)),
                    d.node.empty() ? "-" : d.node,
                    names.empty() ? "-" : fmt::format("{}", fmt::join(names, ", "))});
  }
  out << "<h3>Comparison</h3>\n";
  html::table(out, {"policy", "outcome", "node", "victims"}, rows);
  bool any = false;
  for (std::size_t i = 1; i < decisions.size(); ++i) {
    for (const std::string& line : differences(decisions.front(), decisions[i])) {
      out << "<p>" << html::esc(line) << "</p>\n";
      any = true;
    }
  }
  if (!any) {
    out << "<p>all policies agree</p>\n";
  }
}

void explanation(std::ostream& out, const model::Snapshot& snap, const Explanation& e, bool small) {
  const std::string name = preemptor_name(snap, e.preemptor, e.workload);
  const std::string kind = e.preemptor == model::k_none ? "" : "Pod ";
  out << (small ? "<h2>" : "<h1>") << html::esc(kind + name) << (small ? "</h2>\n" : "</h1>\n");
  out << "<p class=\"meta\">" << html::esc(preemptor_line(snap, e)) << " \u00b7 decided at "
      << html::esc(model::to_string(e.now)) << "</p>\n";
  for (const policy::Decision& d : e.decisions) {
    decision_section(out, snap, e, d, small);
  }
  if (e.decisions.size() > 1 && !small) {
    comparison(out, e.decisions);
  }
}

std::string victim_names(const policy::Decision& d) {
  std::vector<std::string> names;
  for (const policy::Victim& v : d.victims) {
    names.push_back(ref_name(v.ref));
  }
  return names.empty() ? "-" : fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

void render_html(const model::Snapshot& snap, const std::vector<Explanation>& all,
                 std::ostream& out, std::string_view summary) {
  std::string title = "kpreempt explain";
  if (all.size() == 1) {
    title += " " + preemptor_name(snap, all.front().preemptor, all.front().workload);
  }
  html::begin_page(out, title);
  if (!summary.empty()) {
    out << "<h1>In sequence</h1>\n";
    html::preformatted(out, summary);
  }
  for (const Explanation& e : all) {
    explanation(out, snap, e, false);
  }
  html::end_page(out);
}

void render_batch_html(const model::Snapshot& snap, const std::vector<Explanation>& all,
                       std::string_view totals, std::ostream& out) {
  html::begin_page(out, "kpreempt explain --all-pending");
  out << "<h1>Every pending preemptor</h1>\n";
  std::vector<std::vector<std::string>> rows;
  for (const Explanation& e : all) {
    const std::string name = preemptor_name(snap, e.preemptor, e.workload);
    const std::string priority = std::to_string(preemptor_of(snap, e).priority);
    for (const policy::Decision& d : e.decisions) {
      rows.push_back({name, priority, d.policy, std::string(policy::to_string(d.outcome)),
                      d.node.empty() ? "-" : d.node, std::to_string(d.victims.size()),
                      victim_names(d),
                      d.reasons.empty() ? std::string("-") : reason_text(d.reasons.front())});
    }
  }
  html::table(out,
              {"pod/workload", "priority", "policy", "outcome", "node", "victims", "victim names",
               "reason"},
              rows, "summary");
  html::preformatted(out, totals);
  for (const Explanation& e : all) {
    out << "<section class=\"preemptor\">\n";
    explanation(out, snap, e, true);
    out << "</section>\n";
  }
  html::end_page(out);
}

void render_text_html(std::string_view title, std::string_view text, std::ostream& out) {
  html::begin_page(out, title);
  out << "<h1>" << html::esc(title) << "</h1>\n";
  html::preformatted(out, text);
  html::end_page(out);
}

}  // namespace kpreempt::render
