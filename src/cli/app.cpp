// SPDX-License-Identifier: Apache-2.0
// CLI11 wiring. Usage errors of any kind become exit code 2; help and --version exit 0.
#include "cli/context.h"
#include "cli/subcommands.h"

#include "kpreempt/cli/cli.h"
#include "kpreempt/exit_code.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace kpreempt::cli {
namespace {

// kubectl runs a plugin `kubectl-kpreempt` with argv[0] set to its path; usage and errors
// then name the command the user typed, `kubectl kpreempt`.
std::string program_name(int argc, const char* const* argv) {
  std::string_view path = argc > 0 && argv[0] != nullptr ? argv[0] : "";
  std::string_view base = path.substr(path.find_last_of('/') + 1);
  if (base.empty()) {
    return "kpreempt";
  }
  if (base.starts_with("kubectl-") && base.size() > 8) {
    return "kubectl " + std::string(base.substr(8));
  }
  return std::string(base);
}

}  // namespace

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  const std::string name = program_name(argc, argv);
  CLI::App app{"kpreempt: what-if analysis of Kubernetes preemption from a cluster dump", name};
  app.set_version_flag("--version", std::string("kpreempt ") + KPREEMPT_VERSION);
  app.require_subcommand(1);
  Streams io{out, err};
  int exit_code = k_exit_ok;
  add_explain(app, io, exit_code);
  add_lint(app, io, exit_code);
  add_check(app, io, exit_code);
  add_matrix(app, io, exit_code);
  add_diff(app, io, exit_code);
  add_cascade(app, io, exit_code);
  add_advise(app, io, exit_code);
  add_snapshot(app, io, exit_code);
  add_completion(app, io, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e, out, err);
    return code == 0 ? k_exit_ok : k_exit_input;
  } catch (const UsageError& e) {
    err << name << ": error: " << e.what() << '\n';
    return k_exit_input;
  } catch (const InputError& e) {
    err << format(Diagnostic{Severity::error, e.loc(), e.what()}) << '\n';
    return k_exit_input;
  }
  return exit_code;
}

}  // namespace kpreempt::cli
