// SPDX-License-Identifier: Apache-2.0
// `explain --all-pending` output: one summary row per preemptor and policy, then totals; or
// the full Explanation documents as an ExplanationList with a summary object.
#include "render/document.h"
#include "render/sequence.h"
#include "render/structured.h"
#include "render/table.h"

#include "kpreempt/render/html.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <ostream>
#include <sstream>

namespace kpreempt::render {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::array k_outcomes{policy::Outcome::preempt, policy::Outcome::fits,
                                policy::Outcome::unschedulable};

// Outcome counts: over every result, and per policy in the order policies first appear.
struct Totals {
  std::map<policy::Outcome, std::size_t> all;
  std::vector<std::pair<std::string, std::map<policy::Outcome, std::size_t>>> by_policy;
  std::size_t results = 0;

  void add(const policy::Decision& d) {
    ++results;
    ++all[d.outcome];
    auto it = std::find_if(by_policy.begin(), by_policy.end(),
                           [&](const auto& p) { return p.first == d.policy; });
    if (it == by_policy.end()) {
      by_policy.push_back({d.policy, {}});
      it = by_policy.end() - 1;
    }
    ++it->second[d.outcome];
  }
};

Totals count(const std::vector<Explanation>& all) {
  Totals t;
  for (const auto& e : all) {
    for (const auto& d : e.decisions) {
      t.add(d);
    }
  }
  return t;
}

std::string victim_names(const policy::Decision& d) {
  std::vector<std::string> names;
  for (const auto& v : d.victims) {
    names.push_back(v.ref.kind == "Pod" ? v.ref.namespace_ + "/" + v.ref.name
                                        : model::to_string(v.ref));
  }
  return names.empty() ? "-" : fmt::format("{}", fmt::join(names, ","));
}

// "31 preempt, 12 fits, 7 unschedulable", leaving out outcomes nobody had.
std::string outcome_counts(const std::map<policy::Outcome, std::size_t>& counts) {
  std::vector<std::string> parts;
  for (policy::Outcome o : k_outcomes) {
    auto it = counts.find(o);
    if (it != counts.end() && it->second > 0) {
      parts.push_back(fmt::format("{} {}", it->second, policy::to_string(o)));
    }
  }
  return parts.empty() ? "no results" : fmt::format("{}", fmt::join(parts, ", "));
}

// With one result per preemptor the counts add up to the pending count; otherwise they are
// given per policy so no preemptor is counted twice under one label.
std::string totals_line(const std::vector<Explanation>& all, std::size_t skipped, bool sequential) {
  Totals t = count(all);
  std::string line = fmt::format("{} pending: ", all.size());
  if (t.results == all.size()) {
    line += outcome_counts(t.all);
  } else {
    std::vector<std::string> parts;
    for (const auto& [name, counts] : t.by_policy) {
      parts.push_back(fmt::format("{} {}", name, outcome_counts(counts)));
    }
    line += fmt::format("{}", fmt::join(parts, "; "));
  }
  if (skipped > 0) {
    line += fmt::format(" ({} more skipped: no chosen policy applies)", skipped);
  }
  line += sequential ? "; in sequence, each after the ones before took effect"
                     : "; each on its own against the same dump (--sequential: in queue order)";
  return line;
}

// Where a policy's release line came from, once per policy, when it is not the default.
void print_line_sources(const std::vector<Explanation>& all, std::ostream& out) {
  std::vector<std::string_view> seen;
  for (const auto& e : all) {
    for (const auto& d : e.decisions) {
      if (d.line_from.empty() || std::find(seen.begin(), seen.end(), d.policy) != seen.end()) {
        continue;
      }
      out << (seen.empty() ? "\n" : "")
          << fmt::format("{} upstream {} from {}\n", d.policy, d.line, d.line_from);
      seen.push_back(d.policy);
    }
  }
}

// What the rows cannot say: answers whose node upstream may pick otherwise, counted.
void print_batch_notes(const std::vector<Explanation>& all, std::ostream& out) {
  std::size_t tied = 0, sampled = 0;
  for (const auto& e : all) {
    for (const auto& d : e.decisions) {
      tied += d.tied_nodes.empty() ? 0 : 1;
      sampled += std::any_of(d.reasons.begin(), d.reasons.end(),
                             [](const policy::Reason& r) {
                               return r.code == policy::Code::upstream_window;
                             })
                     ? 1
                     : 0;
    }
  }
  if (tied > 0) {
    out << fmt::format(
        "note: {} answer{} name{} the first of several tied nodes; upstream picks any of them\n",
        tied, tied == 1 ? "" : "s", tied == 1 ? "s" : "");
  }
  if (sampled > 0) {
    out << fmt::format("note: for {} answer{}, {}\n", sampled, sampled == 1 ? "" : "s",
                       k_sample_note);
  }
}

void print_table(const model::Snapshot& snap, const std::vector<Explanation>& all, bool wide,
                 std::size_t skipped, const Sequence* seq, std::ostream& out) {
  std::vector<std::string> header = {"POD/WORKLOAD", "POLICY", "OUTCOME", "NODE", "VICTIMS"};
  if (wide) {
    header.insert(header.begin() + 1, "PRIORITY");
    header.insert(header.end(), {"REASON", "VICTIM NAMES"});
  }
  Table table(header);
  for (const auto& e : all) {
    std::string name = preemptor_name(snap, e.preemptor, e.workload);
    std::int32_t priority = e.preemptor == model::k_none
                                ? snap.kueue().workloads[e.workload].priority
                                : snap.facts(e.preemptor).priority;
    for (const auto& d : e.decisions) {
      std::vector<std::string> row = {name, d.policy, std::string(policy::to_string(d.outcome)),
                                      d.node.empty() ? "-" : d.node,
                                      std::to_string(d.victims.size())};
      if (wide) {
        row.insert(row.begin() + 1, std::to_string(priority));
        row.push_back(d.reasons.empty() ? std::string("-") : reason_text(d.reasons.front()));
        row.push_back(victim_names(d));
      }
      table.add(std::move(row));
    }
  }
  table.print(out, 0);
  out << '\n' << totals_line(all, skipped, seq != nullptr) << '\n';
  print_batch_notes(all, out);
  print_line_sources(all, out);
  if (seq != nullptr) {
    out << '\n';
    print_sequence_summary(snap, all, *seq, false, out);
  }
}

Json counts_json(const std::map<policy::Outcome, std::size_t>& counts) {
  Json j = Json::object();
  for (policy::Outcome o : k_outcomes) {
    auto it = counts.find(o);
    j[std::string(policy::to_string(o))] = it == counts.end() ? 0 : it->second;
  }
  return j;
}

Json summary_json(const model::Snapshot& snap, const std::vector<Explanation>& all,
                  std::size_t skipped, const Sequence* seq) {
  Totals t = count(all);
  Json j;
  j["pending"] = all.size();
  j["skipped"] = skipped;
  j["results"] = t.results;
  j["outcomes"] = counts_json(t.all);
  Json by = Json::array();
  for (const auto& [name, counts] : t.by_policy) {
    Json p;
    p["policy"] = name;
    p["outcomes"] = counts_json(counts);
    by.push_back(std::move(p));
  }
  j["byPolicy"] = std::move(by);
  j["mode"] = seq == nullptr ? "independent" : "sequential";
  if (seq != nullptr) {
    j["sequence"] = sequence_json(snap, all, *seq);
  }
  return j;
}

}  // namespace

void render_batch(Format format, const model::Snapshot& snap, const std::vector<Explanation>& all,
                  std::size_t skipped, std::ostream& out, const Sequence* seq) {
  if (format == Format::text || format == Format::wide) {
    print_table(snap, all, format == Format::wide, skipped, seq, out);
    return;
  }
  if (format == Format::html) {
    // The totals and the sequence as the text words them, under the page's own table.
    std::ostringstream totals;
    totals << totals_line(all, skipped, seq != nullptr) << '\n';
    print_line_sources(all, totals);
    if (seq != nullptr) {
      totals << '\n';
      print_sequence_summary(snap, all, *seq, false, totals);
    }
    render_batch_html(snap, all, totals.str(), out);
    return;
  }
  Json list = explanation_list(snap, all);
  list["summary"] = summary_json(snap, all, skipped, seq);
  print_structured(list, format == Format::yaml, out);
}

}  // namespace kpreempt::render
