// SPDX-License-Identifier: Apache-2.0
// RapidJSON input stream over a ByteReader. Besides the bytes it keeps the line and the start
// of the current token, which RapidJSON's SAX callbacks do not report.
#pragma once

#include "load/byte_reader.h"
#include "load/sources.h"

#include "kpreempt/load/events.h"

#include <fmt/format.h>
#include <rapidjson/reader.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

namespace kpreempt::load {

// RapidJSON's Stream concept (Peek, Take, Tell; the Put side is unused). RapidJSON reads '\0'
// as the end of the input, so the end is a one-byte '\0' chunk.
class JsonInput {
 public:
  using Ch = char;

  // `at`, when given, says where in the whole input the reader's first byte is: the input is
  // read from there on, as after a byte order mark.
  JsonInput(ByteReader& in, const JsonResume* at) : m_in(in) {
    if (at != nullptr) {
      m_base = m_token_offset = at->offset;
      m_line = at->line;
      m_line_start = at->line_start;
      m_token_start = here();
    } else if (m_in.window().substr(0, 3) == "\xEF\xBB\xBF") {
      m_in.advance(3);  // offsets start after it, so columns are not shifted
    }
    load();
  }
  JsonInput(const JsonInput&) = delete;
  JsonInput& operator=(const JsonInput&) = delete;

  Ch Peek() const { return *m_cur; }
  Ch Take() {
    char c = *m_cur;
    if (++m_cur == m_end) [[unlikely]] {
      refill();
    }
    if (c == '\n') [[unlikely]] {
      ++m_line;
      m_line_start = offset();
    }
    return c;
  }
  std::size_t Tell() const { return static_cast<std::size_t>(offset()); }
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

  bool at_end() const { return m_eof; }
  // A read error met on the way, seen by RapidJSON as the end of the input.
  std::exception_ptr read_error() const { return m_read_error; }

  // Where the next byte is.
  Mark here() const { return mark_at(offset()); }
  // Where `offset` is; RapidJSON reports errors as offsets on the current line (strings hold no
  // raw line breaks, so an escape's offset is on it too).
  Mark mark_at(std::uint64_t offset) const {
    std::uint64_t column = offset >= m_line_start ? offset - m_line_start + 1 : 1;
    return Mark{m_line, static_cast<std::uint32_t>(column)};
  }
  // Where the token being parsed began. RapidJSON's iterative parser skips blanks right
  // before every token, so the end of the last skip is the start of the current token.
  Mark token_start() const { return m_token_start; }

  // RapidJSON's SkipWhitespace, done a chunk at a time; pretty-printed dumps are mostly
  // indentation.
  void skip_blanks() {
    for (;;) {
      const char* p = m_cur;
      for (; p != m_end; ++p) {
        char c = *p;
        if (c == '\n') {
          ++m_line;
          m_line_start = m_base + static_cast<std::uint64_t>(p - m_chunk) + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
          break;
        }
      }
      m_cur = p;
      if (p != m_end) {
        break;
      }
      refill();
    }
    m_token_start = here();
    m_token_offset = offset();
  }

 private:
  std::uint64_t offset() const { return m_base + static_cast<std::uint64_t>(m_cur - m_chunk); }

  void load() {
    std::string_view w;
    if (m_read_error == nullptr) {
      try {
        w = m_in.window();
      } catch (const InputError&) {
        m_read_error = std::current_exception();
      }
    }
    if (w.empty()) {
      m_eof = true;
      m_chunk = m_cur = &k_nul;
      m_end = &k_nul + 1;
      return;
    }
    m_chunk = m_cur = w.data();
    m_end = w.data() + w.size();
  }

  void refill() {
    if (m_eof) {
      m_cur = m_chunk;  // taking the final '\0' again takes nothing
      return;
    }
    auto size = static_cast<std::size_t>(m_end - m_chunk);
    m_base += size;
    m_in.advance(size);
    if (m_base - m_token_offset > k_max_token_bytes) [[unlikely]] {
      stop_endless_token();
      return;
    }
    load();
  }
  // RapidJSON holds a whole string before it hands it over, so an endless one would grow to
  // the size of the input; the tree builder's 1 MiB limit on a value is checked here too,
  // a chunk at a time, on the raw text (escapes make it up to six times the value).
  void stop_endless_token() {
    m_read_error = std::make_exception_ptr(
        InputError(SourceLoc{m_in.name(), m_token_start.line, m_token_start.column},
                   fmt::format("value is longer than the limit of 1 MiB (over {} MiB of JSON text "
                               "without an end)",
                               k_max_token_bytes >> 20)));
    m_eof = true;
    m_chunk = m_cur = &k_nul;
    m_end = &k_nul + 1;
  }

  static constexpr char k_nul = '\0';
  static constexpr std::uint64_t k_max_token_bytes = std::uint64_t{8} << 20;

  ByteReader& m_in;
  const char* m_chunk = nullptr;  // start of the buffered bytes
  const char* m_cur = nullptr;
  const char* m_end = nullptr;
  std::uint64_t m_base = 0;  // offset of m_chunk, counted after a byte order mark
  std::uint64_t m_line_start = 0;
  std::uint32_t m_line = 1;
  bool m_eof = false;
  Mark m_token_start{1, 1};
  std::uint64_t m_token_offset = 0;
  std::exception_ptr m_read_error;
};

}  // namespace kpreempt::load

RAPIDJSON_NAMESPACE_BEGIN
template <>
inline void SkipWhitespace(kpreempt::load::JsonInput& is) {
  is.skip_blanks();
}
RAPIDJSON_NAMESPACE_END
