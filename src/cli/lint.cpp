// SPDX-License-Identifier: Apache-2.0
// `kpreempt lint [priorityclasses|queues]`: walk the manifests, run the selected rules, write
// the report and a summary line; exit 2 when an input was not readable or nothing was linted,
// else 1 when a finding reaches --fail-on.
#include "kpreempt/lint/lint.h"

#include "cli/context.h"
#include "cli/subcommands.h"

#include "kpreempt/cache/snapshot_file.h"
#include "kpreempt/exit_code.h"
#include "kpreempt/lint/inputs.h"
#include "kpreempt/load/scan.h"
#include "kpreempt/model/go_parse.h"
#include "kpreempt/scenario/inputs.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <regex>

namespace kpreempt::cli {
namespace {

struct LintOptions {
  Inputs inputs;
  std::vector<std::string> baseline;
  std::vector<std::string> enable, disable, only, policies;
  std::string fail_on = "error";
  std::string kube_version;
  std::int64_t autoscaler_cutoff = -10;
  std::string output = "text";
  std::vector<std::string> excludes;
  bool allow_empty = false;
};

std::vector<std::string> split_ids(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const std::string& v : values) {
    std::size_t start = 0;
    while (start <= v.size()) {
      std::size_t comma = v.find(',', start);
      std::string item = v.substr(start, comma == std::string::npos ? comma : comma - start);
      if (!item.empty()) {
        out.push_back(item);
      }
      if (comma == std::string::npos) {
        break;
      }
      start = comma + 1;
    }
  }
  return out;
}

std::pair<int, int> parse_kube_version(const std::string& text) {
  static const std::regex k_version("v?([0-9]+)\\.([0-9]+)(\\.[0-9]+)?");
  std::smatch m;
  const bool matched = std::regex_match(text, m, k_version);
  const auto major = model::go::parse_int(matched ? m.str(1) : "", 32);
  const auto minor = model::go::parse_int(matched ? m.str(2) : "", 32);
  if (!major || !minor) {
    throw UsageError(fmt::format("--kube-version: \"{}\" is not a version like 1.29", text));
  }
  return {static_cast<int>(major.value), static_cast<int>(minor.value)};
}

lint::Options rule_options(const LintOptions& o, std::vector<lint::Group> groups) {
  lint::Options opts;
  opts.groups = std::move(groups);
  opts.policies = split_ids(o.policies);
  opts.only = split_ids(o.only);
  opts.enable = split_ids(o.enable);
  opts.disable = split_ids(o.disable);
  opts.autoscaler_cutoff = o.autoscaler_cutoff;
  if (!o.kube_version.empty()) {
    opts.kube_version = parse_kube_version(o.kube_version);
  }
  return opts;
}

// The groups whose rules run, for counting the objects they read.
std::vector<lint::Group> groups_of(const std::vector<const lint::Rule*>& selected) {
  std::vector<lint::Group> out;
  for (const lint::Rule* r : selected) {
    if (std::find(out.begin(), out.end(), lint::group_of(*r)) == out.end()) {
      out.push_back(lint::group_of(*r));
    }
  }
  return out;
}

lint::Summary summarise(lint::Gathered& input, lint::Gathered& baseline,
                        const std::vector<const lint::Rule*>& selected) {
  lint::Summary s;
  s.files = input.files;
  std::vector<lint::Group> groups = groups_of(selected);
  for (const load::ScannedObject& o : input.objects) {
    ++(lint::read_by(o, groups) ? s.objects : s.other_objects);
  }
  s.unreadable = std::move(input.unreadable);
  s.unreadable.insert(s.unreadable.end(), baseline.unreadable.begin(), baseline.unreadable.end());
  s.skipped = std::move(input.skipped);
  return s;
}

// Reads the -f arguments: snapshot files through the cache layer, everything else scanned.
lint::Gathered gather_all(const std::vector<std::string>& paths, const lint::WalkOptions& walk) {
  std::vector<std::string> texts;
  std::vector<std::string> snapshots;
  for (const std::string& path : paths) {
    (cache::looks_like_snapshot(path) ? snapshots : texts).push_back(path);
  }
  lint::Gathered out = lint::gather(texts, walk);
  for (const std::string& path : snapshots) {
    try {
      cache::SnapshotFile file = cache::read_snapshot_file(path);
      std::vector<load::ScannedObject> objects = lint::snapshot_objects(file.snapshot);
      out.objects.insert(out.objects.end(), std::make_move_iterator(objects.begin()),
                         std::make_move_iterator(objects.end()));
      ++out.files;
      out.notes.push_back(fmt::format(
          "{}: a snapshot file keeps decoded objects, not their text: findings point where each "
          "object was read; how a value was written (quoting, API versions, defaults spelled "
          "out, unknown keys) and controllers' pod templates are checked only on the YAML or "
          "JSON it was made from",
          path));
    } catch (const cache::SnapshotError& e) {
      out.unreadable.push_back({Severity::error, {path, 0, 0}, e.what()});
    }
  }
  return out;
}

int run_lint(const LintOptions& o, std::vector<lint::Group> groups, const Streams& io) {
  lint::Options opts = rule_options(o, std::move(groups));
  lint::Result result;
  result.selected = lint::select_rules(opts);
  result.fail_on = lint::parse_level(o.fail_on);
  lint::WalkOptions walk{o.inputs.recursive, o.excludes};
  lint::Gathered input = gather_all(o.inputs.files, walk);
  lint::Gathered baseline = gather_all(o.baseline, walk);
  opts.template_folders = input.template_folders;
  result.findings = lint::run(input.objects, baseline.objects, opts, result.selected);
  result.summary = summarise(input, baseline, result.selected);
  lint::write(*lint::parse_format(o.output), result, io.out);
  for (const Diagnostic& d : result.summary.unreadable) {
    io.err << format(d) << '\n';
  }
  for (const std::string& note : input.notes) {
    io.err << "kpreempt: note: " << note << '\n';
  }
  bool empty = result.summary.objects == 0 && !o.allow_empty;
  io.err << "kpreempt: " << (empty ? "error: " : "") << lint::summary_line(result)
         << (empty ? " (nothing to lint; --allow-empty accepts that)" : "") << '\n';
  if (empty || !result.summary.unreadable.empty()) {
    return k_exit_input;
  }
  return lint::gate_fails(result) ? k_exit_findings : k_exit_ok;
}

void add_options(CLI::App* cmd, LintOptions& o) {
  cmd->add_option("-f,--filename", o.inputs.files,
                  "manifests: YAML or JSON file, folder, or - for stdin (repeatable)");
  cmd->add_flag("-R,--recursive", o.inputs.recursive, "read folders given with -f recursively");
  cmd->add_option("--exclude", o.excludes,
                  "skip files and folders matching GLOB (path or name; repeatable)");
  cmd->add_flag("--allow-empty", o.allow_empty,
                "exit 0 when no input holds an object a selected rule reads");
  cmd->add_option("--baseline", o.baseline,
                  "objects as they exist now (cluster dump or previous revision; repeatable)");
  cmd->add_option("--enable", o.enable, "also run these rules (ids or names, comma separated)");
  cmd->add_option("--disable", o.disable, "do not run these rules");
  cmd->add_option("--only", o.only, "run only these rules");
  cmd->add_option("--fail-on", o.fail_on, "lowest severity that fails the run (default error)")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  cmd->add_option("--kube-version", o.kube_version, "target Kubernetes version X.Y (PC009)");
  cmd->add_option("--autoscaler-cutoff", o.autoscaler_cutoff,
                  "cluster-autoscaler expendable pods priority cutoff (PC017, default -10)");
  cmd->add_option("--policy", o.policies,
                  "only rules relevant to default, toleration, capacity, kueue, yunikorn or "
                  "koordinator (repeatable)");
  cmd->add_option("-o,--output", o.output, "text, json, sarif, github or junit")
      ->check(CLI::IsMember({"text", "json", "sarif", "github", "junit"}));
}

}  // namespace

void add_lint(CLI::App& app, const Streams& io, int& exit_code) {
  auto o = std::make_shared<LintOptions>();
  auto* cmd = app.add_subcommand("lint", "check PriorityClasses and queue configurations");
  cmd->require_subcommand(0, 1);
  add_options(cmd, *o);
  auto* pcs = cmd->add_subcommand("priorityclasses",
                                  "PriorityClasses, their users, toleration and YuniKorn "
                                  "annotations (PC, PT, YK)");
  auto* queues = cmd->add_subcommand("queues",
                                     "Kueue, YuniKorn queues.yaml and ElasticQuota "
                                     "(KQ, YQ, EQ)");
  pcs->fallthrough();
  queues->fallthrough();
  cmd->callback([o, io, pcs, queues, &exit_code] {
    if (o->inputs.files.empty()) {
      throw UsageError("lint needs at least one -f FILE|DIR|-");
    }
    // Bare `lint` runs both groups.
    bool both = !pcs->parsed() && !queues->parsed();
    std::vector<lint::Group> groups;
    groups.reserve(2);
    if (both || pcs->parsed()) {
      groups.push_back(lint::Group::priorityclasses);
    }
    if (both || queues->parsed()) {
      groups.push_back(lint::Group::queues);
    }
    exit_code = run_lint(*o, groups, io);
  });
}

}  // namespace kpreempt::cli
