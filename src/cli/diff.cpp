// SPDX-License-Identifier: Apache-2.0
// `kpreempt diff`: the cluster with the base configuration and with the head configuration,
// every pending preemptor (and what-if manifest) explained on both, and what changed.
#include "kpreempt/render/diff.h"

#include "cli/context.h"
#include "cli/explain_modes.h"
#include "cli/subcommands.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/lint/lint.h"
#include "kpreempt/scenario/overlay.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <set>

namespace kpreempt::cli {
namespace {

struct DiffOptions {
  ExplainOptions explain;  // -f, -R, --pod-file, --policy, --set, --upstream, --now
  std::vector<std::string> base, head;
  std::string base_ref;
  std::vector<std::string> fail_on{"any"};
};

std::vector<scenario::ConfigInput> on_disk(const std::vector<std::string>& paths) {
  std::vector<scenario::ConfigInput> out;
  for (const std::string& p : paths) {
    out.push_back({p, std::nullopt});
  }
  return out;
}

std::vector<lint::Finding> lint_version(const scenario::ConfigVersion& v) {
  lint::Options opts;
  return lint::run(v.scanned, {}, opts, lint::select_rules(opts));
}

// Findings of head that base did not have, matched by rule, object and message.
std::vector<render::LintChange> new_findings(const std::vector<lint::Finding>& base,
                                             const std::vector<lint::Finding>& head) {
  std::set<std::tuple<std::string, std::string, std::string>> before;
  for (const lint::Finding& f : base) {
    before.emplace(f.rule, f.object, f.message);
  }
  std::vector<render::LintChange> out;
  for (const lint::Finding& f : head) {
    if (!before.contains({f.rule, f.object, f.message})) {
      out.push_back({f.rule, std::string(lint::to_string(f.severity)), f.object, f.message, f.loc});
    }
  }
  return out;
}

// One side: the cluster with `config` laid over it, every pending preemptor explained.
struct World {
  std::optional<Loaded> loaded;
  Batch batch;
};

std::optional<World> explain_world(const DiffOptions& o,
                                   const std::vector<scenario::ConfigInput>& config,
                                   const std::unordered_set<std::string>& replaced,
                                   model::Instant now, std::set<std::string>& printed,
                                   const Streams& io) {
  scenario::InputSpec spec;
  spec.files = o.explain.inputs.files;
  spec.recursive = o.explain.inputs.recursive;
  spec.pod_files = o.explain.inputs.pod_files;
  spec.overlay = config;
  spec.replaced = &replaced;
  std::vector<Diagnostic> diags;
  World w;
  w.loaded = scenario::load_inputs(spec, diags);
  // Both sides read the same cluster: a warning about it is printed once.
  std::vector<Diagnostic> fresh;
  for (const Diagnostic& d : diags) {
    if (printed.insert(format(d)).second) {
      fresh.push_back(d);
    }
  }
  print_diagnostics(fresh, io.err);
  if (any_error(diags)) {
    return std::nullopt;
  }
  const model::Snapshot& snap = w.loaded->snapshot;
  w.batch = explain_subjects(o.explain, snap, pending_subjects(snap), now, false, nullptr);
  return w;
}

bool fails(const DiffOptions& o, const render::Diff& d) {
  auto named = [&](std::string_view what) {
    return std::find(o.fail_on.begin(), o.fail_on.end(), what) != o.fail_on.end() ||
           std::find(o.fail_on.begin(), o.fail_on.end(), "any") != o.fail_on.end();
  };
  return (named("outcome") && d.outcome_changes() > 0) || (named("edges") && !d.edges.empty()) ||
         (named("new-victims") && d.victims_added() > 0) ||
         (named("victims") && (d.victims_added() > 0 || d.victims_removed() > 0)) ||
         (named("lint") && !d.new_findings.empty());
}

int run_diff(DiffOptions& o, const Streams& io) {
  const auto format = render::parse_diff_format(o.explain.output);
  if (!format) {
    throw UsageError("-o must be text, json, yaml, markdown, github, sarif or html");
  }
  for (const std::string& f : o.fail_on) {
    if (f != "any" && f != "none" && f != "outcome" && f != "victims" && f != "new-victims" &&
        f != "edges" && f != "lint") {
      throw UsageError(fmt::format(
          "--fail-on: unknown \"{}\" (any, none, outcome, victims, new-victims, edges, lint)", f));
    }
  }
  if (o.base_ref.empty() == o.base.empty()) {
    throw UsageError("give the base configuration with --base PATH or --base-ref REF");
  }
  for (const auto* paths : {&o.explain.inputs.files, &o.head, &o.base}) {
    if (std::find(paths->begin(), paths->end(), "-") != paths->end()) {
      // Both sides read the cluster and each version more than once.
      throw UsageError("diff reads its inputs twice: give files or folders, not - (stdin)");
    }
  }
  if (o.head.empty()) {
    throw UsageError("give the head configuration with --head PATH (or PATH...)");
  }
  const model::Instant now = parse_now(o.explain.now);
  check_upstream(o.explain, io);
  std::vector<Diagnostic> diags;
  const std::vector<scenario::ConfigInput> head_in = on_disk(o.head);
  const std::vector<scenario::ConfigInput> base_in =
      o.base_ref.empty()
          ? on_disk(o.base)
          : scenario::config_from_git(o.base_ref, o.head, o.explain.inputs.recursive, diags);
  const bool recursive = o.explain.inputs.recursive;
  scenario::ConfigVersion base = scenario::read_config(base_in, recursive, diags);
  scenario::ConfigVersion head = scenario::read_config(head_in, recursive, diags);
  print_diagnostics(diags, io.err);
  if (any_error(diags)) {
    return k_exit_input;
  }
  // Each side reads the versions again: what was said of them is not said twice.
  std::set<std::string> printed;
  for (const Diagnostic& d : diags) {
    printed.insert(kpreempt::format(d));
  }
  const std::unordered_set<std::string> base_keys = base.keys();
  std::unordered_set<std::string> both = base_keys;
  for (const std::string& k : head.keys()) {
    both.insert(k);
  }
  std::optional<World> before = explain_world(o, base_in, base_keys, now, printed, io);
  std::optional<World> after = explain_world(o, head_in, both, now, printed, io);
  if (!before || !after) {
    return k_exit_input;
  }
  render::Diff diff;
  diff.config = scenario::config_changes(base, head);
  if (scenario::class_value_changed(base, head)) {
    diff.notes.push_back(
        "a PriorityClass's value is given to a pod when the pod is created: pods of the dump "
        "that hold spec.priority keep theirs, so a changed value shows on what-if manifests "
        "(--pod-file) and on pods without spec.priority");
  }
  render::compare_decisions(before->loaded->snapshot, before->batch.explanations,
                            after->loaded->snapshot, after->batch.explanations, diff);
  render::compare_edges(before->loaded->snapshot, after->loaded->snapshot, diff);
  diff.new_findings = new_findings(lint_version(base), lint_version(head));
  render::render_diff(*format, diff, io.out);
  io.out.flush();
  const bool none = std::find(o.fail_on.begin(), o.fail_on.end(), "none") != o.fail_on.end();
  release_at_exit(*before);
  release_at_exit(*after);
  return !none && fails(o, diff) ? k_exit_findings : k_exit_ok;
}

}  // namespace

void add_diff(CLI::App& app, const Streams& io, int& exit_code) {
  auto o = std::make_shared<DiffOptions>();
  CLI::App* cmd =
      app.add_subcommand("diff",
                         "what a configuration change does to preemption: every pending preemptor "
                         "explained with the base and the head configuration");
  cmd->add_option("-f,--filename", o->explain.inputs.files,
                  "the running cluster: YAML or JSON file or folder (repeatable)")
      ->required();
  cmd->add_flag("-R,--recursive", o->explain.inputs.recursive,
                "read folders (of -f, --base and --head) recursively");
  cmd->add_option("--base", o->base,
                  "the configuration before the change: files or folders whose objects replace "
                  "the cluster's of the same identity (repeatable)");
  cmd->add_option("--base-ref", o->base_ref,
                  "read the base configuration from git: the --head paths at this revision");
  cmd->add_option("--head,HEAD", o->head,
                  "the configuration after the change: files or folders (repeatable)");
  cmd->add_option("--pod-file", o->explain.inputs.pod_files,
                  "what-if manifests explained on both sides too (repeatable)");
  cmd->add_option("--policy", o->explain.policies, "only these policies (repeatable)");
  cmd->add_option("--now", o->explain.now, "the time to decide at (RFC 3339; default: now)");
  cmd->add_option("--set", o->explain.sets, "policy argument KEY=VALUE (repeatable)");
  add_upstream_option(*cmd, o->explain.upstream);
  cmd->add_option("-o,--output", o->explain.output,
                  "text, json, yaml, markdown, github, sarif or html")
      ->capture_default_str();
  cmd->add_option("--fail-on", o->fail_on,
                  "exit 1 on these changes: outcome, victims, new-victims, edges, lint, any "
                  "(default) or none")
      ->delimiter(',');
  cmd->callback([o, &io, &exit_code] { exit_code = run_diff(*o, io); });
}

}  // namespace kpreempt::cli
