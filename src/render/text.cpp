// SPDX-License-Identifier: Apache-2.0
// The text renderer: what a person reads to act within seconds. Outcome first, then the
// victims, then why the other nodes were not chosen; `wide` adds every pod's verdict.
#include "render/compare.h"
#include "render/structured.h"
#include "render/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <ostream>
#include <set>

namespace kpreempt::render {
namespace {

// Nodes listed one per line in text mode before the rest are summarised by reason.
constexpr std::size_t k_max_listed_nodes = 10;

struct Paint {
  bool on;
  std::string operator()(std::string_view text, std::string_view code) const {
    if (!on) {
      return std::string(text);
    }
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
  }
  std::string bold(std::string_view t) const { return (*this)(t, "1"); }
  std::string outcome(policy::Outcome o) const {
    const char* code = o == policy::Outcome::fits      ? "32"
                       : o == policy::Outcome::preempt ? "33"
                                                       : "31";
    return (*this)(policy::to_string(o), code);
  }
};

std::string resources_text(const model::Resources& r) {
  std::vector<std::string> parts;
  if (r.cpu_milli != 0) {
    parts.push_back("cpu " + model::to_string(model::Quantity::from_milli(r.cpu_milli)));
  }
  if (r.memory != 0) {
    parts.push_back("memory " + model::to_string(model::Quantity::from_units(r.memory), true));
  }
  for (const auto& [name, v] : r.scalar) {
    parts.push_back(name + " " + model::to_string(model::Quantity::from_units(v)));
  }
  return parts.empty() ? "nothing" : fmt::format("{}", fmt::join(parts, ", "));
}

std::string pod_name(const model::ObjectRef& r) {
  return r.kind == "Pod" ? r.namespace_ + "/" + r.name : model::to_string(r);
}

void print_header(const model::Snapshot& snap, const Explanation& e, const Paint& paint,
                  std::ostream& out) {
  if (e.preemptor == model::k_none) {
    const model::Workload& w = snap.kueue().workloads[e.workload];
    out << paint.bold(fmt::format("Workload {}/{}", w.namespace_, w.name)) << "  priority "
        << w.priority << '\n';
    return;
  }
  model::PodId id = e.preemptor;
  const model::Pod& pod = snap.pods()[id];
  const model::PodFacts& facts = snap.facts(id);
  std::string klass =
      pod.priority_class_name.empty() ? "" : fmt::format(" ({})", pod.priority_class_name);
  out << paint.bold(fmt::format("Pod {}/{}", pod.namespace_, pod.name)) << "  priority "
      << facts.priority << klass << "  requests " << resources_text(facts.requests) << '\n';
}

void print_victims(const policy::Decision& d, std::ostream& out) {
  if (d.victims.empty()) {
    return;
  }
  bool queues = std::any_of(d.victims.begin(), d.victims.end(),
                            [](const policy::Victim& v) { return !v.queue.empty(); });
  out << "  victims\n";
  std::vector<std::string> header = {"VICTIM", "NODE", "PRIORITY", "REASON"};
  if (queues) {
    header.insert(header.begin() + 2, "QUEUE");
  }
  Table t(header);
  for (const auto& v : d.victims) {
    std::vector<std::string> row = {pod_name(v.ref), v.node.empty() ? "-" : v.node,
                                    std::to_string(v.priority), reason_text(v.reason)};
    if (queues) {
      row.insert(row.begin() + 2, v.queue.empty() ? "-" : v.queue);
    }
    t.add(std::move(row));
  }
  t.print(out, 4);
}

void print_tables(const policy::Decision& d, std::ostream& out) {
  for (const auto& pt : d.tables) {
    out << "  " << pt.title << '\n';
    Table t(pt.columns);
    for (const auto& row : pt.rows) {
      t.add(row);
    }
    t.print(out, 4);
  }
}

// Candidates and the first few nodes one per line; the rest grouped by reason code.
void print_nodes(const policy::Decision& d, bool wide, std::ostream& out) {
  std::vector<const policy::NodeVerdict*> listed;
  std::map<std::string, std::vector<const policy::NodeVerdict*>> grouped;
  for (const auto& n : d.nodes) {
    if (n.node == d.node && d.outcome == policy::Outcome::preempt) {
      continue;
    }
    bool is_candidate = n.rank.has_value();
    if (wide || is_candidate || d.nodes.size() <= k_max_listed_nodes) {
      listed.push_back(&n);
    } else {
      grouped[reason_text(n.code)].push_back(&n);
    }
  }
  if (listed.empty() && grouped.empty()) {
    return;
  }
  const std::string_view unit_name = policy::name(d.verdict_unit);
  if (d.verdict_unit == policy::VerdictUnit::node) {
    out << (d.outcome == policy::Outcome::preempt ? "  why not the other nodes\n" : "  nodes\n");
  } else {
    out << "  candidates by " << unit_name << '\n';
  }
  std::string unit(unit_name);
  std::transform(unit.begin(), unit.end(), unit.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  Table t({unit, "RESULT", "DETAIL"});
  for (const auto* n : listed) {
    t.add({n->node, reason_text(n->code), n->detail});
  }
  for (const auto& [code, nodes] : grouped) {
    std::string label = fmt::format("{} nodes", nodes.size());
    std::string example = fmt::format("e.g. {}: {}", nodes.front()->node, nodes.front()->detail);
    t.add({label, code, example});
  }
  t.print(out, 4);
}

void print_pod_verdicts(const policy::Decision& d, std::ostream& out) {
  out << "  pods considered\n";
  Table t({d.verdict_unit == policy::VerdictUnit::node ? "NODE" : "QUEUE", "POD", "PRIORITY",
           "VERDICT", "DETAIL"});
  for (const auto& n : d.nodes) {
    for (const auto& p : n.pods) {
      t.add({n.node, pod_name(p.pod), std::to_string(p.priority), reason_text(p.code), p.detail});
    }
  }
  if (!t.empty()) {
    t.print(out, 4);
  }
}

void print_decision(const policy::Decision& d, bool wide, const Paint& paint, std::ostream& out) {
  std::string upstream;
  if (const policy::Entry* e = policy::find(d.policy)) {
    const policy::LineInfo& line =
        e->nearest(policy::parse_release_line(d.line).value_or(policy::ReleaseLine{}));
    std::vector<std::string> gates;
    for (const auto& [name, value] : d.feature_gates) {
      gates.push_back(fmt::format("{}={}", name, value));
    }
    upstream = fmt::format(" ({}{}{})", line.upstream, gates.empty() ? "" : "; featureGates ",
                           fmt::join(gates, ","));
  }
  out << '\n' << paint.bold(d.policy) << upstream << '\n';
  if (!d.line_from.empty()) {  // the newest line, the default, goes without saying
    out << "  upstream  " << d.line << " from " << d.line_from << '\n';
  }
  std::string where = d.node.empty() ? "" : " on " + d.node;
  out << "  outcome   " << paint.outcome(d.outcome) << where << '\n';
  if (!d.summary.empty()) {
    out << "  why       " << d.summary << '\n';
  }
  if (!d.tied_nodes.empty()) {
    out << "  tie       " << fmt::format("{}", fmt::join(d.tied_nodes, ", "))
        << " are equal on every criterion; upstream picks any of them\n";
  }
  print_victims(d, out);
  print_tables(d, out);
  print_nodes(d, wide, out);
  if (wide) {
    print_pod_verdicts(d, out);
  }
}

}  // namespace

void render_text(const model::Snapshot& snap, const std::vector<Explanation>& all, bool wide,
                 const Style& style, std::ostream& out) {
  Paint paint{style.color};
  bool first = true;
  for (const auto& e : all) {
    if (!first) {
      out << '\n';
    }
    first = false;
    print_header(snap, e, paint, out);
    for (const auto& d : e.decisions) {
      print_decision(d, wide, paint, out);
    }
    if (e.decisions.size() > 1) {
      print_comparison(e.decisions, paint.on, out);
    }
  }
}

}  // namespace kpreempt::render
