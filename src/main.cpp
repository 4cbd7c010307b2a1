// SPDX-License-Identifier: Apache-2.0
// Entry point: everything but the last-resort catch lives in cli::run.
#include "kpreempt/cli/cli.h"
#include "kpreempt/exit_code.h"

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  // Standard output buffers on its own rather than through stdio character by character: an
  // explanation of a big cluster is tens of megabytes. std::cerr stays tied to std::cout, so
  // messages still follow the output written before them.
  std::ios::sync_with_stdio(false);
  try {
    return kpreempt::cli::run(argc, argv, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "kpreempt: internal error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "kpreempt: internal error\n";
  }
  return kpreempt::k_exit_internal;
}
