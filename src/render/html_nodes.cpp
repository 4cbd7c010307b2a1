// SPDX-License-Identifier: Apache-2.0
// Nodes as columns of pods. A cluster of hundreds of nodes is not drawn as hundreds of
// columns: the chosen node and the candidates come one by one, the rest as one box per reason
// they were never candidates.
#include "render/html_page.h"
#include "render/html_parts.h"

#include "kpreempt/render/render.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <vector>

namespace kpreempt::render::html {
namespace {

constexpr int k_column_width = 128;
constexpr int k_pair_gap = 8;  // between the chosen node now and after
constexpr int k_group_width = 180;
constexpr int k_gap = 18;
constexpr int k_stack_height = 240;  // a node's allocatable
constexpr int k_top = 8;
constexpr int k_label_height = 52;
constexpr std::size_t k_max_groups = 3;  // boxes of nodes alike; the smallest are merged

// One column of the picture: a node, or the nodes alike on one code.
struct Column {
  const policy::NodeVerdict* verdict = nullptr;   // null for a node named by victims alone
  std::string node;                               // the node; for a group, the code's text
  std::vector<const policy::NodeVerdict*> group;  // set for a group
  bool chosen = false;
  std::string sentence;  // for a group: what its code means, or the codes of a merged group
  bool merged = false;   // a group of the smallest groups, of several codes
};

// The order candidates are shown in: tied ones, then by the criterion they lost on.
int candidate_order(const policy::NodeVerdict& n) {
  if (n.code.code == policy::Code::tied) {
    return 0;
  }
  if (n.code.code == policy::Code::lost && !n.code.subject.empty()) {
    const auto crits = policy::criteria();
    for (std::size_t i = 0; i < crits.size(); ++i) {
      if (crits[i].name == n.code.subject.front()) {
        return 1 + static_cast<int>(i);
      }
    }
  }
  return 10;
}

// The nodes of `rest` drawn one by one in `room` columns: all when they fit; else candidates,
// first one per verdict (so that each criterion a candidate lost on shows), then the next ones.
std::vector<const policy::NodeVerdict*> shown_one_by_one(
    const std::vector<const policy::NodeVerdict*>& rest, std::size_t room) {
  if (rest.size() <= room) {
    return rest;
  }
  std::vector<const policy::NodeVerdict*> shown;
  std::set<std::string> seen;
  for (const bool first_of_verdict : {true, false}) {
    for (const auto* n : rest) {
      if (shown.size() >= room) {
        break;
      }
      if (!n->rank || std::find(shown.begin(), shown.end(), n) != shown.end() ||
          (first_of_verdict && !seen.insert(reason_text(n->code)).second)) {
        continue;
      }
      shown.push_back(n);
    }
  }
  return shown;
}

std::vector<Column> choose_columns(const policy::Decision& d, std::size_t max_columns) {
  std::vector<Column> cols;
  if (!d.node.empty()) {
    const auto it = std::find_if(d.nodes.begin(), d.nodes.end(),
                                 [&](const policy::NodeVerdict& n) { return n.node == d.node; });
    cols.push_back({it == d.nodes.end() ? nullptr : &*it, d.node, {}, true, {}, false});
  }
  // Nodes that lose victims elsewhere than on the chosen node (a gang across nodes).
  for (const policy::Victim& v : d.victims) {
    if (!v.node.empty() &&
        std::none_of(cols.begin(), cols.end(), [&](const Column& c) { return c.node == v.node; })) {
      const auto it = std::find_if(d.nodes.begin(), d.nodes.end(),
                                   [&](const policy::NodeVerdict& n) { return n.node == v.node; });
      cols.push_back({it == d.nodes.end() ? nullptr : &*it, v.node, {}, false, {}, false});
    }
  }
  std::vector<const policy::NodeVerdict*> rest;
  for (const policy::NodeVerdict& n : d.nodes) {
    if (std::none_of(cols.begin(), cols.end(), [&](const Column& c) { return c.node == n.node; })) {
      rest.push_back(&n);
    }
  }
  // Candidates first, by the criterion they lost on; the others in name order.
  std::stable_sort(rest.begin(), rest.end(), [](const auto* a, const auto* b) {
    return std::pair(!a->rank.has_value(), candidate_order(*a)) <
           std::pair(!b->rank.has_value(), candidate_order(*b));
  });
  const std::vector<const policy::NodeVerdict*> shown =
      shown_one_by_one(rest, max_columns - std::min(max_columns, cols.size()));
  std::map<std::string, std::vector<const policy::NodeVerdict*>> groups;
  for (const auto* n : rest) {
    if (std::find(shown.begin(), shown.end(), n) != shown.end()) {
      cols.push_back({n, n->node, {}, false, {}, false});
    } else {
      groups[reason_text(n->code)].push_back(n);
    }
  }
  std::vector<std::pair<std::string, std::vector<const policy::NodeVerdict*>>> sorted(
      groups.begin(), groups.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    auto& [code, nodes] = sorted[i];
    if (i + 1 < k_max_groups || sorted.size() == k_max_groups) {
      std::string sentence(policy::info(nodes.front()->code.code).sentence);
      cols.push_back({nullptr, code, std::move(nodes), false, std::move(sentence)});
      continue;
    }
    // The smallest groups as one.
    Column rest_group{nullptr, "other verdicts", {}, false, "", true};
    std::vector<std::string> codes;
    for (std::size_t j = i; j < sorted.size(); ++j) {
      codes.push_back(fmt::format("{} ({})", sorted[j].first, sorted[j].second.size()));
      rest_group.group.insert(rest_group.group.end(), sorted[j].second.begin(),
                              sorted[j].second.end());
    }
    rest_group.sentence = fmt::format("{}", fmt::join(codes, ", "));
    cols.push_back(std::move(rest_group));
    break;
  }
  return cols;
}

// A pod's largest request as a share of the node's allocatable, over every resource the node
// offers: what decides whether it fits.
double dominant_share(const model::Resources& req, const model::Resources& alloc) {
  double share = 0;
  const auto take = [&](std::int64_t r, std::int64_t a) {
    if (a > 0 && r > 0) {
      share = std::max(share, static_cast<double>(r) / static_cast<double>(a));
    }
  };
  take(req.cpu_milli, alloc.cpu_milli);
  take(req.memory, alloc.memory);
  take(req.ephemeral_storage, alloc.ephemeral_storage);
  for (const auto& [name, v] : req.scalar) {
    take(v, alloc.get(name));
  }
  return share;
}

const char* band(std::int32_t priority, std::int32_t preemptor, bool victim) {
  if (victim) {
    return "victim";
  }
  if (priority >= model::k_system_cluster_critical) {
    return "system";
  }
  return priority >= preemptor ? "protected" : "lower";
}

// Words broken into lines of at most `width` characters, for SVG text, which does not wrap.
std::vector<std::string> wrap(std::string_view text, std::size_t width, std::size_t max_lines) {
  std::vector<std::string> lines{""};
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    const std::string_view word = text.substr(pos, end - pos);
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) {
      if (lines.size() == max_lines) {
        lines.back() = shorten(lines.back() + " " + std::string(word), width);
        return lines;
      }
      lines.emplace_back();
    }
    lines.back() += (lines.back().empty() ? "" : " ") + shorten(word, width);
    pos = end + 1;
  }
  return lines;
}

struct Stacked {
  model::PodId id;
  double share;
  bool victim;
};

// A node's pods, highest priority first (drawn at the bottom: victims, the lowest, on top).
struct NodePods {
  std::vector<Stacked> pods;
  double total = 0, kept = 0;  // shares of all the pods, and of those that stay
};

NodePods node_pods(const model::Snapshot& snap, const policy::Decision& d, const std::string& name,
                   model::NodeId node, const model::Resources& alloc) {
  std::set<std::pair<std::string, std::string>> victims;
  for (const policy::Victim& v : d.victims) {
    if (v.node == name && v.ref.kind == "Pod") {
      victims.insert({v.ref.namespace_, v.ref.name});
    }
  }
  NodePods out;
  for (const model::PodId id : snap.pods_on(node)) {
    const model::Pod& pod = snap.pods()[id];
    const double share = dominant_share(snap.facts(id).requests, alloc);
    const bool victim = victims.contains({pod.namespace_, pod.name});
    out.pods.push_back({id, share, victim});
    out.total += share;
    out.kept += victim ? 0 : share;
  }
  std::stable_sort(out.pods.begin(), out.pods.end(), [&](const Stacked& a, const Stacked& b) {
    return snap.facts(a.id).priority > snap.facts(b.id).priority;
  });
  return out;
}

// One stack of pods from the bottom of a frame at `x`; `after` leaves the victims out. Returns
// the top of the stack.
double draw_stack(std::ostream& out, const model::Snapshot& snap, const Preemptor& p,
                  const NodePods& np, bool after, int x, double unit) {
  double y = k_top + k_stack_height;
  for (const Stacked& s : np.pods) {
    if (after && s.victim) {
      continue;
    }
    const model::Pod& pod = snap.pods()[s.id];
    const std::int32_t prio = snap.facts(s.id).priority;
    const double h = std::max(2.0, s.share * unit);
    y -= h;
    out << fmt::format(
        "<rect x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{:.1f}\" class=\"{}\" "
        "stroke=\"#fff\"><title>{}/{}  priority {}{}  {:.0f}% of the node</title></rect>",
        x + 1, y, k_column_width - 2, h, band(prio, p.priority, s.victim), esc(pod.namespace_),
        esc(pod.name), prio, s.victim ? "  VICTIM" : "", s.share * 100);
    if (h >= 14) {
      out << fmt::format("<text x=\"{}\" y=\"{:.1f}\">{}{}</text>", x + 5, y + h / 2 + 4,
                         s.victim ? "\u2716 " : "", esc(shorten(pod.name, 17)));
    }
  }
  const double full = k_top + k_stack_height - unit;
  out << fmt::format(
      "<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" class=\"line100\">"
      "<title>the node's allocatable</title></line>",
      x, x + k_column_width, full, full);
  return y;
}

// The pods now; on the chosen node, beside them, the pods after the victims left with the
// preemptor on top.
void draw_pods(std::ostream& out, const model::Snapshot& snap, const policy::Decision& d,
               const Preemptor& p, const Column& c, int x) {
  const std::optional<model::NodeId> node = snap.find_node(c.node);
  if (!node) {
    out << fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\">not in the dump</text>", x + 8,
                       k_top + k_stack_height - 8);
    return;
  }
  const model::Resources& alloc = snap.node_facts(*node).allocatable;
  const NodePods np = node_pods(snap, d, c.node, *node, alloc);
  const double need = c.chosen && p.requests ? dominant_share(*p.requests, alloc) : 0;
  const double unit = k_stack_height / std::max({1.0, np.total, np.kept + need});
  draw_stack(out, snap, p, np, false, x, unit);
  if (!c.chosen || !p.requests) {
    return;
  }
  const int ax = x + k_column_width + k_pair_gap;
  out << fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"frame chosen\"/>",
                     ax, k_top, k_column_width, k_stack_height);
  const double top = draw_stack(out, snap, p, np, true, ax, unit);
  const double h = std::max(2.0, need * unit);
  out << fmt::format(
      "<rect x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{:.1f}\" class=\"ghost\"><title>the "
      "preemptor {}: {:.0f}% of the node</title></rect>",
      ax + 1, top - h, k_column_width - 2, h, esc(p.name), need * 100);
  if (h >= 14) {
    out << fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"head\">{}</text>", ax + 5,
                       top - h / 2 + 4, esc(shorten(p.name, 17)));
  }
}

int column_width(const Column& c, const Preemptor& p) {
  if (!c.group.empty()) {
    return k_group_width;
  }
  return c.chosen && p.requests ? 2 * k_column_width + k_pair_gap : k_column_width;
}

void draw_node(std::ostream& out, const model::Snapshot& snap, const policy::Decision& d,
               const Preemptor& p, const Column& c, int x) {
  const std::string verdict =
      c.chosen ? "chosen" : (c.verdict ? reason_text(c.verdict->code) : std::string("victims"));
  const std::string detail = c.verdict ? c.verdict->detail : std::string();
  out << fmt::format("<g><title>{}: {}{}{}</title>", esc(c.node), esc(verdict),
                     detail.empty() ? "" : " \u2014 ", esc(detail));
  out << fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"frame{}\"/>", x,
                     k_top, k_column_width, k_stack_height, c.chosen ? " chosen" : "");
  draw_pods(out, snap, d, p, c, x);
  const int ly = k_top + k_stack_height + 16;
  out << fmt::format("<text x=\"{}\" y=\"{}\" class=\"head\">{}</text>", x, ly,
                     esc(shorten(c.node, 19)));
  if (c.chosen) {
    out << fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#1a7f37\">chosen: now</text>", x, ly + 15);
    if (p.requests) {
      out << fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#1a7f37\">after the evictions</text>",
                         x + k_column_width + k_pair_gap, ly + 15);
    }
    out << "</g>\n";
    return;
  }
  // "node-unresolvable:" over "NodeAffinity" when the whole is too long for the column.
  const std::size_t colon = verdict.find(':');
  const bool split = verdict.size() > 21 && colon != std::string::npos;
  out << fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", x, ly + 15,
                     esc(shorten(split ? verdict.substr(0, colon + 1) : verdict, 21)));
  if (split) {
    out << fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\">{}</text>", x + 6, ly + 29,
                       esc(shorten(verdict.substr(colon + 1), 23)));
  }
  out << "</g>\n";
}

void draw_group(std::ostream& out, const Column& c, int x) {
  const policy::NodeVerdict& first = *c.group.front();
  out << fmt::format("<g><title>{} nodes: {} \u2014 e.g. {}: {}</title>", c.group.size(),
                     esc(c.merged ? c.sentence : c.node), esc(first.node), esc(first.detail));
  out << fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"group\"/>", x,
                     k_top, k_group_width, k_stack_height);
  int y = k_top + 22;
  out << fmt::format("<text x=\"{}\" y=\"{}\" class=\"head\">{} {}:</text>", x + 8, y,
                     c.group.size(), c.merged ? "more nodes" : "nodes alike");
  if (!c.merged) {
    // A long code breaks after its colon: "node-unresolvable:" over "NodeAffinity".
    std::string label = c.node;
    if (const std::size_t colon = label.find(':'); colon != std::string::npos) {
      label.insert(colon + 1, " ");
    }
    for (const std::string& line : wrap(label, 26, 2)) {
      y += 15;
      out << fmt::format("<text x=\"{}\" y=\"{}\" class=\"head\">{}</text>", x + 8, y, esc(line));
    }
  }
  y += 6;
  for (const std::string& line : wrap(c.sentence, 30, c.merged ? 11 : 9)) {
    y += 14;
    out << fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\">{}</text>", x + 8, y, esc(line));
  }
  out << fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\">e.g. {}</text>", x + 8,
                     k_top + k_stack_height - 10, esc(shorten(first.node, 24)));
  out << "</g>\n";
}

}  // namespace

void node_picture(std::ostream& out, const model::Snapshot& snap, const policy::Decision& d,
                  const Preemptor& p, std::size_t columns) {
  if (d.verdict_unit != policy::VerdictUnit::node) {
    return;
  }
  const std::vector<Column> cols = choose_columns(d, columns);
  if (cols.empty()) {
    return;
  }
  int width = 0;
  for (const Column& c : cols) {
    width += column_width(c, p) + k_gap;
  }
  out << "<p class=\"legend\"><span><i style=\"background:#e5534b\"></i>"
         "victim</span><span><i style=\"background:#e3b341\"></i>lower priority than the "
         "preemptor</span><span><i style=\"background:#6e9bd1\"></i>same or higher "
         "priority</span><span><i style=\"background:#57606a\"></i>system-critical</span>"
         "<span><i style=\"background:#1a7f3733;border:2px dashed #1a7f37\"></i>the preemptor"
         "</span><span>height: the pod's largest request as a share of the node</span></p>\n";
  out << svg_open(width, k_top + k_stack_height + k_label_height, "nodes and their pods");
  int x = 0;
  for (const Column& c : cols) {
    if (c.group.empty()) {
      draw_node(out, snap, d, p, c, x);
    } else {
      draw_group(out, c, x);
    }
    x += column_width(c, p) + k_gap;
  }
  out << "</svg>\n";
}

}  // namespace kpreempt::render::html
