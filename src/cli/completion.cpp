// SPDX-License-Identifier: Apache-2.0
// `kpreempt completion SHELL` prints a shell completion script; the hidden `__complete`
// lists what the scripts offer: the policies, and the pods and workloads of the dumps on a
// command line being completed.
#include "cli/context.h"
#include "cli/subcommands.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/model/kueue.h"
#include "kpreempt/policy/policy.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <string_view>

namespace kpreempt::cli {

// Generated at configure time from completions/kpreempt.{bash,zsh,fish}, so the installed
// files and what this subcommand prints cannot drift apart. Empty for an unknown shell.
std::string_view completion_script(std::string_view shell);

namespace {

struct CompleteOptions {
  std::string what;  // policies, pods, victims or workloads
  Inputs inputs;
};

// A pod is a likely --pod when pending (explain refuses the others) and a likely --victim
// when running on a node; the shells keep this order, so the likely ones come first.
void list_pods(const model::Snapshot& snap, bool pending_first, std::ostream& out) {
  for (int pass = 0; pass < 2; ++pass) {
    for (const model::Pod& pod : snap.pods()) {
      bool bound = !pod.node_name.empty() && !pod.terminal();
      bool likely = pending_first ? pod.pending() : bound;
      if (likely == (pass == 0)) {
        out << pod.namespace_ << '/' << pod.name << '\n';
      }
    }
  }
}

void list_workloads(const model::Snapshot& snap, std::ostream& out) {
  const auto& workloads = snap.kueue().workloads;
  for (int pass = 0; pass < 2; ++pass) {
    for (const model::Workload& w : workloads) {
      if (w.admitted == (pass == 1)) {
        out << w.namespace_ << '/' << w.name << '\n';
      }
    }
  }
}

int run_complete(const CompleteOptions& o, const Streams& io) {
  if (o.what == "policies") {
    for (const policy::Entry& e : policy::all()) {
      io.out << e.name << '\n';
    }
    return k_exit_ok;
  }
  if (o.what == "upstream") {  // every POLICY=LINE --upstream accepts, newest line first
    for (const policy::Entry& e : policy::all()) {
      for (auto l = e.lines.rbegin(); l != e.lines.rend(); ++l) {
        io.out << e.name << '=' << policy::to_string(l->line) << '\n';
      }
    }
    return k_exit_ok;
  }
  if (o.inputs.files.empty()) {
    return k_exit_input;  // nothing to read names from; the shells offer nothing
  }
  // Diagnostics would land in the middle of the user's command line: drop them.
  std::ostream discard(nullptr);
  auto loaded = load_inputs(o.inputs, Streams{io.out, discard});
  if (!loaded) {
    return k_exit_input;
  }
  if (o.what == "workloads") {
    list_workloads(loaded->snapshot, io.out);
  } else {
    list_pods(loaded->snapshot, o.what == "pods", io.out);
  }
  return k_exit_ok;
}

void add_complete(CLI::App& app, const Streams& io, int& exit_code) {
  auto o = std::make_shared<CompleteOptions>();
  auto* cmd = app.add_subcommand("__complete", "names for the completion scripts");
  cmd->group("");  // not for people: hidden from --help
  cmd->add_option("WHAT", o->what,
                  "policies, upstream (POLICY=LINE pairs), pods (pending first), victims (bound "
                  "first) or workloads")
      ->required()
      ->check(CLI::IsMember({"policies", "upstream", "pods", "victims", "workloads"}));
  cmd->add_option("-f,--filename", o->inputs.files, "cluster dump (pods, victims, workloads)");
  cmd->add_flag("-R,--recursive", o->inputs.recursive, "read folders recursively");
  cmd->callback([o, io, &exit_code] { exit_code = run_complete(*o, io); });
}

}  // namespace

void add_completion(CLI::App& app, const Streams& io, int& exit_code) {
  auto shell = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("completion", "print the shell completion script for SHELL");
  cmd->add_option("SHELL", *shell, "bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  cmd->footer(
      "Load it into the current shell:\n"
      "  bash: source <(kpreempt completion bash)\n"
      "  zsh:  source <(kpreempt completion zsh)\n"
      "  fish: kpreempt completion fish | source");
  cmd->callback([shell, io, &exit_code] {
    io.out << completion_script(*shell);
    exit_code = k_exit_ok;
  });
  add_complete(app, io, exit_code);
}

}  // namespace kpreempt::cli
