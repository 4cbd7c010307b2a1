// SPDX-License-Identifier: Apache-2.0
// Diagnostics: located messages about the user's input, and the exception that carries one.
#pragma once

#include "kpreempt/model/atom.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt {

// A position in an input file. line and column are 1-based; 0 means "unknown".
struct SourceLoc {
  model::Atom file;  // an atom: every object read from a file names it
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

enum class Severity { error, warning, note };

struct Diagnostic {
  Severity severity = Severity::error;
  SourceLoc loc;
  std::string message;  // "Pod team-a/x: spec.priority: expected an integer, got \"high\""
};

// "file:line:col: error: message" (the location part shrinks when unknown; no file gives
// "kpreempt: error: message"). A "quoted value" of the message longer than a short line is
// cut to an excerpt: input is echoed to point at it, never copied out whole.
std::string format(const Diagnostic& d);

// `value` itself when short and on one line, else the start of its first line and "...".
std::string excerpt(std::string_view value);

// `text` as it may be echoed to a terminal, a log or a CI annotation: control characters
// (C0 but tab, and newline when `keep_newlines`; DEL; C1) become \x1b or \u009b, and bytes
// that are not UTF-8 become \xff, so input cannot forge lines, colours or annotations.
std::string printable(std::string_view text, bool keep_newlines = false);

// Whether any of them is an error (the input is then refused).
bool any_error(const std::vector<Diagnostic>& diags);

// Levenshtein distance, for "did you mean" suggestions in messages.
std::size_t edit_distance(std::string_view a, std::string_view b);

// Thrown deep inside a decoder or parser for bad input; caught where the object (or the file)
// can be abandoned and turned into a Diagnostic. Never used for bugs.
class InputError : public std::runtime_error {
 public:
  InputError(SourceLoc loc, std::string message)
      : std::runtime_error(message), m_loc(std::move(loc)) {}
  const SourceLoc& loc() const { return m_loc; }

 private:
  SourceLoc m_loc;
};

// Thrown for a bad command line (unknown pod, bad --set, unknown policy): exit 2, no location.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kpreempt
