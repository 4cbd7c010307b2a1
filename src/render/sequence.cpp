// SPDX-License-Identifier: Apache-2.0
// Output of preemptors placed in sequence: per policy how many were placed and how, the
// victims node by node and the first that stayed pending, before the explanations themselves.
#include "render/sequence.h"

#include "render/document.h"
#include "render/structured.h"
#include "render/table.h"

#include "kpreempt/render/html.h"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

namespace kpreempt::render {
namespace {

using Json = nlohmann::ordered_json;

struct Counts {
  std::size_t fits = 0, preempt = 0, pending = 0, victims = 0, nodes = 0;
};

Counts count(const SequenceSummary& s) {
  Counts c;
  for (const SequenceStep& step : s.steps) {
    switch (step.outcome) {
      case policy::Outcome::fits:
        ++c.fits;
        break;
      case policy::Outcome::preempt:
        ++c.preempt;
        break;
      case policy::Outcome::unschedulable:
        ++c.pending;
        break;
    }
  }
  for (const auto& [node, victims] : s.victims_by_node) {
    c.victims += victims.size();
    c.nodes += node.empty() ? 0 : 1;
  }
  return c;
}

std::string ref_name(const model::ObjectRef& r) {
  return r.kind == "Pod" ? r.namespace_ + "/" + r.name : model::to_string(r);
}

const SequenceStep* first_pending(const SequenceSummary& s) {
  for (const SequenceStep& step : s.steps) {
    if (step.outcome == policy::Outcome::unschedulable) {
      return &step;
    }
  }
  return nullptr;
}

const policy::Decision* decision_of(const Explanation& e, const std::string& policy) {
  for (const policy::Decision& d : e.decisions) {
    if (d.policy == policy) {
      return &d;
    }
  }
  return nullptr;
}

std::string node_text(const SequenceStep& step) {
  if (step.node.empty()) {
    return "-";
  }
  return step.node_by_score ? step.node + " (by score)" : step.node;
}

// "5 placed (3 fit, 2 preempt), 5 pending; evicts 4 pods on 2 nodes"
std::string headline(const Counts& c) {
  std::string line = fmt::format("{} placed ({} fit, {} preempt), {} pending", c.fits + c.preempt,
                                 c.fits, c.preempt, c.pending);
  if (c.victims == 0) {
    return line + "; evicts nobody";
  }
  if (c.nodes == 0) {
    return line + fmt::format("; evicts {} {} from quota", c.victims,
                              c.victims == 1 ? "victim" : "victims");
  }
  return line + fmt::format("; evicts {} {} on {} node{}", c.victims,
                            c.victims == 1 ? "victim" : "victims", c.nodes,
                            c.nodes == 1 ? "" : "s");
}

void print_steps(const model::Snapshot& snap, const std::vector<Explanation>& all,
                 const SequenceSummary& s, std::ostream& out) {
  Table steps({"#", "PREEMPTOR", "OUTCOME", "NODE"});
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    const SequenceStep& step = s.steps[i];
    const Explanation& e = all[step.item];
    steps.add({std::to_string(i + 1), preemptor_name(snap, e.preemptor, e.workload),
               std::string(policy::to_string(step.outcome)), node_text(step)});
  }
  steps.print(out, 2);
}

void print_policy(const model::Snapshot& snap, const std::vector<Explanation>& all,
                  const SequenceSummary& s, bool with_steps, std::ostream& out) {
  out << fmt::format("\n{}: {}\n", s.policy, headline(count(s)));
  if (with_steps) {
    print_steps(snap, all, s, out);
  }
  for (const auto& [node, victims] : s.victims_by_node) {
    std::vector<std::string> names;
    for (const auto& v : victims) {
      names.push_back(ref_name(v));
    }
    out << fmt::format("  victims on {}: {}\n", node.empty() ? "quota" : node,
                       fmt::join(names, ", "));
  }
  if (const SequenceStep* p = first_pending(s)) {
    const Explanation& e = all[p->item];
    const policy::Decision* d = decision_of(e, s.policy);
    out << fmt::format("  first pending: {}: {}\n", preemptor_name(snap, e.preemptor, e.workload),
                       d == nullptr ? std::string("-") : d->summary);
  }
}

Json step_json(const model::Snapshot& snap, const std::vector<Explanation>& all,
               const SequenceStep& step) {
  const Explanation& e = all[step.item];
  Json j = {{"preemptor", preemptor_name(snap, e.preemptor, e.workload)},
            {"outcome", std::string(policy::to_string(step.outcome))},
            {"node", step.node.empty() ? Json(nullptr) : Json(step.node)}};
  j["nodeByScore"] = step.node_by_score;
  return j;
}

Json policy_json(const model::Snapshot& snap, const std::vector<Explanation>& all,
                 const SequenceSummary& s) {
  const Counts c = count(s);
  Json j = {{"policy", s.policy},    {"placed", c.fits + c.preempt}, {"fits", c.fits},
            {"preempt", c.preempt},  {"pending", c.pending},         {"victims", c.victims},
            {"victimNodes", c.nodes}};
  Json by_node = Json::array();
  for (const auto& [node, victims] : s.victims_by_node) {
    Json names = Json::array();
    for (const auto& v : victims) {
      names.push_back(ref_name(v));
    }
    by_node.push_back({{"node", node.empty() ? Json(nullptr) : Json(node)}, {"victims", names}});
  }
  j["victimsByNode"] = std::move(by_node);
  Json steps = Json::array();
  for (const SequenceStep& step : s.steps) {
    steps.push_back(step_json(snap, all, step));
  }
  j["placements"] = std::move(steps);
  Json pending = nullptr;
  if (const SequenceStep* p = first_pending(s)) {
    const Explanation& e = all[p->item];
    const policy::Decision* d = decision_of(e, s.policy);
    Json reasons = Json::array();
    if (d != nullptr) {
      for (const policy::Reason& r : d->reasons) {
        reasons.push_back(reason_text(r));
      }
    }
    pending = {{"preemptor", preemptor_name(snap, e.preemptor, e.workload)},
               {"reasons", reasons},
               {"summary", d == nullptr ? std::string() : d->summary}};
  }
  j["firstPending"] = std::move(pending);
  return j;
}

}  // namespace

Json sequence_json(const model::Snapshot& snap, const std::vector<Explanation>& all,
                   const Sequence& seq) {
  Json j;
  j["mode"] = "sequential";
  j["order"] = seq.order;
  j["preemptors"] = all.size();
  Json by = Json::array();
  for (const SequenceSummary& s : seq.policies) {
    by.push_back(policy_json(snap, all, s));
  }
  j["byPolicy"] = std::move(by);
  j["assumptions"] = seq.not_modelled;
  return j;
}

void print_sequence_summary(const model::Snapshot& snap, const std::vector<Explanation>& all,
                            const Sequence& seq, bool with_steps, std::ostream& out) {
  out << fmt::format("{} preemptor{} placed in sequence, {}\n", all.size(),
                     all.size() == 1 ? "" : "s", seq.order);
  for (const SequenceSummary& s : seq.policies) {
    print_policy(snap, all, s, with_steps, out);
  }
  out << "\nassumes:\n";
  for (const std::string& a : seq.not_modelled) {
    out << "  - " << a << '\n';
  }
}

void render_sequence(Format format, const model::Snapshot& snap,
                     const std::vector<Explanation>& all, const Sequence& seq, const Style& style,
                     std::ostream& out) {
  if (format == Format::text || format == Format::wide) {
    print_sequence_summary(snap, all, seq, true, out);
    out << '\n';
    render_text(snap, all, format == Format::wide, style, out);
    return;
  }
  if (format == Format::html) {
    std::ostringstream summary;
    print_sequence_summary(snap, all, seq, true, summary);
    render_html(snap, all, out, summary.str());
    return;
  }
  Json list = explanation_list(snap, all);
  list["summary"] = sequence_json(snap, all, seq);
  print_explanations(std::move(list), snap, format == Format::yaml, out);
}

}  // namespace kpreempt::render
