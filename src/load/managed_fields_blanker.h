// SPDX-License-Identifier: Apache-2.0
// Blanks metadata.managedFields in the items of a List laid out by kubectl, before parsing.
// `--show-managed-fields` doubles a dump and nothing reads those fields; blank lines cost the
// parser a byte each where the fields cost it a token each. Every line break is kept, so
// lines and columns of everything else stay exact.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <string_view>

namespace kpreempt::load {

class ManagedFieldsBlanker {
 public:
  enum class Format { yaml, json };
  explicit ManagedFieldsBlanker(Format format) : m_format(format) {}

  // Hands [data, data + n) to `emit(const char*, std::size_t)` as pieces, with the lines of
  // managedFields replaced by bare line breaks; nothing is copied but the line breaks. The
  // bytes must be whole lines (the last may lack its line break at the end of the input), in
  // input order across calls.
  template <typename Emit>
  void split(const char* data, std::size_t n, Emit&& emit) {
    const char* end = data + n;
    const char* kept = nullptr;  // start of the run of kept lines being collected
    std::size_t blank_lines = 0;
    auto flush_blanks = [&] {
      while (blank_lines > 0) {
        std::size_t k = blank_lines < k_breaks.size() ? blank_lines : k_breaks.size();
        emit(k_breaks.data(), k);
        blank_lines -= k;
      }
    };
    for (const char* r = data; r < end;) {
      const auto* nl = static_cast<const char*>(std::memchr(r, '\n', end - r));
      const char* line_end = nl != nullptr ? nl : end;
      if (decide({r, static_cast<std::size_t>(line_end - r)})) {
        if (kept != nullptr) {
          emit(kept, static_cast<std::size_t>(r - kept));
          kept = nullptr;
        }
        blank_lines += nl != nullptr ? 1 : 0;
      } else if (kept == nullptr) {
        flush_blanks();
        kept = r;
      }
      r = nl != nullptr ? nl + 1 : end;
    }
    if (kept != nullptr) {
      emit(kept, static_cast<std::size_t>(end - kept));
    }
    flush_blanks();
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

  static constexpr std::array<char, 1024> k_break_bytes = [] {
    std::array<char, 1024> a{};
    a.fill('\n');
    return a;
  }();
  static constexpr std::string_view k_breaks{k_break_bytes.data(), k_break_bytes.size()};

  Format m_format;
  bool m_skipping = false;
};

}  // namespace kpreempt::load
