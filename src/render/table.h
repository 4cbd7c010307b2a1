// SPDX-License-Identifier: Apache-2.0
// Column-aligned plain-text tables for the text renderer.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace kpreempt::render {

class Table {
 public:
  explicit Table(std::vector<std::string> header) { m_rows.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
  bool empty() const { return m_rows.size() <= 1; }
  // Prints every row with `indent` spaces in front; the last column is never padded.
  void print(std::ostream& out, int indent) const;

 private:
  std::vector<std::vector<std::string>> m_rows;
};

}  // namespace kpreempt::render
