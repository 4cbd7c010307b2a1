// SPDX-License-Identifier: Apache-2.0
#include "support/run.h"

#include "kpreempt/cli/cli.h"

#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <sstream>

namespace kpreempt::test {

Run run_cli(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"kpreempt"};
  for (const auto& a : args) {
    argv.push_back(a.c_str());
  }
  std::ostringstream out, err;
  Run r;
  r.code = cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

Run run_shell(const std::string& command) {
  Run r;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) {
    r.out.append(buf.data(), n);
  }
  int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

Run run_binary(const std::string& args, bool with_stderr) {
  return run_shell(std::string("cd '" KPREEMPT_TESTDATA "/..' && '") + KPREEMPT_BINARY + "' " +
                   args + (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

}  // namespace kpreempt::test
