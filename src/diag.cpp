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

// The length of the UTF-8 sequence starting at text[i], or 0 when it is not one (overlong
// forms and surrogates included).
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t n = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (n == 0 || lead > 0xF4 || i + n > text.size()) {
    return 0;
  }
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      return 0;
    }
  }
  const unsigned char second = byte(i + 1);
  if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0) ||
      (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90)) {
    return 0;
  }
  return n;
}

bool plain_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
}

}  // namespace

std::string printable(std::string_view text, bool keep_newlines) {
  if (plain_ascii(text)) {
    return std::string(text);
  }
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\t' || (c == '\n' && keep_newlines) || (c >= 0x20 && c < 0x7F)) {
      out += static_cast<char>(c);
      ++i;
    } else if (c < 0x80) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else if (std::size_t n = utf8_length(text, i); n == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else if (c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
      out += fmt::format("\\u00{:02x}", static_cast<unsigned char>(text[i + 1]));
      i += 2;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

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
  // One diagnostic is one line: a file name or a value cannot forge another, nor colours.
  const std::string message =
      printable(d.message.size() > k_max_quoted ? cap_quoted(d.message) : d.message);
  const std::string file = printable(loc.file);
  if (file.empty()) {
    return fmt::format("kpreempt: {}: {}", word, message);
  }
  if (loc.line == 0) {
    return fmt::format("{}: {}: {}", file, word, message);
  }
  if (loc.column == 0) {
    return fmt::format("{}:{}: {}: {}", file, loc.line, word, message);
  }
  return fmt::format("{}:{}:{}: {}: {}", file, loc.line, loc.column, word, message);
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
