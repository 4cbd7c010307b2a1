// SPDX-License-Identifier: Apache-2.0
#include "support/text.h"

#include <regex>
#include <sstream>

namespace kpreempt::test {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    out.push_back(line);
  }
  return out;
}

std::set<std::string> long_flags(const std::string& help) {
  std::set<std::string> flags;
  const std::regex flag(R"((^|[\s,])(--[a-z][a-z0-9-]*))");
  for (const auto& line : lines(help)) {
    for (std::sregex_iterator it(line.begin(), line.end(), flag), end; it != end; ++it) {
      flags.insert((*it)[2]);
    }
  }
  return flags;
}

std::vector<std::string> subcommands(const std::string& help) {
  std::vector<std::string> names;
  bool in_list = false;
  const std::regex entry(R"(^  ([a-z][a-z-]*)\s)");
  for (const auto& line : lines(help)) {
    if (line.rfind("Subcommands:", 0) == 0) {
      in_list = true;
    } else if (std::smatch m; in_list && std::regex_search(line, m, entry)) {
      names.push_back(m[1]);
    }
  }
  return names;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

std::string without_one_namespace_note(const std::string& text) {
  std::string out;
  for (const std::string& line : lines(text)) {
    if (line.find("the dump looks partial (every pod on its nodes is in namespace") ==
        std::string::npos) {
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace kpreempt::test
