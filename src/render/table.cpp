// SPDX-License-Identifier: Apache-2.0
#include "render/table.h"

#include <algorithm>

namespace kpreempt::render {

void Table::print(std::ostream& out, int indent) const {
  std::vector<std::size_t> width;
  for (const auto& row : m_rows) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  for (const auto& row : m_rows) {
    std::string line(static_cast<std::size_t>(indent), ' ');
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) {
        line.append(width[i] - row[i].size() + 2, ' ');
      }
    }
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    out << line << '\n';
  }
}

}  // namespace kpreempt::render
