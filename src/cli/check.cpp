// SPDX-License-Identifier: Apache-2.0
// `kpreempt check`: run scenario files (case.yaml over a cluster dump) and report which
// expectations hold, for CI. Exit 0 all passed, 1 any failed, 2 bad input.
#include "cli/context.h"
#include "cli/subcommands.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/scenario/report.h"
#include "kpreempt/scenario/runner.h"
#include "kpreempt/scenario/scenario.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <set>

namespace kpreempt::cli {
namespace {

struct CheckOptions {
  std::vector<std::string> paths;
  std::string output = "text";
  bool allow_outside = false;
};

void print_errors(const std::vector<Diagnostic>& diags, std::ostream& err) {
  for (const Diagnostic& d : diags) {
    err << format(d) << '\n';
  }
}

// Every scenario once, even when two arguments overlap ("check testdata testdata/check").
std::vector<scenario::Scenario> collect(const std::vector<std::string>& paths, bool allow_outside,
                                        std::vector<Diagnostic>& diags) {
  std::vector<scenario::Scenario> all;
  std::set<std::filesystem::path> seen;
  for (const std::string& path : paths) {
    for (scenario::Scenario& s : scenario::discover(path, diags, allow_outside)) {
      std::error_code ec;
      auto canonical = std::filesystem::weakly_canonical(s.case_file, ec);
      if (seen.insert(ec ? std::filesystem::path(s.case_file) : canonical).second) {
        all.push_back(std::move(s));
      }
    }
  }
  return all;
}

model::Instant wall_clock() {
  auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  return model::Instant{std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count(), 0};
}

int run_check(const CheckOptions& o, const Streams& io) {
  auto format = scenario::parse_report_format(o.output);
  std::vector<Diagnostic> diags;
  std::vector<scenario::Scenario> scenarios = collect(o.paths, o.allow_outside, diags);
  if (!diags.empty()) {
    // A broken scenario file stops everything before anything runs, as a compiler would.
    print_errors(diags, io.err);
    return k_exit_input;
  }
  // Scenarios without `now` are evaluated at the current time, as `explain` does.
  scenario::Runner runner(wall_clock());
  std::vector<scenario::Result> results;
  for (const scenario::Scenario& s : scenarios) {
    results.push_back(runner.run(s, diags));
  }
  print_errors(diags, io.err);
  scenario::report(*format, results, io.out);
  bool any_error = std::any_of(results.begin(), results.end(),
                               [](const auto& r) { return r.status == scenario::Status::error; });
  bool any_failed = std::any_of(results.begin(), results.end(),
                                [](const auto& r) { return r.status != scenario::Status::passed; });
  return any_error ? k_exit_input : any_failed ? k_exit_findings : k_exit_ok;
}

}  // namespace

void add_check(CLI::App& app, const Streams& io, int& exit_code) {
  auto o = std::make_shared<CheckOptions>();
  auto* cmd = app.add_subcommand(
      "check", "run scenario files (case.yaml + cluster dump) and check their expectations");
  cmd->add_option("SCENARIO", o->paths,
                  "a case.yaml, a folder with case.yaml and cluster.yaml, or a folder tree "
                  "searched for them")
      ->required();
  cmd->add_option("-o,--output", o->output, "text, json or junit")
      ->check(CLI::IsMember({"text", "json", "junit"}));
  cmd->add_flag("--allow-outside", o->allow_outside,
                "let scenario files read cluster and podFile paths outside the folder searched "
                "(for a single case, the folder holding its case folder)");
  cmd->callback([o, io, &exit_code] { exit_code = run_check(*o, io); });
}

}  // namespace kpreempt::cli
