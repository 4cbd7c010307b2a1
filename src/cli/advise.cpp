// SPDX-License-Identifier: Apache-2.0
// `kpreempt advise`: the smallest changes that save a victim, let a pending pod fit or be
// placed, or admit a Kueue Workload, each checked on the edited cluster.
#include "kpreempt/scenario/advise.h"

#include "cli/context.h"
#include "cli/explain_modes.h"
#include "cli/subcommands.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/model/kueue.h"
#include "kpreempt/policy/args.h"
#include "kpreempt/policy/lines.h"
#include "kpreempt/render/advice.h"
#include "kpreempt/scenario/sequence.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <optional>

namespace kpreempt::cli {
namespace {

struct AdviseOptions {
  ExplainOptions explain;
  std::string goal;
  std::size_t limit = 3;
};

scenario::AdviseGoal parse_goal(const AdviseOptions& o) {
  const bool victim = !o.explain.victim.empty();
  if (o.goal.empty()) {
    return victim ? scenario::AdviseGoal::save
                  : (!o.explain.workload.empty() ? scenario::AdviseGoal::admit
                                                 : scenario::AdviseGoal::place);
  }
  static const std::vector<std::pair<std::string_view, scenario::AdviseGoal>> goals = {
      {"save", scenario::AdviseGoal::save},
      {"fit", scenario::AdviseGoal::fit},
      {"place", scenario::AdviseGoal::place},
      {"admit", scenario::AdviseGoal::admit}};
  for (const auto& [name, g] : goals) {
    if (o.goal == name) {
      if (victim != (g == scenario::AdviseGoal::save)) {
        throw UsageError(victim ? "--goal: a --victim is saved (--goal save)"
                                : "--goal save goes with --victim");
      }
      return g;
    }
  }
  throw UsageError(fmt::format("--goal: unknown \"{}\" (save, fit, place, admit)", o.goal));
}

// The pod or Workload the goal is about, checked against what the goal needs of it.
scenario::PendingRef resolve(const AdviseOptions& o, const model::Snapshot& snap,
                             scenario::AdviseGoal goal) {
  const std::string& text = !o.explain.victim.empty() ? o.explain.victim
                            : !o.explain.pod.empty()  ? o.explain.pod
                                                      : o.explain.workload;
  const char* flag = !o.explain.victim.empty() ? "--victim"
                     : !o.explain.pod.empty()  ? "--pod"
                                               : "--workload";
  std::string ref = text;
  const bool workload = !o.explain.workload.empty() || ref.starts_with("workload/");
  if (ref.starts_with("workload/")) {
    ref = ref.substr(9);
  }
  const scenario::NameRef name = split_ref(ref, flag);
  const bool save = goal == scenario::AdviseGoal::save;
  const scenario::Spelling& say = scenario::command_line_spelling();
  if (workload) {
    auto id = model::find_workload(snap.kueue(), name.namespace_, name.name);
    if (!id) {
      throw UsageError(fmt::format("{}: {}", flag,
                                   scenario::not_found(snap, name,
                                                       save ? scenario::Looking::victim_workload
                                                            : scenario::Looking::pending_workload,
                                                       say)));
    }
    const bool admitted = snap.kueue().workloads[*id].admitted;
    if (admitted != save) {
      throw UsageError(fmt::format("{}: Workload {}/{} is {}", flag, name.namespace_, name.name,
                                   admitted ? "already admitted" : "not admitted"));
    }
    return {model::k_none, *id};
  }
  auto id = snap.find_pod(name.namespace_, name.name);
  if (!id) {
    throw UsageError(fmt::format(
        "{}: {}", flag,
        scenario::not_found(
            snap, name, save ? scenario::Looking::victim : scenario::Looking::pending_pod, say)));
  }
  const model::Pod& pod = snap.pods()[*id];
  if (save && (pod.pending() || pod.terminal())) {
    throw UsageError(fmt::format("--victim: Pod {}/{} is not running (phase {})", name.namespace_,
                                 name.name, pod.phase.empty() ? "unknown" : pod.phase));
  }
  if (!save && !pod.pending()) {
    throw UsageError(fmt::format("--pod: Pod {}/{} is not pending{}", name.namespace_, name.name,
                                 pod.node_name.empty()
                                     ? ""
                                     : fmt::format(" (running on node {}); to keep it running: "
                                                   "--victim {}/{}",
                                                   pod.node_name, name.namespace_, name.name)));
  }
  return {*id, model::k_none};
}

// The pods (or Workload) of --pod-file, in queue order: the goal holds when every one is placed.
scenario::AdviseTarget manifest_target(const Loaded& loaded, scenario::AdviseGoal goal,
                                       model::Instant now) {
  if (goal == scenario::AdviseGoal::save) {
    throw UsageError("--pod-file is a preemptor: --goal fit, place or admit");
  }
  const model::Snapshot& snap = loaded.snapshot;
  std::vector<render::Explanation> items;
  for (const model::ObjectRef& ref : loaded.what_if_pods) {
    items.push_back(
        render::Explanation{*snap.find_pod(ref.namespace_, ref.name), model::k_none, now, {}});
  }
  for (std::uint32_t w : loaded.what_if_workloads) {
    items.push_back(render::Explanation{model::k_none, w, now, {}});
  }
  if (items.empty()) {
    throw UsageError("--pod-file: no pod or workload in the manifests");
  }
  scenario::sort_queue_order(snap, items);
  scenario::AdviseTarget t{goal, {items.front().preemptor, items.front().workload}, {}, true};
  if (items.size() > 1) {
    for (const render::Explanation& e : items) {
      t.group.push_back({e.preemptor, e.workload});
    }
  }
  return t;
}

// "Deployment web/api (6 pods)": a --pod-file workload by the controller its pods name.
std::string workload_name(const model::Snapshot& snap, const scenario::AdviseTarget& t) {
  const std::size_t n = t.group.size();
  if (t.subject.pod == model::k_none) {
    return fmt::format("{} ({} preemptors)",
                       render::preemptor_name(snap, t.subject.pod, t.subject.workload), n);
  }
  const model::Pod& pod = snap.pods()[t.subject.pod];
  if (const auto owner = scenario::workload_of(pod)) {
    return fmt::format("{} {}/{} ({} pods)", owner->kind, pod.namespace_, owner->name, n);
  }
  return fmt::format("{} pods from {}/{}", n, pod.namespace_, pod.name);
}

// The pending preemptors `policy` takes, as --all-pending would run it.
std::vector<scenario::PendingRef> pending_for(const ExplainOptions& o, const model::Snapshot& snap,
                                              const policy::Entry& entry) {
  std::vector<scenario::PendingRef> out;
  for (const Subject& s : pending_subjects(snap)) {
    for (const policy::Entry* p : chosen_policies(o, snap, s, true)) {
      if (p == &entry) {
        out.push_back({s.pod, s.workload});
      }
    }
  }
  return out;
}

// The policies that judge the target: those that would run for it (--policy or all that
// apply); for a victim, those that would run for some pending preemptor.
std::vector<const policy::Entry*> policies_for(const ExplainOptions& o, const model::Snapshot& snap,
                                               const Subject& s, scenario::AdviseGoal goal) {
  if (goal != scenario::AdviseGoal::save) {
    return chosen_policies(o, snap, s, false);
  }
  std::vector<const policy::Entry*> out;
  for (const policy::Entry& e : policy::all()) {
    const bool named = o.policies.empty() ||
                       std::find(o.policies.begin(), o.policies.end(), "all") != o.policies.end() ||
                       std::find(o.policies.begin(), o.policies.end(), e.name) != o.policies.end();
    if (named && !pending_for(o, snap, e).empty()) {
      out.push_back(&e);
    }
  }
  return out;
}

int run_advise(const AdviseOptions& o, const Streams& io) {
  const auto format = render::parse_format(o.explain.output);
  if (o.explain.inputs.files.empty()) {
    throw UsageError("advise needs a cluster dump: -f FILE");
  }
  const int given = int(!o.explain.victim.empty()) + int(!o.explain.pod.empty()) +
                    int(!o.explain.workload.empty()) + int(!o.explain.inputs.pod_files.empty());
  if (given != 1) {
    throw UsageError("advise needs exactly one of --victim, --pod, --pod-file or --workload");
  }
  const scenario::AdviseGoal goal = parse_goal(o);
  const model::Instant now = parse_now(o.explain.now);
  check_upstream(o.explain, io);
  auto loaded = load_inputs(o.explain.inputs, io);
  if (!loaded) {
    return k_exit_input;
  }
  model::Snapshot& snap = loaded->snapshot;
  const scenario::AdviseTarget target =
      o.explain.inputs.pod_files.empty()
          ? scenario::AdviseTarget{goal, resolve(o, snap, goal), {}, false}
          : manifest_target(*loaded, goal, now);
  const Subject subject{target.subject.pod, target.subject.workload};
  render::Advice advice;
  advice.goal = std::string(scenario::to_string(goal));
  advice.target = target.group.size() > 1
                      ? workload_name(snap, target)
                      : render::preemptor_name(snap, subject.pod, subject.workload);
  advice.now = now;
  advice.limit = o.limit;
  advice.notes = scenario::advise_assumptions();
  const auto flags = policy::parse_upstream(o.explain.upstream, nullptr);
  const policy::DumpLines dump = policy::dump_lines(snap);
  for (const policy::Entry* p : policies_for(o.explain, snap, subject, goal)) {
    const policy::Args args = parse_sets(o.explain.sets, p->plugin);
    const std::vector<scenario::PendingRef> pending = pending_for(o.explain, snap, *p);
    advice.pending = std::max(advice.pending, pending.size());
    const scenario::AdviseRun run{*p, args, policy::choose_line(*p, flags, dump), now};
    advice.results.push_back(scenario::advise(snap, run, target, pending));
  }
  render::render_advice(*format, advice, io.out);
  io.out.flush();
  release_at_exit(*loaded);
  return k_exit_ok;
}

}  // namespace

void add_advise(CLI::App& app, const Streams& io, int& exit_code) {
  auto o = std::make_shared<AdviseOptions>();
  ExplainOptions& e = o->explain;
  auto* cmd = app.add_subcommand(
      "advise",
      "the smallest changes that save a victim, let a pending pod fit or run, or admit a "
      "Kueue Workload: each found by search and checked on the edited cluster");
  cmd->footer(
      "Exactly one of --victim, --pod or --workload.\n"
      "Examples:\n"
      "  kpreempt advise -f dump.yaml --victim research/notebook-alice\n"
      "  kpreempt advise -f dump.yaml --pod ml/trainer-0 --goal fit\n"
      "  kpreempt advise -f dump.yaml --workload team-a/job-7 --goal admit");
  cmd->add_option("-f,--filename", e.inputs.files,
                  "cluster dump: YAML or JSON file, folder, or - for stdin (repeatable)");
  cmd->add_flag("-R,--recursive", e.inputs.recursive, "read folders given with -f recursively");
  add_cache_flags(*cmd, e.inputs);
  cmd->add_option("--victim", e.victim,
                  "a running pod, NAMESPACE/NAME (or workload/NAMESPACE/NAME for an admitted "
                  "Kueue Workload): what would keep every pending preemptor from evicting it");
  cmd->add_option("--pod", e.pod, "a pending pod, NAMESPACE/NAME: what lets it fit or run");
  cmd->add_option("--workload", e.workload,
                  "a pending Kueue Workload, NAMESPACE/NAME: what admits it");
  cmd->add_option("--pod-file", e.inputs.pod_files,
                  "a manifest not in the dump (a Pod, or a Deployment, StatefulSet, Job... whose "
                  "pods are placed one after another): what lets all of it fit or run")
      ->check(CLI::ExistingPath);
  cmd->add_option("--goal", o->goal,
                  "save (--victim), fit (without evicting anyone), place (a node, evicting if "
                  "it must; the default for --pod) or admit (the default for --workload)")
      ->check(CLI::IsMember({"save", "fit", "place", "admit"}));
  cmd->add_option("--policy", e.policies,
                  "policy to run (repeatable); all = every policy that applies (the default)")
      ->check(CLI::IsMember(policy_names()));
  cmd->add_option("--now", e.now, "evaluation time, RFC 3339 (default: the current time)");
  cmd->add_option("--set", e.sets, "policy argument KEY=VALUE (repeatable)");
  add_upstream_option(*cmd, e.upstream);
  cmd->add_option("--limit", o->limit, "suggestions per policy in text output (default 3)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("-o,--output", e.output, "text, json or yaml")
      ->check(CLI::IsMember({"text", "json", "yaml"}));
  cmd->callback([o, io, &exit_code] { exit_code = run_advise(*o, io); });
}

}  // namespace kpreempt::cli
