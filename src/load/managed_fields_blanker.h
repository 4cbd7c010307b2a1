// SPDX-License-Identifier: Apache-2.0
// Blanks metadata.managedFields in the items of a List laid out by kubectl, before parsing.
// `--show-managed-fields` doubles a dump and nothing reads those fields; blank lines cost the
// parser a byte each where the fields cost it a token each. Every line break is kept, so
// lines and columns of everything else stay exact.
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

namespace kpreempt::load {

class ManagedFieldsBlanker {
 public:
  enum class Format { yaml, json };
  explicit ManagedFieldsBlanker(Format format) : m_format(format) {}

  // Filters [data, data + n) in place and returns the new length. Chunks are given in input
  // order; a chunk may end inside a line.
  std::size_t filter(char* data, std::size_t n) {
    char* w = data;
    const char* r = data;
    const char* end = data + n;
    while (r < end) {
      const auto* nl = static_cast<const char*>(std::memchr(r, '\n', end - r));
      const char* line_end = nl != nullptr ? nl : end;
      bool blank = m_mid_line ? m_blanking : decide({r, static_cast<std::size_t>(line_end - r)});
      m_mid_line = nl == nullptr;
      m_blanking = blank;
      if (blank) {
        if (nl != nullptr) {
          *w++ = '\n';
        }
      } else {
        auto len = static_cast<std::size_t>(line_end - r) + (nl != nullptr ? 1 : 0);
        if (w != r) {
          std::memmove(w, r, len);
        }
        w += len;
      }
      r = nl != nullptr ? nl + 1 : end;
    }
    return static_cast<std::size_t>(w - data);
  }

 private:
  // kubectl prints an item at column 0 (YAML `- `) or 8 (JSON `{`), so an item's metadata
  // keys sit at 4 and 12 spaces; those are the only places the key is looked for.
  static constexpr std::string_view k_yaml_key = "    managedFields:";
  static constexpr std::string_view k_json_key = "            \"managedFields\": [";
  static constexpr std::string_view k_json_close = "            ]";

  bool decide(std::string_view line) {
    if (m_skipping) {
      if (m_format == Format::yaml) {
        // Inside: deeper lines, blank lines, and the list's `- ` entries at the key's column.
        if (line.empty() || line.starts_with("     ") || line.starts_with("    - ")) {
          return true;
        }
        m_skipping = false;
      } else {
        if (line.starts_with(k_json_close)) {
          m_skipping = false;
          return false;
        }
        return true;
      }
    }
    m_skipping = line == (m_format == Format::yaml ? k_yaml_key : k_json_key);
    return false;
  }

  Format m_format;
  bool m_skipping = false;
  bool m_mid_line = false;  // the previous chunk ended inside a line
  bool m_blanking = false;  // what was done to that line
};

}  // namespace kpreempt::load
