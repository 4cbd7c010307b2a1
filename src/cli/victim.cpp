// SPDX-License-Identifier: Apache-2.0
// `kpreempt explain --victim NS/NAME`: which pending preemptors of the dump would evict a
// running pod or an admitted Kueue Workload, which priority levels could evict a pod under each
// policy's rules, and, when its eviction is already under way, whose decision explains it.
#include "cli/victim.h"

#include "cli/pager.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/policy/policy.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

namespace kpreempt::cli {
namespace {

// What --victim resolved to: a pod, or a Workload named itself or through the object owning it.
struct Resolved {
  model::PodId pod = model::k_none;
  std::uint32_t workload = model::k_none;
  std::vector<std::string> notes;
};

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// "workload/NS/NAME" asks for the Workload where a Pod of the same name would win.
bool strip_workload_kind(std::string& ref) {
  const auto slash = ref.find('/');
  if (slash == std::string::npos || std::count(ref.begin(), ref.end(), '/') != 2) {
    return false;
  }
  const std::string_view kind(ref.data(), slash);
  if (!iequals(kind, "workload") && !iequals(kind, "workloads")) {
    return false;
  }
  ref.erase(0, slash + 1);
  return true;
}

// Workloads of the object ns/name (a Job, JobSet, RayJob...), those under way first, then the
// admitted ones, each in input order.
std::vector<std::uint32_t> owned_workloads(const model::Snapshot& snap, const std::string& ns,
                                           const std::string& name) {
  std::vector<std::uint32_t> out;
  const auto& workloads = snap.kueue().workloads;
  for (std::uint32_t id = 0; id < workloads.size(); ++id) {
    const model::ObjectRef* src = scenario::workload_source(workloads[id]);
    if (src != nullptr && src->namespace_ == ns && src->name == name && !workloads[id].what_if) {
      out.push_back(id);
    }
  }
  auto rank = [&](std::uint32_t id) {
    const model::Workload& w = workloads[id];
    return eviction_under_way(w) ? 0 : w.admitted ? 1 : 2;
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return rank(a) < rank(b); });
  return out;
}

void check_pod(const model::Pod& pod) {
  // A Job's pod the scheduler preempted may be Failed while its finalizer holds it.
  const bool evicted = preemption_condition(pod) != nullptr;
  if (std::string problem = scenario::not_running(pod, evicted, scenario::command_line_spelling());
      !problem.empty()) {
    throw UsageError(problem);
  }
}

void check_workload(const model::Workload& w) {
  if (eviction_under_way(w)) {
    return;
  }
  if (model::condition_true(w, "Finished")) {
    throw UsageError(
        fmt::format("Workload {}/{} has finished; nothing can preempt it", w.namespace_, w.name));
  }
  if (!w.admitted) {
    throw UsageError(
        fmt::format("Workload {}/{} is pending; use --workload {}/{} to explain it as a preemptor",
                    w.namespace_, w.name, w.namespace_, w.name));
  }
}

// Pods first, then Workloads, then the objects Workloads were made for.
Resolved find_victim(const model::Snapshot& snap, std::string text) {
  const bool workload_only = strip_workload_kind(text);
  const scenario::NameRef ref = split_ref(text, "--victim");
  const std::string& ns = ref.namespace_;
  const std::string& name = ref.name;
  const auto& workloads = snap.kueue().workloads;
  Resolved r;
  const std::optional<std::uint32_t> workload = model::find_workload(snap.kueue(), ns, name);
  if (!workload_only) {
    if (auto id = snap.find_pod(ns, name)) {
      check_pod(snap.pods()[*id]);
      r.pod = *id;
      if (workload) {
        r.notes.push_back(
            fmt::format("a Workload {}/{} exists too: --victim workload/{}/{} reports on it", ns,
                        name, ns, name));
      }
      return r;
    }
  }
  if (workload) {
    check_workload(workloads[*workload]);
    r.workload = *workload;
    return r;
  }
  const std::vector<std::uint32_t> owned = owned_workloads(snap, ns, name);
  if (owned.empty()) {
    throw_not_found(snap, ref,
                    workload_only ? scenario::Looking::victim_workload : scenario::Looking::victim);
  }
  const model::Workload& w = workloads[owned.front()];
  check_workload(w);
  r.workload = owned.front();
  for (std::size_t i = 1; i < owned.size(); ++i) {
    const model::Workload& other = workloads[owned[i]];
    r.notes.push_back(fmt::format("{} {}/{} also owns Workload {}/{}",
                                  scenario::workload_source(w)->kind, ns, name, other.namespace_,
                                  other.name));
  }
  return r;
}

// Pending preemptors whose decision lists the victim, in preemptor then policy order.
std::vector<render::VictimThreat> threats(const std::vector<render::Explanation>& all,
                                          const model::ObjectRef& victim) {
  std::vector<render::VictimThreat> out;
  for (const auto& e : all) {
    for (const auto& d : e.decisions) {
      for (const auto& v : d.victims) {
        if (v.ref == victim) {
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

// A Workload's threats depend on quota, never on its PriorityClass alone.
void add_workload_notes(render::VictimReport& r, const ExplainOptions& o,
                        const model::Snapshot& snap) {
  for (const policy::Entry* p :
       chosen_policies(o, snap, Subject{model::k_none, r.victim_workload}, true)) {
    r.uncharacterised.emplace_back(p->name, "depends on quota: see explain --workload");
  }
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
  Resolved victim = find_victim(snap, o.victim);
  r.victim = victim.pod;
  r.victim_workload = victim.workload;
  r.notes = std::move(victim.notes);
  r.now = now;
  std::ostream* progress = isatty(STDERR_FILENO) == 1 ? &io.err : nullptr;
  Batch batch = explain_subjects(o, snap, pending_subjects(snap), now, false, progress);
  print_warnings(batch.explanations, io);
  r.pending = batch.explanations.size();
  model::ObjectRef ref;
  if (r.victim != model::k_none) {
    const model::Pod& pod = snap.pods()[r.victim];
    ref = {"Pod", pod.namespace_, pod.name};
  } else {
    const model::Workload& w = snap.kueue().workloads[r.victim_workload];
    ref = {"Workload", w.namespace_, w.name};
  }
  r.threats = threats(batch.explanations, ref);
  add_under_way(o, snap, batch, r);
  if (r.victim != model::k_none) {
    add_levels(r, snap, chosen_policies(o, snap, Subject{r.victim, model::k_none}, false));
  } else {
    add_workload_notes(r, o, snap);
  }
  with_pager(pager_for(format == render::Format::wide), io,
             [&](std::ostream& out) { render::render_victim_report(format, snap, r, out); });
  io.out.flush();
  release_at_exit(batch);
  release_at_exit(*loaded);
  return k_exit_ok;
}

}  // namespace kpreempt::cli
