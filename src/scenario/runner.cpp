// SPDX-License-Identifier: Apache-2.0
// Evaluates a scenario the way `explain` does (load, snapshot, one policy decision) without a
// process per case, loading each distinct set of cluster files once.
#include "kpreempt/scenario/runner.h"

#include "kpreempt/model/kueue.h"
#include "kpreempt/policy/args.h"
#include "kpreempt/policy/lines.h"
#include "kpreempt/scenario/cascade.h"
#include "kpreempt/scenario/inputs.h"
#include "kpreempt/scenario/lookup.h"
#include "kpreempt/scenario/sequence.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::scenario {

struct Runner::Cluster {
  std::optional<model::Snapshot> snapshot;  // absent when loading failed
  std::vector<model::ObjectRef> what_if_pods;
  std::vector<std::uint32_t> what_if_workloads;  // Workloads derived from a podFile Job
  std::string error;                             // why loading failed, one line
};

namespace {

// The preemptor of one scenario, resolved against its snapshot.
struct Subject {
  model::PodId pod = model::k_none;
  std::uint32_t workload = model::k_none;
};

bool is_error(const Diagnostic& d) {
  return d.severity == Severity::error;
}

// How a scenario file names a preemptor, for hints; victims are a command's business.
const Spelling& scenario_spelling() {
  static const Spelling k_spelling{"kind: Pod, {}", "kind: Workload, {}",
                                   "kpreempt explain --victim {}",
                                   "kpreempt explain --victim workload/{}", "the cluster files"};
  return k_spelling;
}

std::string find_pod(const model::Snapshot& snap, const std::string& ns, const std::string& name,
                     Subject& out) {
  auto id = snap.find_pod(ns, name);
  if (!id) {
    return "preemptor: " + not_found(snap, {ns, name}, Looking::pending_pod, scenario_spelling());
  }
  out.pod = *id;
  std::string reason = not_pending(snap.pods()[*id], scenario_spelling());
  return reason.empty() ? reason : "preemptor: " + reason;
}

std::string find_workload(const model::Snapshot& snap, const std::string& ns,
                          const std::string& name, Subject& out) {
  auto id = model::find_workload(snap.kueue(), ns, name);
  if (!id) {
    return "preemptor: " +
           not_found(snap, {ns, name}, Looking::pending_workload, scenario_spelling());
  }
  if (std::string problem = admitted_problem(snap.kueue().workloads[*id], scenario_spelling());
      !problem.empty()) {
    return "preemptor: " + problem;
  }
  out.workload = *id;
  return {};
}

std::string from_pod_file(const model::Snapshot& snap, const std::vector<model::ObjectRef>& pods,
                          const std::vector<std::uint32_t>& workloads, Subject& out) {
  const std::size_t total = pods.size() + workloads.size();
  if (total == 0) {  // load_inputs reports it; a hand-built Scenario may get here
    return fmt::format("preemptor.podFile holds {}", k_pod_file_kinds);
  }
  if (!workloads.empty()) {
    out.workload = workloads.front();
    return {};
  }
  return find_pod(snap, pods.front().namespace_, pods.front().name, out);
}

std::string resolve(const Scenario& s, const policy::Entry& entry, const model::Snapshot& snap,
                    const std::vector<model::ObjectRef>& pods,
                    const std::vector<std::uint32_t>& workloads, Subject& out) {
  const Preemptor& p = s.preemptor;
  std::string problem = !p.pod_file.empty()    ? from_pod_file(snap, pods, workloads, out)
                        : p.kind == "Workload" ? find_workload(snap, p.namespace_, p.name, out)
                                               : find_pod(snap, p.namespace_, p.name, out);
  if (problem.empty() && out.pod == model::k_none && !entry.takes_workloads) {
    problem = fmt::format("policy {} explains pods, not Kueue Workloads", entry.name);
  }
  return problem;
}

// A podFile's pods and Workloads as the items of a sequence, in queue order.
std::vector<render::Explanation> workload_items(const model::Snapshot& snap,
                                                const std::vector<model::ObjectRef>& pods,
                                                const std::vector<std::uint32_t>& workloads,
                                                model::Instant now) {
  std::vector<render::Explanation> items;
  for (const model::ObjectRef& ref : pods) {
    items.push_back({*snap.find_pod(ref.namespace_, ref.name), model::k_none, now, {}});
  }
  for (std::uint32_t w : workloads) {
    items.push_back({model::k_none, w, now, {}});
  }
  scenario::sort_queue_order(snap, items);
  return items;
}

// The workload's decision: its outcome, every pod's victims, and a summary of the placements.
policy::Decision workload_decision(const std::vector<render::Explanation>& items,
                                   Placements& counts) {
  policy::Decision out;
  std::size_t fits = 0;
  for (const render::Explanation& e : items) {
    const policy::Decision& d = e.decisions.back();
    out.policy = d.policy;
    out.line = d.line;
    out.victims.insert(out.victims.end(), d.victims.begin(), d.victims.end());
    fits += d.outcome == policy::Outcome::fits ? 1 : 0;
    if (d.outcome == policy::Outcome::unschedulable) {
      ++counts.pending;
      if (out.reasons.empty()) {
        out.reasons = d.reasons;
      }
    } else {
      ++counts.placed;
    }
  }
  out.outcome = counts.pending > 0     ? policy::Outcome::unschedulable
                : fits == items.size() ? policy::Outcome::fits
                                       : policy::Outcome::preempt;
  out.summary = fmt::format("{} pods placed in sequence: {} placed ({} fit), {} pending",
                            items.size(), counts.placed, fits, counts.pending);
  return out;
}

// The cascade a scenario expects of: kube-scheduler pods decided by its policy when that is
// one of kube-scheduler's (else default), a CapacityScheduling profile's by capacity, its args
// and upstream line for its policy alone.
render::Cascade scenario_cascade(const Scenario& s, model::Snapshot& snap,
                                 const policy::Entry& entry, const policy::Args& args,
                                 const std::vector<policy::UpstreamChoice>& pinned,
                                 model::Instant now) {
  const policy::Entry& kube =
      entry.scheduler == policy::Scheduler::kube ? entry : *policy::find("default");
  const CascadePolicies runs(
      kube, capacity_schedulers(snap),
      [&](const policy::Entry& e) { return e.name == entry.name ? args : policy::Args(); }, pinned,
      snap, now);
  CascadeOptions o;
  o.rounds = static_cast<std::size_t>(s.expect.cascade->no_loop_within.value_or(20));
  o.now = now;
  return run_cascade(snap, o, runs.runner());
}

}  // namespace

std::shared_ptr<Runner::Cluster> Runner::cluster_for(const Scenario& s,
                                                     std::vector<Diagnostic>& diags) {
  std::vector<std::string> key = s.cluster_files;
  key.push_back("podFile:" + s.preemptor.pod_file);
  if (auto it = m_clusters.find(key); it != m_clusters.end()) {
    return it->second;
  }
  auto cluster = std::make_shared<Cluster>();
  InputSpec spec;
  spec.files = s.cluster_files;
  if (!s.preemptor.pod_file.empty()) {
    spec.pod_files.push_back(s.preemptor.pod_file);
  }
  spec.pod_file_key = "preemptor.podFile";
  std::vector<Diagnostic> found;
  LoadedInputs loaded = load_inputs(spec, found);
  // Warnings are what `explain` is for; a check only stops on what makes the answer wrong.
  auto errors = std::count_if(found.begin(), found.end(), is_error);
  if (errors > 0) {
    std::copy_if(found.begin(), found.end(), std::back_inserter(diags), is_error);
    cluster->error =
        fmt::format("the cluster files have {} error{}", errors, errors == 1 ? "" : "s");
  } else {
    cluster->what_if_pods = std::move(loaded.what_if_pods);
    cluster->what_if_workloads = std::move(loaded.what_if_workloads);
    cluster->snapshot = std::move(loaded.snapshot);
  }
  m_clusters.emplace(std::move(key), cluster);
  return cluster;
}

Result Runner::run(const Scenario& s, std::vector<Diagnostic>& diags) {
  Result r{s.name, s.case_file,  s.policy,     Status::error,
           {},     std::nullopt, std::nullopt, std::nullopt};
  auto cluster = cluster_for(s, diags);
  if (!cluster->snapshot) {
    r.problems.push_back(cluster->error);
    return r;
  }
  model::Snapshot& snap = *cluster->snapshot;
  const policy::Entry* entry = policy::find(s.policy);
  if (entry == nullptr) {  // parse_case rejects these; a hand-built Scenario may not
    r.problems.push_back(fmt::format("unknown policy \"{}\"", s.policy));
    return r;
  }
  Subject subject;
  const bool workload = cluster->what_if_pods.size() + cluster->what_if_workloads.size() > 1 &&
                        !s.preemptor.pod_file.empty();
  std::string problem =
      workload && !cluster->what_if_workloads.empty() && !entry->takes_workloads
          ? fmt::format("policy {} explains pods, not Kueue Workloads", entry->name)
      : workload
          ? std::string()
          : resolve(s, *entry, snap, cluster->what_if_pods, cluster->what_if_workloads, subject);
  if (!problem.empty()) {
    diags.push_back({Severity::error, s.preemptor.loc, problem});
    r.problems.push_back(std::move(problem));
    return r;
  }
  try {
    policy::Args args = policy::args_for(entry->plugin, s.args);
    // A scenario's upstream: wins over the cluster's own scheduler image, as --upstream does.
    std::vector<policy::UpstreamChoice> pinned;
    if (!s.upstream.empty()) {
      pinned.push_back(policy::resolve_line(*entry, s.upstream, nullptr));
      pinned.back().from = fmt::format("upstream: {} ({})", s.upstream, s.case_file);
    }
    const policy::LineChoice line = policy::choose_line(*entry, pinned, policy::dump_lines(snap));
    const model::Instant now = s.now.value_or(m_now);
    if (workload) {
      std::vector<render::Explanation> items =
          workload_items(snap, cluster->what_if_pods, cluster->what_if_workloads, now);
      (void)decide_in_sequence(snap, SequenceRun{*entry, args, line, now, false}, items,
                               std::vector<bool>(items.size(), true));
      r.placements.emplace();
      r.decision = workload_decision(items, *r.placements);
    } else {
      r.decision = policy::run(
          *entry, policy::Input{snap, subject.pod, now, args, subject.workload, true}, line);
    }
    if (s.expect.cascade) {
      r.cascade = scenario_cascade(s, snap, *entry, args, pinned, now);
    }
  } catch (const UsageError& e) {
    SourceLoc at = s.args_loc.file.empty() ? SourceLoc{s.case_file, 0, 0} : s.args_loc;
    diags.push_back({Severity::error, at, fmt::format("args: {}", e.what())});
    r.problems.push_back(fmt::format("args: {}", e.what()));
    return r;
  }
  r.problems = compare(s.expect, *r.decision, r.placements);
  if (r.cascade) {
    const std::vector<std::string> more = compare_cascade(*s.expect.cascade, *r.cascade);
    r.problems.insert(r.problems.end(), more.begin(), more.end());
  }
  r.status = r.problems.empty() ? Status::passed : Status::failed;
  return r;
}

}  // namespace kpreempt::scenario
