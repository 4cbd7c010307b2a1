// SPDX-License-Identifier: Apache-2.0
// Rendering diagnostics the way compilers do, so editors can jump to the location.

#include "kpreempt/diag.h"

#include <fmt/format.h>

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

}  // namespace kpreempt
