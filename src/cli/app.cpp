// SPDX-License-Identifier: Apache-2.0
// CLI11 wiring. Usage errors of any kind become exit code 2; help and --version exit 0.
#include "cli/context.h"
#include "cli/subcommands.h"

#include "kpreempt/cli/cli.h"
#include "kpreempt/exit_code.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace kpreempt::cli {

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"kpreempt: what-if analysis of Kubernetes preemption from a cluster dump",
               "kpreempt"};
  app.set_version_flag("--version", std::string("kpreempt ") + KPREEMPT_VERSION);
  app.require_subcommand(1);
  Streams io{out, err};
  int exit_code = k_exit_ok;
  add_explain(app, io, exit_code);
  add_lint(app, io, exit_code);
  add_check(app, io, exit_code);
  add_matrix(app, io, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e, out, err);
    return code == 0 ? k_exit_ok : k_exit_input;
  } catch (const UsageError& e) {
    err << "kpreempt: error: " << e.what() << '\n';
    return k_exit_input;
  } catch (const InputError& e) {
    err << format(Diagnostic{Severity::error, e.loc(), e.what()}) << '\n';
    return k_exit_input;
  }
  return exit_code;
}

}  // namespace kpreempt::cli
