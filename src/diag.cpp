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

// Longest quoted value a message echoes whole: a message about a file that is not what it
// should be (a scenario naming /etc/passwd) must not print the file.
constexpr std::size_t k_max_quoted = 80;

// The message with every "quoted value" longer than k_max_quoted cut to an excerpt of its
// first line.
std::string cap_quoted(const std::string& message) {
  std::string out;
  std::size_t pos = 0;
  while (pos < message.size()) {
    std::size_t open = message.find('"', pos);
    std::size_t close = open == std::string::npos ? open : message.find('"', open + 1);
    if (close == std::string::npos) {
      out.append(message, pos, std::string::npos);
      break;
    }
    out.append(message, pos, open + 1 - pos);
    out += excerpt(std::string_view(message).substr(open + 1, close - open - 1));
    out += '"';
    pos = close + 1;
  }
  return out;
}

}  // namespace

std::string excerpt(std::string_view value) {
  std::string_view line = value.substr(0, value.find('\n'));
  if (line.size() <= k_max_quoted && line.size() == value.size()) {
    return std::string(value);
  }
  return fmt::format("{}...", line.substr(0, std::min(line.size(), k_max_quoted - 20)));
}

bool any_error(const std::vector<Diagnostic>& diags) {
  return std::any_of(diags.begin(), diags.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::error; });
}

std::string format(const Diagnostic& d) {
  const SourceLoc& loc = d.loc;
  const std::string_view word = severity_word(d.severity);
  if (d.message.size() > k_max_quoted) {
    Diagnostic capped{d.severity, d.loc, cap_quoted(d.message)};
    if (capped.message != d.message) {
      return format(capped);
    }
  }
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
