// SPDX-License-Identifier: Apache-2.0
// `kpreempt explain`: load the dump, pick the preemptor(s), run the policies, render.
#include "cli/context.h"
#include "cli/explain_modes.h"
#include "cli/pager.h"
#include "cli/subcommands.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/model/go_parse.h"
#include "kpreempt/model/kueue.h"
#include "kpreempt/policy/args.h"
#include "kpreempt/policy/lines.h"
#include "kpreempt/render/render.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace kpreempt::cli {

model::Instant parse_now(const std::string& text) {
  if (text.empty()) {
    auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    auto secs = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
    return model::Instant{secs.count(), 0};
  }
  std::string why;
  auto t = model::parse_time(text, &why);
  if (!t) {
    throw UsageError(fmt::format("--now: \"{}\" is not an RFC 3339 time: {}", text, why));
  }
  return *t;
}

policy::Args parse_sets(const std::vector<std::string>& sets, std::string_view plugin) {
  model::StringMap settings;
  for (const auto& s : sets) {
    settings.push_back(policy::split_setting(s));
  }
  return policy::args_for(plugin, settings);
}

namespace {

// Every --set key must be read by some policy --policy names (all of them for "all"): a
// misspelt key would otherwise be ignored and the answer silently be the default one.
std::vector<const policy::Entry*> selected_entries(const ExplainOptions& o) {
  bool all = o.policies.empty() ||
             std::find(o.policies.begin(), o.policies.end(), "all") != o.policies.end();
  std::vector<const policy::Entry*> selected;
  for (const policy::Entry& e : policy::all()) {
    if (all || std::find(o.policies.begin(), o.policies.end(), e.name) != o.policies.end()) {
      selected.push_back(&e);
    }
  }
  return selected;
}

void check_set_keys(const ExplainOptions& o) {
  const std::vector<const policy::Entry*> selected = selected_entries(o);
  for (const auto& s : o.sets) {
    const std::string key = policy::split_setting(s).first;
    if (std::string problem = policy::unknown_key_problem(key, selected); !problem.empty()) {
      throw UsageError(fmt::format("--set: {}", problem));
    }
  }
}

}  // namespace

void check_upstream(const ExplainOptions& o, const Streams& io) {
  std::vector<std::string> warnings;
  const auto lines = policy::parse_upstream(o.upstream, &warnings);
  for (const std::string& w : warnings) {
    io.err << "kpreempt: warning: " << w << '\n';
  }
  // A gate value is checked against every line it would run at, so a bad one fails now.
  for (const policy::Entry* e : selected_entries(o)) {
    const policy::Args args = parse_sets(o.sets, e->plugin);
    const policy::LineInfo& line = e->nearest(policy::line_for(lines, *e));
    const policy::ReleaseLine at = line.gates_line.unset() ? line.line : line.gates_line;
    for (const policy::GateInfo& g : e->gates) {
      (void)policy::gate_enabled(e->gates, at, args, g.name);
    }
  }
}

void add_upstream_option(CLI::App& cmd, std::vector<std::string>& upstream) {
  std::string lines;
  for (const policy::Entry& e : policy::all()) {
    lines += fmt::format("{}{} {}", lines.empty() ? "" : "; ", e.name, policy::line_list(e));
  }
  cmd.add_option("--upstream", upstream,
                 fmt::format("POLICY=VERSION: mirror that upstream release line instead of the "
                             "newest (repeatable; {}); featureGates.NAME=true|false with --set "
                             "sets a gate of it",
                             lines));
}

std::vector<const policy::Entry*> chosen_policies(const ExplainOptions& o,
                                                  const model::Snapshot& snap,
                                                  const Subject& subject, bool lenient) {
  std::vector<const policy::Entry*> chosen;
  bool all = o.policies.empty() ||
             std::find(o.policies.begin(), o.policies.end(), "all") != o.policies.end();
  bool is_workload = subject.pod == model::k_none;
  for (const policy::Entry& e : policy::all()) {
    bool named = std::find(o.policies.begin(), o.policies.end(), e.name) != o.policies.end();
    if (named && is_workload && !e.takes_workloads && !lenient) {
      throw UsageError(fmt::format("policy {} explains pods, not Kueue Workloads", e.name));
    }
    bool fits_subject = is_workload ? e.takes_workloads : policy::applies(e, snap, subject.pod);
    if ((named && !lenient) || ((named || all) && fits_subject)) {
      chosen.push_back(&e);
    }
  }
  // A pod no policy's scheduler takes still gets one answer, saying so.
  if (chosen.empty() && all && !lenient && !is_workload) {
    chosen.push_back(&policy::all().front());
  }
  return chosen;
}

// Policy warnings go to stderr, each once however many preemptors or policies raised it;
// JSON and YAML keep them per decision as well.
void print_warnings(const std::vector<render::Explanation>& explanations, const Streams& io) {
  std::vector<std::string> seen;
  for (const auto& e : explanations) {
    for (const auto& d : e.decisions) {
      for (const auto& w : d.warnings) {
        if (std::find(seen.begin(), seen.end(), w) == seen.end()) {
          io.err << "kpreempt: warning: " << w << '\n';
          seen.push_back(w);
        }
      }
    }
  }
}

namespace {

void check_pending(const model::Pod& pod) {
  if (std::string problem = scenario::not_pending(pod, scenario::command_line_spelling());
      !problem.empty()) {
    throw UsageError(problem);
  }
}

std::vector<Subject> subjects(const ExplainOptions& o, const Loaded& loaded) {
  const model::Snapshot& snap = loaded.snapshot;
  std::vector<Subject> out;
  if (!o.pod.empty()) {
    const scenario::NameRef ref = split_ref(o.pod, "--pod");
    auto id = snap.find_pod(ref.namespace_, ref.name);
    if (!id) {
      throw_not_found(snap, ref, scenario::Looking::pending_pod);
    }
    out.push_back({*id, model::k_none});
  }
  for (const auto& ref : loaded.what_if_pods) {
    out.push_back({*snap.find_pod(ref.namespace_, ref.name), model::k_none});
  }
  for (const Subject& s : out) {
    check_pending(snap.pods()[s.pod]);
  }
  for (std::uint32_t id : loaded.what_if_workloads) {
    out.push_back({model::k_none, id});
  }
  if (!o.workload.empty()) {
    const scenario::NameRef ref = split_ref(o.workload, "--workload");
    auto id = model::find_workload(snap.kueue(), ref.namespace_, ref.name);
    if (!id) {
      throw_not_found(snap, ref, scenario::Looking::pending_workload);
    }
    const model::Workload& w = snap.kueue().workloads[*id];
    if (std::string problem = scenario::admitted_problem(w, scenario::command_line_spelling());
        !problem.empty()) {
      throw UsageError(problem);
    }
    out.push_back({model::k_none, *id});
  }
  return out;
}

// "skipped 1,204 objects of 7 kinds not read by any policy (ConfigMap 3, ...)", or "" when
// every object of the dump was read.
std::string skipped_note(const model::StringMap& skipped_kinds) {
  std::uint64_t total = 0;
  std::vector<std::string> kinds;
  for (const auto& [kind, count] : skipped_kinds) {
    total += model::go::parse_uint(count).value;
    kinds.push_back(kind + " " + count);
  }
  if (kinds.empty()) {
    return {};
  }
  std::string digits = std::to_string(total);
  for (std::size_t i = digits.size(); i > 3; i -= 3) {
    digits.insert(i - 3, ",");
  }
  return fmt::format("skipped {} object{} of {} kind{} not read by any policy ({})", digits,
                     total == 1 ? "" : "s", kinds.size(), kinds.size() == 1 ? "" : "s",
                     fmt::join(kinds, ", "));
}

// Each subject on its own against the snapshot; a subject's policies decide in parallel.
std::vector<render::Explanation> explain_each(const ExplainOptions& o, const model::Snapshot& snap,
                                              const std::vector<Subject>& chosen,
                                              model::Instant now) {
  std::vector<render::Explanation> explanations;
  const auto lines = policy::parse_upstream(o.upstream, nullptr);
  const policy::DumpLines dump = policy::dump_lines(snap);
  for (const Subject& s : chosen) {
    render::Explanation e{s.pod, s.workload, now, {}};
    // Policies are pure functions of the snapshot: each decides on its own thread.
    std::vector<std::future<policy::Decision>> decisions;
    for (const policy::Entry* p : chosen_policies(o, snap, s, false)) {
      decisions.push_back(std::async(std::launch::async, [&, p, s] {
        policy::Args args = parse_sets(o.sets, p->plugin);
        return policy::run(*p, policy::Input{snap, s.pod, now, args, s.workload, true},
                           policy::choose_line(*p, lines, dump));
      }));
    }
    for (auto& d : decisions) {
      e.decisions.push_back(d.get());
    }
    explanations.push_back(std::move(e));
  }
  return explanations;
}

int run_explain(const ExplainOptions& o, const Streams& io) {
  auto format = render::parse_format(o.output);
  if (o.codes) {
    render::render_codes(*format, io.out);
    return k_exit_ok;
  }
  if (o.inputs.files.empty()) {
    throw UsageError("explain needs a cluster dump: -f FILE (or --codes for the reason codes)");
  }
  model::Instant now = parse_now(o.now);
  check_set_keys(o);  // reject a bad --set or --upstream before the (possibly long) load
  check_upstream(o, io);
  int given = int(!o.pod.empty()) + int(!o.inputs.pod_files.empty()) + int(!o.workload.empty());
  if (o.all_pending && (given > 0 || !o.victim.empty())) {
    throw UsageError(
        "--all-pending cannot be combined with --pod, --pod-file, --workload or --victim");
  }
  if (!o.victim.empty() && given > 0) {
    throw UsageError("--victim cannot be combined with --pod, --pod-file or --workload");
  }
  if (o.sequential && !o.all_pending && o.inputs.pod_files.empty()) {
    throw UsageError(
        "--sequential goes with --all-pending (the pods of a --pod-file are always placed in "
        "sequence)");
  }
  if (o.all_pending) {
    return run_all_pending(o, now, io);
  }
  if (!o.victim.empty()) {
    return run_victim(o, now, io);
  }
  if (given != 1) {
    throw UsageError(
        "explain needs exactly one of --pod, --pod-file, --workload, --all-pending or --victim");
  }
  auto loaded = load_inputs(o.inputs, io);
  if (!loaded) {
    return k_exit_input;
  }
  std::vector<render::Explanation> explanations;
  const model::Snapshot& snap = loaded->snapshot;
  if (const std::string note = skipped_note(snap.skipped_kinds()); o.verbose && !note.empty()) {
    io.err << kpreempt::format(Diagnostic{Severity::note, {}, note}) << '\n';
  }
  if (const std::uint64_t merged = snap.merged_duplicates(); o.verbose && merged > 0) {
    io.err << kpreempt::format(Diagnostic{Severity::note,
                                          {},
                                          fmt::format("merged {} object{} read again unchanged",
                                                      merged, merged == 1 ? "" : "s")})
           << '\n';
  }
  const std::vector<Subject> chosen = subjects(o, *loaded);
  const bool tty = isatty(STDOUT_FILENO) == 1;
  const bool text = *format == render::Format::text || *format == render::Format::wide;
  const render::Style style{use_color(o.color, tty) && text, text ? output_width(tty) : 0};
  const std::string pager = pager_for(*format == render::Format::wide);
  if (chosen.size() > 1) {
    // A workload's pods, or several pod files: each placed after the ones before it.
    for (const Subject& s : chosen) {
      explanations.push_back(render::Explanation{s.pod, s.workload, now, {}});
    }
    const render::Sequence seq =
        explain_in_sequence(o, loaded->snapshot, explanations, false, true, true);
    print_warnings(explanations, io);
    with_pager(pager, io, [&](std::ostream& out) {
      render::render_sequence(*format, snap, explanations, seq, style, out);
    });
  } else {
    explanations = explain_each(o, snap, chosen, now);
    print_warnings(explanations, io);
    with_pager(pager, io,
               [&](std::ostream& out) { render::render(*format, snap, explanations, style, out); });
  }
  io.out.flush();
  release_at_exit(explanations);
  release_at_exit(*loaded);
  return k_exit_ok;
}

}  // namespace

std::vector<std::string> policy_names() {
  std::vector<std::string> names;
  for (const policy::Entry& e : policy::all()) {
    names.emplace_back(e.name);
  }
  names.emplace_back("all");
  return names;
}

void add_explain(CLI::App& app, const Streams& io, int& exit_code) {
  auto o = std::make_shared<ExplainOptions>();
  auto* cmd = app.add_subcommand(
      "explain",
      "show which pods a pending pod would preempt, and why; or, with --victim, who could "
      "preempt a running pod");
  cmd->footer(
      "Exactly one of --pod, --pod-file, --workload, --all-pending or --victim.\n"
      "Examples:\n"
      "  kpreempt explain -f dump.yaml --pod team-a/trainer-0\n"
      "  kpreempt explain -f dump.yaml --all-pending -o wide\n"
      "  kpreempt explain -f dump.yaml --victim research/notebook-bob");
  cmd->add_option("-f,--filename", o->inputs.files,
                  "cluster dump: YAML or JSON file, folder, or - for stdin (repeatable)");
  cmd->add_flag("-R,--recursive", o->inputs.recursive, "read folders given with -f recursively");
  add_cache_flags(*cmd, o->inputs);
  cmd->add_option("--pod", o->pod, "the pending pod to explain, NAMESPACE/NAME");
  cmd->add_option("--workload", o->workload, "a pending Kueue Workload to explain, NAMESPACE/NAME");
  cmd->add_flag(
      "--all-pending", o->all_pending,
      "explain every pending pod and every active Kueue Workload not yet admitted, each on "
      "its own against the same dump: one summary row per preemptor and policy "
      "(-o wide adds the victims; json/yaml give every explanation without its per-node "
      "verdicts)");
  cmd->add_flag("--sequential", o->sequential,
                "with --all-pending: decide the pending pods and workloads in queue order "
                "(priority, then creation), each after the decisions before it took effect: "
                "placed pods bound, victims gone");
  cmd->add_option("--victim", o->victim,
                  "a running pod, NAMESPACE/NAME: which pending pods or workloads would evict "
                  "it, and which PriorityClasses could under each policy; when its eviction is "
                  "under way (terminating, or DisruptionTarget PreemptionByScheduler), the "
                  "pending pod whose decision explains it. Also an admitted or evicted Kueue "
                  "Workload (its preemptor found by the UID Kueue's Preempted condition names), "
                  "or the Job or other object owning one; workload/NAMESPACE/NAME picks the "
                  "Workload when a Pod has the same name");
  cmd->add_option("--pod-file", o->inputs.pod_files,
                  "a Pod manifest not in the dump: what if it were submitted now; a workload's "
                  "pods are placed one after another, each after the ones before it")
      ->check(CLI::ExistingPath);
  cmd->add_option("--policy", o->policies,
                  "policy to run (repeatable); all = every policy that applies (the default)")
      ->check(CLI::IsMember(policy_names()));
  cmd->add_option("--now", o->now, "evaluation time, RFC 3339 (default: the current time)");
  cmd->add_option("--set", o->sets,
                  "policy argument KEY=VALUE, e.g. "
                  "DefaultPreemption.minCandidateNodesPercentage=20 (repeatable)");
  add_upstream_option(*cmd, o->upstream);
  cmd->add_option("-o,--output", o->output, "text, wide, json, yaml or html")
      ->check(CLI::IsMember({"text", "wide", "json", "yaml", "html"}));
  cmd->add_option("--color", o->color, "auto, always or never (NO_COLOR is honoured)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_flag("--codes", o->codes,
                "list every reason code the answers use, with its meaning, and exit");
  cmd->add_flag("-v,--verbose", o->verbose,
                "also note the objects of the dump that no policy reads, by kind");
  cmd->callback([o, io, &exit_code] { exit_code = run_explain(*o, io); });
}

}  // namespace kpreempt::cli
