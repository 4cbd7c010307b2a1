// SPDX-License-Identifier: Apache-2.0
// `kpreempt explain --victim NS/NAME`: which pending preemptors of the dump would evict a
// running pod, and which priority levels could evict it under each policy's rules.
#include "cli/explain_modes.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/policy/policy.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

namespace kpreempt::cli {
namespace {

model::PodId find_victim(const model::Snapshot& snap, const std::string& ref) {
  auto [ns, name] = split_ref(ref, "--victim");
  auto id = snap.find_pod(ns, name);
  if (!id) {
    std::string hint = closest_pod(snap, ns, name);
    throw UsageError(fmt::format("no Pod {}/{} in the input{}", ns, name,
                                 hint.empty() ? "" : "; did you mean " + hint + "?"));
  }
  const model::Pod& pod = snap.pods()[*id];
  if (pod.terminal()) {
    throw UsageError(fmt::format("Pod {}/{} has finished (phase {}); nothing can preempt it", ns,
                                 name, pod.phase));
  }
  if (pod.node_name.empty()) {
    throw UsageError(
        fmt::format("Pod {}/{} is pending; use --pod to explain it as a preemptor", ns, name));
  }
  return *id;
}

// The policies the report covers: those --policy names, or all that apply to this pod.
std::vector<const policy::Entry*> report_policies(const ExplainOptions& o,
                                                  const model::Snapshot& snap,
                                                  model::PodId victim) {
  return chosen_policies(o, snap, Subject{victim, model::k_none}, false);
}

// Pending preemptors whose decision lists the victim, in preemptor then policy order.
std::vector<render::VictimThreat> threats(const std::vector<render::Explanation>& all,
                                          const model::Pod& victim) {
  std::vector<render::VictimThreat> out;
  for (const auto& e : all) {
    for (const auto& d : e.decisions) {
      for (const auto& v : d.victims) {
        if (v.ref.kind == "Pod" && v.ref.namespace_ == victim.namespace_ &&
            v.ref.name == victim.name) {
          out.push_back({e.preemptor, e.workload, d.policy, v.node, v.reason});
        }
      }
    }
  }
  return out;
}

// Each policy judges every PriorityClass of the dump against the pod, or says why it cannot.
void add_levels(render::VictimReport& r, const model::Snapshot& snap,
                const std::vector<const policy::Entry*>& policies) {
  std::vector<const policy::Entry*> judged;
  for (const policy::Entry* p : policies) {
    if (p->classes->level != nullptr) {
      judged.push_back(p);
    } else {
      const auto note = p->classes->victim_note;
      r.uncharacterised.emplace_back(
          p->name,
          note != nullptr ? note(snap) : "not judged per priority level: see explain --pod");
    }
  }
  for (const model::PriorityClass& pc : snap.priority_classes()) {
    policy::ClassView view = policy::class_view(pc);
    render::PriorityLevel level{pc.name, pc.value, view.never, {}};
    for (const policy::Entry* p : judged) {
      level.verdicts.push_back(
          {std::string(p->name), p->classes->level(snap, r.victim, view, r.now)});
    }
    r.levels.push_back(std::move(level));
  }
  std::stable_sort(r.levels.begin(), r.levels.end(),
                   [](const auto& a, const auto& b) { return a.value > b.value; });
}

}  // namespace

int run_victim(const ExplainOptions& o, model::Instant now, const Streams& io) {
  auto format = *render::parse_format(o.output);
  auto loaded = load_inputs(o.inputs, io);
  if (!loaded) {
    return k_exit_input;
  }
  const model::Snapshot& snap = loaded->snapshot;
  render::VictimReport r;
  r.victim = find_victim(snap, o.victim);
  r.now = now;
  std::ostream* progress = isatty(STDERR_FILENO) == 1 ? &io.err : nullptr;
  Batch batch = explain_subjects(o, snap, pending_subjects(snap), now, false, progress);
  print_warnings(batch.explanations, io);
  r.pending = batch.explanations.size();
  r.threats = threats(batch.explanations, snap.pods()[r.victim]);
  add_levels(r, snap, report_policies(o, snap, r.victim));
  render::render_victim_report(format, snap, r, io.out);
  io.out.flush();
  release_at_exit(batch);
  release_at_exit(*loaded);
  return k_exit_ok;
}

}  // namespace kpreempt::cli
