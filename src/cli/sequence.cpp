// SPDX-License-Identifier: Apache-2.0
// Several preemptors decided one after another, per policy: a pod file's workload, or every
// pending pod with --all-pending --sequential.
#include "kpreempt/scenario/sequence.h"

#include "cli/explain_modes.h"

#include "kpreempt/policy/lines.h"

#include <algorithm>

namespace kpreempt::cli {

render::Sequence explain_in_sequence(const ExplainOptions& o, model::Snapshot& snap,
                                     std::vector<render::Explanation>& items, bool lenient,
                                     bool node_verdicts, bool keep_details) {
  scenario::sort_queue_order(snap, items);
  std::vector<std::vector<const policy::Entry*>> chosen;
  for (const render::Explanation& e : items) {
    chosen.push_back(chosen_policies(o, snap, Subject{e.preemptor, e.workload}, lenient));
  }
  const std::vector<policy::UpstreamChoice> flags = policy::parse_upstream(o.upstream, nullptr);
  const policy::DumpLines dump = policy::dump_lines(snap);
  render::Sequence seq;
  seq.order =
      "in queue order (priority, then creation), each decided after the ones before "
      "took effect";
  seq.not_modelled = scenario::sequence_assumptions();
  // Policies in registry order, so that each explanation lists its decisions as explain does.
  for (const policy::Entry& entry : policy::all()) {
    std::vector<bool> takes;
    for (const auto& c : chosen) {
      takes.push_back(std::find(c.begin(), c.end(), &entry) != c.end());
    }
    if (std::none_of(takes.begin(), takes.end(), [](bool t) { return t; })) {
      continue;
    }
    const policy::Args args = parse_sets(o.sets, entry.plugin);
    const scenario::SequenceRun run{entry, args, policy::choose_line(entry, flags, dump),
                                    items.empty() ? model::Instant{} : items.front().now,
                                    node_verdicts};
    seq.policies.push_back(scenario::decide_in_sequence(snap, run, items, takes));
  }
  if (!keep_details) {
    for (render::Explanation& e : items) {
      for (policy::Decision& d : e.decisions) {
        d.tables = {};
        d.details = nullptr;
      }
    }
  }
  return seq;
}

}  // namespace kpreempt::cli
