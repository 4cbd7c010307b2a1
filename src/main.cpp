// SPDX-License-Identifier: Apache-2.0
// Entry point: everything but the last-resort catch lives in cli::run.
#include "kpreempt/cli/cli.h"
#include "kpreempt/exit_code.h"

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  try {
    return kpreempt::cli::run(argc, argv, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "kpreempt: internal error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "kpreempt: internal error\n";
  }
  return kpreempt::k_exit_internal;
}
