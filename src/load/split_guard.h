// SPDX-License-Identifier: Apache-2.0
// Whether YAML lines can be cut apart and blanked line by line as the parallel List reader
// does. Line-based reasoning holds only where no scalar or flow collection spans a line break:
// a quoted scalar or a `[`/`{` left open at the end of a line may carry on with lines that look
// like item starts or pruned keys. kubectl prints neither; such a file is read on one thread.
#pragma once

#include <cstddef>
#include <string_view>

namespace kpreempt::load {

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

 private:
  static std::size_t indent_of(std::string_view line) {
    const std::size_t n = line.find_first_not_of(' ');
    return n == std::string_view::npos ? line.size() : n;
  }

  static bool token_start(std::string_view line, std::size_t i) {
    if (i == 0) {
      return true;
    }
    const char before = line[i - 1];
    return before == ' ' || before == '[' || before == '{' || before == ',';
  }

  bool line_ok(std::string_view line) {
    const std::size_t indent = indent_of(line);
    if (m_block_indent >= 0) {
      // The content of a block scalar: any text, as long as it is indented deeper.
      if (indent == line.size() || static_cast<long>(indent) > m_block_indent) {
        return true;
      }
      m_block_indent = -1;
    }
    return scan(line, indent);
  }

  // Walks one line outside any block scalar; false when a quote or bracket stays open.
  bool scan(std::string_view line, std::size_t indent) {
    int depth = 0;
    for (std::size_t i = indent; i < line.size(); ++i) {
      const char c = line[i];
      if ((c == '"' || c == '\'') && token_start(line, i)) {
        i = close_quote(line, i);
        if (i == std::string_view::npos) {
          return false;
        }
      } else if (c == '#' && token_start(line, i)) {
        break;
      } else if ((c == '[' || c == '{') && token_start(line, i)) {
        ++depth;
      } else if ((c == ']' || c == '}') && depth > 0) {
        --depth;
      }
    }
    if (depth != 0) {
      return false;
    }
    if (block_header(line)) {
      m_block_indent = static_cast<long>(indent);
    }
    return true;
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

  // The index of the closing quote of the one at `open`, or npos when the line ends first.
  static std::size_t close_quote(std::string_view line, std::size_t open) {
    const char q = line[open];
    for (std::size_t i = open + 1; i < line.size(); ++i) {
      if (q == '"' && line[i] == '\\') {
        ++i;
      } else if (line[i] == q) {
        if (q == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {
          ++i;
          continue;
        }
        return i;
      }
    }
    return std::string_view::npos;
  }

  long m_block_indent = -1;  // the indent of the line that opened a block scalar, or -1
};

}  // namespace kpreempt::load
