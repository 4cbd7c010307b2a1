// SPDX-License-Identifier: Apache-2.0
// The command line as a function, so tests can run it in-process.
#pragma once

#include <iosfwd>

namespace kpreempt::cli {

// Parses argv, runs the subcommand, writes results to `out` and diagnostics to `err`.
// Returns the process exit code (kpreempt/exit_code.h). Throws only on bugs.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace kpreempt::cli
