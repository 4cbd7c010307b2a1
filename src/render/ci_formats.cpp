// SPDX-License-Identifier: Apache-2.0
#include "kpreempt/render/ci_formats.h"

#include "kpreempt/diag.h"

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

std::string github_escape(std::string_view raw, bool property) {
  std::string out;
  for (char c : printable(raw)) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace kpreempt::render
