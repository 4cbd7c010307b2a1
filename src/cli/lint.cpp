// SPDX-License-Identifier: Apache-2.0
// `kpreempt lint [priorityclasses|queues]`: scan the manifests, run the selected rules, write
// the report, and exit 1 when a finding reaches --fail-on.
#include "kpreempt/lint/lint.h"

#include "cli/context.h"
#include "cli/subcommands.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/load/scan.h"
#include "kpreempt/scenario/inputs.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

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
  if (!std::regex_match(text, m, k_version)) {
    throw UsageError(fmt::format("--kube-version: \"{}\" is not a version like 1.29", text));
  }
  return {std::stoi(m[1]), std::stoi(m[2])};
}

// Scans every path; prints the diagnostics and returns false when any is an error.
bool scan_all(const std::vector<std::string>& paths, bool recursive,
              std::vector<load::ScannedObject>& out, const Streams& io) {
  std::vector<Diagnostic> diags;
  scenario::refuse_snapshot_files(paths, "lint", diags);
  if (any_error(diags)) {
    print_diagnostics(diags, io.err);
    return false;
  }
  for (const std::string& p : paths) {
    load::scan_path(p, load::LoadOptions{recursive}, out, diags);
  }
  bool ok = true;
  for (const Diagnostic& d : diags) {
    io.err << format(d) << '\n';
    ok = ok && d.severity != Severity::error;
  }
  return ok;
}

int run_lint(const LintOptions& o, std::vector<lint::Group> groups, const Streams& io) {
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
  std::vector<const lint::Rule*> selected = lint::select_rules(opts);
  std::vector<load::ScannedObject> input, baseline;
  if (!scan_all(o.inputs.files, o.inputs.recursive, input, io) ||
      !scan_all(o.baseline, o.inputs.recursive, baseline, io)) {
    return k_exit_input;
  }
  std::vector<lint::Finding> findings = lint::run(input, baseline, opts, selected);
  lint::write(*lint::parse_format(o.output), findings, selected, io.out);
  std::optional<lint::Level> fail_on = lint::parse_level(o.fail_on);
  bool fail = fail_on && std::any_of(findings.begin(), findings.end(),
                                     [&](const auto& f) { return f.severity >= *fail_on; });
  return fail ? k_exit_findings : k_exit_ok;
}

void add_options(CLI::App* cmd, LintOptions& o) {
  cmd->add_option("-f,--filename", o.inputs.files,
                  "manifests: YAML or JSON file, folder, or - for stdin (repeatable)");
  cmd->add_flag("-R,--recursive", o.inputs.recursive, "read folders given with -f recursively");
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
