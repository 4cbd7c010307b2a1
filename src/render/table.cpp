// SPDX-License-Identifier: Apache-2.0
#include "render/table.h"

#include <algorithm>

namespace kpreempt::render {
namespace {

// Below this many columns a wrapped last column is more ragged than useful: it keeps this
// many and lets the terminal wrap the rest.
constexpr std::size_t k_min_last_column = 24;

// Bytes of `text` that fill at most `columns` columns.
std::size_t prefix_bytes(std::string_view text, std::size_t columns) {
  std::size_t used = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (used == columns) {
        return i;
      }
      ++used;
    }
  }
  return text.size();
}

std::string trimmed(std::string text) {
  while (!text.empty() && text.back() == ' ') {
    text.pop_back();
  }
  return text;
}

// `head` then `text` wrapped to end by column `width`, continuation lines indented to `start`.
void print_wrapped(std::ostream& out, const std::string& head, std::size_t start,
                   std::string_view text, std::size_t width) {
  const std::vector<std::string> parts = wrap(text, width - start);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    out << trimmed((p == 0 ? head : std::string(start, ' ')) + parts[p]) << '\n';
  }
}

}  // namespace

std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::vector<std::string> wrap(std::string_view text, std::size_t width) {
  std::vector<std::string> lines;
  while (display_width(text) > width) {
    std::size_t cut = prefix_bytes(text, width);
    const std::size_t space = text.substr(0, cut + 1).rfind(' ');
    const bool at_space = space != std::string_view::npos && space > 0;
    if (at_space) {
      cut = space;
    }
    lines.emplace_back(text.substr(0, cut));
    text.remove_prefix(cut);
    while (!text.empty() && text.front() == ' ') {
      text.remove_prefix(1);
    }
  }
  if (!text.empty() || lines.empty()) {
    lines.emplace_back(text);
  }
  return lines;
}

void Table::print(std::ostream& out, int indent, std::size_t width) const {
  std::vector<std::size_t> widths;
  for (const auto& row : m_rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(row[i]));
    }
  }
  // Where the last column starts, and whether any row runs past the width.
  std::size_t start = static_cast<std::size_t>(indent);
  for (std::size_t i = 0; i + 1 < widths.size(); ++i) {
    start += widths[i] + 2;
  }
  const bool overflows = width > 0 && !widths.empty() && start + widths.back() > width;
  // Too little room right of the other columns: the last one goes under each row.
  const bool under = overflows && start + k_min_last_column > width;
  const std::size_t under_start = static_cast<std::size_t>(indent) + 4;
  for (const auto& row : m_rows) {
    std::string line(static_cast<std::size_t>(indent), ' ');
    for (std::size_t i = 0; i + 1 < row.size(); ++i) {
      line += row[i];
      line.append(widths[i] - display_width(row[i]) + 2, ' ');
    }
    const std::string last = row.empty() ? std::string() : row.back();
    if (!overflows) {
      out << trimmed(line + last) << '\n';
    } else if (!under) {
      print_wrapped(out, line, display_width(line), last, width);
    } else {
      out << trimmed(line) << '\n';
      print_wrapped(out, std::string(under_start, ' '), under_start, last,
                    std::max(width, under_start + k_min_last_column));
    }
  }
}

}  // namespace kpreempt::render
