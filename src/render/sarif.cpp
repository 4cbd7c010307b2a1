// SPDX-License-Identifier: Apache-2.0
#include "kpreempt/render/sarif.h"

#include <cctype>
#include <filesystem>
#include <string_view>
#include <system_error>

namespace kpreempt::render {

std::string sarif_uri(const std::string& file) {
  namespace fs = std::filesystem;
  if (file == "<stdin>") {
    return "stdin";
  }
  std::error_code ec;
  fs::path p = fs::proximate(fs::path(file), ec);
  std::string s = (ec ? fs::path(file) : p).generic_string();
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) ||
        std::string_view("-._~/").find(static_cast<char>(c)) != std::string_view::npos) {
      out += static_cast<char>(c);
    } else {
      static constexpr char k_hex[] = "0123456789ABCDEF";
      out += '%';
      out += k_hex[c >> 4];
      out += k_hex[c & 15];
    }
  }
  return out;
}

}  // namespace kpreempt::render
