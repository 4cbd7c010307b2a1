// SPDX-License-Identifier: Apache-2.0
// Wide output to a terminal goes through a pager, as git's does; tables fit the terminal.
#pragma once

#include "cli/context.h"

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

namespace kpreempt::cli {

// The pager to run: KPREEMPT_PAGER, else PAGER, else "less -FRX" (the values given, null when
// unset). "" when stdout is not a terminal, or the chosen value is empty or "cat".
std::string pager_command(bool stdout_tty, const char* kpreempt_pager, const char* pager);

// Columns text output may use: the terminal's (TIOCGWINSZ), else $COLUMNS, else 80 when stdout
// is a terminal; 0 (unlimited) when it is not.
std::size_t output_width(bool stdout_tty);

// Runs `render` into the pager `command` reads from its stdin, or straight into io.out when
// `command` is empty or cannot be started.
void with_pager(const std::string& command, const Streams& io,
                const std::function<void(std::ostream&)>& render);

// The pager for `wide` output under the environment ("" for other output).
std::string pager_for(bool wide);

}  // namespace kpreempt::cli
