// SPDX-License-Identifier: Apache-2.0
// Rendering diagnostics the way compilers do, so editors can jump to the location.

#include "kpreempt/diag.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace kpreempt {
namespace {

std::string_view severity_word(Severity s) {
  switch (s) {
    case Severity::error:
      return "error";
    case Severity::warning:
      return "warning";
    case Severity::note:
      return "note";
  }
  return "error";
}

}  // namespace

bool any_error(const std::vector<Diagnostic>& diags) {
  return std::any_of(diags.begin(), diags.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::error; });
}

std::string format(const Diagnostic& d) {
  const SourceLoc& loc = d.loc;
  const std::string_view word = severity_word(d.severity);
  if (loc.file.empty()) {
    return fmt::format("kpreempt: {}: {}", word, d.message);
  }
  if (loc.line == 0) {
    return fmt::format("{}: {}: {}", loc.file, word, d.message);
  }
  if (loc.column == 0) {
    return fmt::format("{}:{}: {}: {}", loc.file, loc.line, word, d.message);
  }
  return fmt::format("{}:{}:{}: {}: {}", loc.file, loc.line, loc.column, word, d.message);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace kpreempt
