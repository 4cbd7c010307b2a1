// SPDX-License-Identifier: Apache-2.0
// Reading program output in tests: lines, occurrences, and the long options a --help text lists.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace kpreempt::test {

std::vector<std::string> lines(const std::string& text);

// `text` without the lines of the one-namespace partial-dump note: small test dumps put their
// bound pods in one namespace on purpose.
std::string without_one_namespace_note(const std::string& text);

// How many times `what` occurs in `text`, overlapping occurrences included.
std::size_t occurrences(const std::string& text, const std::string& what);

// Long options in a --help text, with their dashes: {"--filename", "--pod", ...}.
std::set<std::string> long_flags(const std::string& help);

// The subcommand names a --help text lists under "Subcommands:".
std::vector<std::string> subcommands(const std::string& help);

}  // namespace kpreempt::test
