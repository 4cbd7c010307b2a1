// SPDX-License-Identifier: Apache-2.0
// Blanks, before parsing, the values of fields no policy reads (the ones TreeBuilder prunes) in
// the items of a List laid out by kubectl. They are half of a dump without managed fields and
// three quarters of one with them; blank lines cost the parser a byte each where the fields
// cost it a token each. The key lines and every line break are kept, so the keys still read as
// empty and lines and columns of everything else stay exact. Only YAML: a blanked line is never
// parsed, so a syntax error on it goes unseen, and JSON's simdjson parse checks every byte
// about as fast as the lines could be blanked.
#pragma once

#include "load/pruned_fields.h"

#include <array>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace kpreempt::load {

class PrunedFieldsBlanker {
 public:
  // Hands [data, data + n) to `emit(const char*, std::size_t)` as pieces, with the lines of
  // the pruned fields' values replaced by bare line breaks; nothing is copied but the line breaks.
  // The bytes must be whole lines (the last may lack its line break at the end of the input), in
  // input order across calls. Each line is also handed to `check(std::string_view)` first, so
  // that a dump's lines are walked once: the line breaks counted, or nothing when `check`
  // refused a line.
  template <typename Emit, typename Check>
  std::optional<std::size_t> split(const char* data, std::size_t n, Emit&& emit, Check&& check) {
    const char* end = data + n;
    const char* kept = nullptr;  // start of the run of kept lines being collected
    std::size_t blank_lines = 0;
    std::size_t breaks = 0;
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
      const std::string_view line(r, static_cast<std::size_t>(line_end - r));
      if (!check(line)) {
        return std::nullopt;
      }
      breaks += nl != nullptr ? 1 : 0;
      if (decide(line)) {
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
    return breaks;
  }

  template <typename Emit>
  void split(const char* data, std::size_t n, Emit&& emit) {
    split(data, n, emit, [](std::string_view) { return true; });
  }

 private:
  static std::size_t indent_of(std::string_view line) {
    const std::size_t n = line.find_first_not_of(' ');
    return n == std::string_view::npos ? line.size() : n;
  }

  // "key" when the line is exactly `key:` at `indent` spaces (a block value follows).
  static std::string_view block_key(std::string_view line, std::size_t indent) {
    if (line.size() <= indent + 1 || indent_of(line) != indent || line.back() != ':' ||
        line[indent] == '-') {
      return {};
    }
    return line.substr(indent, line.size() - indent - 1);
  }

  // "key" when the line is `key:` or `key: value` at `indent` spaces, not a list entry.
  static std::string_view any_key(std::string_view line, std::size_t indent) {
    if (line.size() <= indent || line[indent] == '-') {
      return {};
    }
    const std::size_t colon = line.find(':', indent);
    if (colon == std::string_view::npos || (colon + 1 < line.size() && line[colon + 1] != ' ')) {
      return {};
    }
    return line.substr(indent, colon - indent);
  }

  // Whether the value of the `key:` line at `indent` spaces is pruned, in the section (item
  // key at 2 spaces) and field (section key at 4 spaces) the line belongs to.
  bool pruned_yaml(std::string_view key, std::size_t indent) const {
    if (indent == 4) {
      return (m_section == "metadata" && key == "managedFields") ||
             (m_section == "spec" && key == "volumes") ||
             (m_section == "status" && pruned::in(key, pruned::k_status));
    }
    // The keys of a container or container status after its first (that one shares the `- `
    // line).
    if (indent != 6) {
      return false;
    }
    return (m_section == "spec" && pruned::in(m_field, pruned::k_container_lists) &&
            pruned::in(key, pruned::k_container)) ||
           (m_section == "status" && pruned::in(m_field, pruned::k_container_status_lists) &&
            pruned::in(key, pruned::k_container_status));
  }

  bool decide(std::string_view line) {
    if (m_skip_indent != 0) {
      // Inside: deeper lines, blank lines, and a list's `- ` entries at the key's column.
      const std::size_t indent = indent_of(line);
      if (line.empty() || indent > m_skip_indent ||
          (indent == m_skip_indent && line.substr(indent).starts_with("- "))) {
        return true;
      }
      m_skip_indent = 0;
    }
    if (line.empty()) {
      return false;  // says nothing about where the next line is
    }
    const std::size_t indent = indent_of(line);
    if (indent == 0) {
      m_section = m_field = {};  // a new item (or the List's own keys)
    } else if (indent == 2) {
      m_section = block_key(line, 2);
      m_field = {};
    } else if (indent == 4 && !line.substr(4).starts_with("- ")) {
      m_field = block_key(line, 4);
    }
    if (indent == 6 && m_section == "status" &&
        pruned::in(m_field, pruned::k_container_status_lists) &&
        pruned::in(any_key(line, 6), pruned::k_container_status)) {
      // Most of a container status is one-line scalars (image, imageID, containerID...): the
      // key goes with its value, and so do continuation lines.
      m_skip_indent = 6;
      return true;
    }
    if (indent == 4 || indent == 6) {
      const std::string_view key = block_key(line, indent);
      if (!key.empty() && pruned_yaml(key, indent)) {
        m_skip_indent = indent;
      }
    }
    return false;
  }

  static constexpr std::array<char, 1024> k_break_bytes = [] {
    std::array<char, 1024> a{};
    a.fill('\n');
    return a;
  }();
  static constexpr std::string_view k_breaks{k_break_bytes.data(), k_break_bytes.size()};

  std::size_t m_skip_indent = 0;  // the indent of the pruned key being skipped, or 0
  // The item key (2 spaces) and section key (4 spaces) the current line is under,
  // copied: the lines that named them may be gone by the next call.
  std::string m_section, m_field;
};

}  // namespace kpreempt::load
