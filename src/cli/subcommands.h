// SPDX-License-Identifier: Apache-2.0
// One add_ function per subcommand; app.cpp calls them all.
#pragma once

#include "cli/context.h"

#include <CLI/CLI.hpp>

namespace kpreempt::cli {

void add_explain(CLI::App& app, const Streams& io, int& exit_code);
void add_lint(CLI::App& app, const Streams& io, int& exit_code);
void add_check(CLI::App& app, const Streams& io, int& exit_code);
void add_matrix(CLI::App& app, const Streams& io, int& exit_code);
void add_diff(CLI::App& app, const Streams& io, int& exit_code);
void add_cascade(CLI::App& app, const Streams& io, int& exit_code);
void add_advise(CLI::App& app, const Streams& io, int& exit_code);
void add_snapshot(CLI::App& app, const Streams& io, int& exit_code);
void add_completion(CLI::App& app, const Streams& io, int& exit_code);  // and __complete

}  // namespace kpreempt::cli
