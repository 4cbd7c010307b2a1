// SPDX-License-Identifier: Apache-2.0
// Running kpreempt from tests: in-process through cli::run, or the real binary through a
// shell, from the project root so paths in its output are relative.
#pragma once

#include <string>
#include <vector>

namespace kpreempt::test {

struct Run {
  int code = -1;
  std::string out;  // stdout (the binary: with stderr appended when asked)
  std::string err;  // stderr, in-process runs only
};

// cli::run on {"kpreempt", args...}.
Run run_cli(const std::vector<std::string>& args);

// The built binary with a shell fragment of arguments; stderr is merged into `out` after
// stdout when `with_stderr`, dropped otherwise.
Run run_binary(const std::string& args, bool with_stderr);

// Runs a command with /bin/sh; `out` is its stdout.
Run run_shell(const std::string& command);

}  // namespace kpreempt::test
