// SPDX-License-Identifier: Apache-2.0
// The text renderer: what a person reads to act within seconds. Outcome first, then the
// victims, then why the other nodes were not chosen; `wide` adds every pod's verdict.
#include "render/compare.h"
#include "render/structured.h"
#include "render/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <ostream>

namespace kpreempt::render {
namespace {

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

void print_victims(const policy::Decision& d, std::size_t width, std::ostream& out) {
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
  t.print(out, 4, width);
}

void print_tables(const policy::Decision& d, std::size_t width, std::ostream& out) {
  for (const auto& pt : d.tables) {
    out << "  " << pt.title << '\n';
    Table t(pt.columns);
    for (const auto& row : pt.rows) {
      t.add(row);
    }
    t.print(out, 4, width);
  }
}

// Nodes alike for a reader: the same code. The group's first node stands for them all.
struct NodeGroup {
  std::string code;
  std::vector<const policy::NodeVerdict*> nodes;
};

// Up to this many nodes of one code are listed each on its own line: a line per node costs
// little then, and their details (which differ in counts) stay visible.
constexpr std::size_t k_listed_alike = 3;

// Splits the groups of few nodes into one group per node, in place and in order.
void list_small_groups(std::vector<NodeGroup>& groups) {
  std::vector<NodeGroup> out;
  for (NodeGroup& g : groups) {
    if (g.nodes.size() > k_listed_alike) {
      out.push_back(std::move(g));
      continue;
    }
    for (const policy::NodeVerdict* n : g.nodes) {
      out.push_back({g.code, {n}});
    }
  }
  groups = std::move(out);
}

// Every node but the chosen one, grouped by code unless `wide` (a code of a few nodes listed
// node by node): candidates first (they came closest), then in name order of each group's
// first node. ClusterQueues are few and each counts its own victims: they are never grouped.
std::vector<NodeGroup> node_groups(const policy::Decision& d, bool wide) {
  const bool each = wide || d.verdict_unit != policy::VerdictUnit::node;
  std::vector<NodeGroup> groups;
  for (const auto& n : d.nodes) {
    if (n.node == d.node && d.outcome == policy::Outcome::preempt) {
      continue;
    }
    std::string code = reason_text(n.code);
    auto same = std::find_if(groups.begin(), groups.end(),
                             [&](const NodeGroup& g) { return g.code == code; });
    if (each || same == groups.end()) {
      groups.push_back({std::move(code), {&n}});
    } else {
      same->nodes.push_back(&n);
    }
  }
  std::stable_partition(groups.begin(), groups.end(),
                        [](const NodeGroup& g) { return g.nodes.front()->rank.has_value(); });
  list_small_groups(groups);
  return groups;
}

// One line per node in `wide`; otherwise alike nodes share a line: "480 nodes like gpu-3".
void print_nodes(const policy::Decision& d, bool wide, std::size_t width, std::ostream& out) {
  const std::vector<NodeGroup> groups = node_groups(d, wide);
  if (groups.empty()) {
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
  for (const NodeGroup& g : groups) {
    const policy::NodeVerdict& first = *g.nodes.front();
    const std::string label = g.nodes.size() == 1
                                  ? first.node
                                  : fmt::format("{} nodes like {}", g.nodes.size(), first.node);
    t.add({label, g.code, first.detail});
  }
  t.print(out, 4, width);
}

void print_pod_verdicts(const policy::Decision& d, std::size_t width, std::ostream& out) {
  out << "  pods considered\n";
  Table t({d.verdict_unit == policy::VerdictUnit::node ? "NODE" : "QUEUE", "POD", "PRIORITY",
           "VERDICT", "DETAIL"});
  for (const auto& n : d.nodes) {
    for (const auto& p : n.pods) {
      t.add({n.node, pod_name(p.pod), std::to_string(p.priority), reason_text(p.code), p.detail});
    }
  }
  if (!t.empty()) {
    t.print(out, 4, width);
  }
}

// "a, b, c and 97 other nodes are equal...": all of them in `wide` or when they are few.
std::string tie_text(const std::vector<std::string>& tied, bool wide) {
  constexpr std::size_t k_named = 3;
  std::string names = fmt::format("{}", fmt::join(tied, ", "));
  if (!wide && tied.size() > k_named + 1) {
    names =
        fmt::format("{} and {} other nodes", fmt::join(tied.begin(), tied.begin() + k_named, ", "),
                    tied.size() - k_named);
  }
  return names + " are equal on every criterion; upstream picks any of them";
}

// "  why       TEXT": a labelled line of a policy's block, wrapped under its text.
void print_field(std::string_view label, const std::string& text, std::size_t width,
                 std::ostream& out) {
  const std::string head = fmt::format("  {:<10}", label);
  const std::size_t room = width > head.size() + 24 ? width - head.size() : 0;
  const std::vector<std::string> lines =
      room == 0 ? std::vector<std::string>{text} : wrap(text, room);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out << (i == 0 ? head : std::string(head.size(), ' ')) << lines[i] << '\n';
  }
}

void print_decision(const policy::Decision& d, bool wide, const Paint& paint, std::size_t width,
                    std::ostream& out) {
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
    print_field("upstream", d.line + " from " + d.line_from, width, out);
  }
  std::string where = d.node.empty() ? "" : " on " + d.node;
  out << "  outcome   " << paint.outcome(d.outcome) << where << '\n';
  if (!d.summary.empty()) {
    print_field("why", d.summary, width, out);
  }
  if (!d.tied_nodes.empty()) {
    print_field("tie", tie_text(d.tied_nodes, wide), width, out);
  }
  for (const std::string& note : decision_notes(d)) {
    print_field("note", note, width, out);
  }
  print_victims(d, width, out);
  print_tables(d, width, out);
  print_nodes(d, wide, width, out);
  if (wide) {
    print_pod_verdicts(d, width, out);
  }
}

}  // namespace

const char* const k_sample_note =
    "the real scheduler dry-runs only a sample of the nodes, from a random offset, so it may "
    "choose another node (kpreempt tries them all)";

// Ties have a line of their own; the rest is no reason code a reader would look for.
std::vector<std::string> decision_notes(const policy::Decision& d) {
  std::vector<std::string> notes;
  for (const policy::Reason& r : d.reasons) {
    if (r.code == policy::Code::upstream_window) {
      notes.emplace_back(k_sample_note);
    }
  }
  notes.insert(notes.end(), d.warnings.begin(), d.warnings.end());
  return notes;
}

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
      print_decision(d, wide, paint, style.width, out);
    }
    if (e.decisions.size() > 1) {
      print_comparison(e.decisions, paint.on, out);
    }
  }
}

}  // namespace kpreempt::render
