// SPDX-License-Identifier: Apache-2.0
// Whether YAML lines can be cut apart and blanked line by line as the parallel List reader
// does. A quoted scalar or a flow collection may run over several lines (kubectl folds long
// quoted messages), but only over lines indented deeper than the one that opened it and than
// any line the blanker reasons about (6 spaces): a continuation line that looks like an item
// start or a pruned key would be read differently by the split and by the parser. Such a file,
// or one with a line longer than the reader takes, is read on one thread.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace kpreempt::load {

// The quote on `line` from `from` on that closes a scalar quoted with `quote`, or npos: in
// double quotes `\` escapes the next character, in single quotes `''` is one quote.
inline std::size_t closing_quote(std::string_view line, std::size_t from, char quote) {
  for (std::size_t i = from; i < line.size(); ++i) {
    const char c = line[i];
    if (quote == '"' && c == '\\') {
      ++i;
    } else if (c == quote) {
      if (quote == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {
        ++i;
      } else {
        return i;
      }
    }
  }
  return std::string_view::npos;
}

class SplitGuard {
 public:
  // `text` is whole lines, in input order across calls.
  bool lines_ok(std::string_view text) {
    while (!text.empty()) {
      const std::size_t nl = text.find('\n');
      const std::string_view line = text.substr(0, nl);
      text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
      if (!line_ok(line)) {
        return false;
      }
    }
    return true;
  }

  // One line, in input order.
  bool line_ok(std::string_view line) {
    const std::size_t indent = indent_of(line);
    const auto deep = static_cast<long>(indent);
    if (indent == line.size()) {
      return true;  // a blank line changes nothing
    }
    if (m_block_indent >= 0) {
      if (deep > m_block_indent) {
        return true;  // a block scalar's text: anything, indented deeper
      }
      m_block_indent = -1;
    }
    const bool continuing = m_open_indent >= 0;
    if (continuing && deep <= std::max(m_open_indent, k_deepest_structure)) {
      return false;
    }
    scan(line, indent);
    if (m_quote != 0 || m_depth > 0) {
      m_open_indent = continuing ? m_open_indent : deep;
    } else {
      m_open_indent = -1;
      if (!continuing && block_header(line)) {
        m_block_indent = deep;
      }
    }
    return true;
  }

 private:
  static constexpr long k_deepest_structure = 6;  // PrunedFieldsBlanker's deepest key indent
  static constexpr std::array<bool, 256> k_special = [] {
    std::array<bool, 256> t{};
    for (char c : std::string_view("\"'#[]{}")) {
      t[static_cast<unsigned char>(c)] = true;
    }
    return t;
  }();

  // Every byte of a gigabyte dump passes here: the indent and the plain text between special
  // bytes are skipped eight bytes at a time, in a 64-bit word (any byte order).
  static constexpr std::uint64_t k_ones = 0x0101010101010101ULL;

  static std::uint64_t word_at(const char* p) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, sizeof w);
    return w;
  }

  // Whether some byte of `w` is `c` (the classic zero-byte test on w ^ c...c).
  static constexpr bool has_byte(std::uint64_t w, unsigned char c) {
    const std::uint64_t x = w ^ (k_ones * c);
    return ((x - k_ones) & ~x & (k_ones * 0x80)) != 0;
  }

  // False when none of the eight bytes is special. Setting bit 5 of each byte folds '[' onto
  // '{' and ']' onto '}'; the control bytes it folds onto a special one (0x02, 0x03, 0x07)
  // only send the word to the byte-by-byte look.
  static constexpr bool maybe_special(std::uint64_t w) {
    const std::uint64_t f = w | (k_ones * 0x20);
    return has_byte(f, '"') || has_byte(f, '\'') || has_byte(f, '#') || has_byte(f, '{') ||
           has_byte(f, '}');
  }

  static std::size_t indent_of(std::string_view line) {
    std::size_t n = 0;
    while (n + 8 <= line.size() && word_at(line.data() + n) == k_ones * ' ') {
      n += 8;
    }
    while (n < line.size() && line[n] == ' ') {
      ++n;
    }
    return n;
  }

  // The first special byte of `line` from `i` on, or its size.
  static std::size_t next_special(std::string_view line, std::size_t i) {
    while (i + 8 <= line.size() && !maybe_special(word_at(line.data() + i))) {
      i += 8;
    }
    while (i < line.size() && !k_special[static_cast<unsigned char>(line[i])]) {
      ++i;
    }
    return i;
  }

  static bool token_start(std::string_view line, std::size_t i) {
    if (i == 0) {
      return true;
    }
    const char before = line[i - 1];
    return before == ' ' || before == '[' || before == '{' || before == ',';
  }

  // Walks one line from `from`, carrying the quote and bracket state over from the last line.
  // Outside quotes, the bytes that change nothing are skipped.
  void scan(std::string_view line, std::size_t from) {
    for (std::size_t i = from; i < line.size(); ++i) {
      if (m_quote != 0) {
        i = closing_quote(line, i, m_quote);
        if (i == std::string_view::npos) {
          return;  // still open at the end of the line
        }
        m_quote = 0;
        continue;
      }
      i = next_special(line, i);
      if (i == line.size()) {
        return;
      }
      const char c = line[i];
      if ((c == '"' || c == '\'') && token_start(line, i)) {
        m_quote = c;
      } else if (c == '#' && token_start(line, i)) {
        return;
      } else if ((c == '[' || c == '{') && token_start(line, i)) {
        ++m_depth;
      } else if ((c == ']' || c == '}') && m_depth > 0) {
        --m_depth;
      }
    }
  }

  // Whether the line ends in a block scalar header: `|` or `>`, with indicators.
  static bool block_header(std::string_view line) {
    const std::size_t end = line.find_last_not_of(" \t");
    if (end == std::string_view::npos) {
      return false;
    }
    std::size_t i = end;
    while (i > 0 && (line[i] == '-' || line[i] == '+' || (line[i] >= '1' && line[i] <= '9'))) {
      --i;
    }
    return (line[i] == '|' || line[i] == '>') && token_start(line, i);
  }

  char m_quote = 0;          // the quote a scalar left open, or 0
  int m_depth = 0;           // flow collections left open
  long m_open_indent = -1;   // the indent of the line that left them open, or -1
  long m_block_indent = -1;  // the indent of the line that opened a block scalar, or -1
};

}  // namespace kpreempt::load
