// SPDX-License-Identifier: Apache-2.0
// Column-aligned plain-text tables for the text renderer.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::render {

class Table {
 public:
  explicit Table(std::vector<std::string> header) { m_rows.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
  bool empty() const { return m_rows.size() <= 1; }
  // Prints every row with `indent` spaces in front; the last column is never padded. With a
  // `width` (0: unlimited) the last column is wrapped at spaces to fit it, its continuation
  // lines indented to the column, so a long DETAIL never runs past a terminal's edge.
  void print(std::ostream& out, int indent, std::size_t width = 0) const;

 private:
  std::vector<std::vector<std::string>> m_rows;
};

// Columns `text` takes on a terminal: UTF-8 continuation bytes take none.
std::size_t display_width(std::string_view text);

// `text` cut into lines of at most `width` columns, at spaces where it has any; a word longer
// than a line is cut where it must be.
std::vector<std::string> wrap(std::string_view text, std::size_t width);

}  // namespace kpreempt::render
