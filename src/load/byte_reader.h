// SPDX-License-Identifier: Apache-2.0
// Buffered bytes from a FILE* or a memory buffer, shared by the format sniffing and the two
// event sources so that the bytes looked at to choose a format are not lost.
#pragma once

#include "kpreempt/diag.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::load {

class ByteReader {
 public:
  ByteReader(std::FILE* file, std::string name) : m_file(file), m_name(std::move(name)) {
    m_buf.resize(k_chunk);
    m_chunk = m_cur = m_end = m_buf.data();
  }
  ByteReader(std::string_view data, std::string name)
      : m_chunk(data.data()),
        m_cur(data.data()),
        m_end(data.data() + data.size()),
        m_name(std::move(name)) {}
  ~ByteReader() {
    if (m_file != nullptr) {
      std::fclose(m_file);
    }
  }
  ByteReader(const ByteReader&) = delete;
  ByteReader& operator=(const ByteReader&) = delete;

  const std::string& name() const { return m_name; }
  bool from_memory() const { return m_file == nullptr; }

  // The unread bytes currently buffered; empty only at the end of the input.
  std::string_view window() {
    if (m_cur == m_end) {
      refill();
    }
    return {m_cur, static_cast<std::size_t>(m_end - m_cur)};
  }
  void advance(std::size_t n) { m_cur += n; }
  // -1 at the end of the input.
  int peek() {
    if (m_cur == m_end && !refill()) {
      return -1;
    }
    return static_cast<unsigned char>(*m_cur);
  }
  // Bytes consumed so far, counted from the start of the input.
  std::uint64_t offset() const { return m_base + static_cast<std::uint64_t>(m_cur - m_chunk); }

  // Copies up to `size` bytes into `out`; libyaml's read callback. 0 means the end.
  std::size_t read(char* out, std::size_t size) {
    std::string_view w = window();
    std::size_t n = w.size() < size ? w.size() : size;
    std::memcpy(out, w.data(), n);
    m_cur += n;
    return n;
  }

 private:
  static constexpr std::size_t k_chunk = 1 << 16;

  bool refill() {
    if (m_file == nullptr) {
      return false;
    }
    m_base += static_cast<std::uint64_t>(m_end - m_chunk);
    std::size_t n = std::fread(m_buf.data(), 1, m_buf.size(), m_file);
    if (n == 0 && std::ferror(m_file) != 0) {
      throw InputError(SourceLoc{m_name, 0, 0},
                       std::string("cannot read: ") + std::strerror(errno));
    }
    m_chunk = m_cur = m_buf.data();
    m_end = m_buf.data() + n;
    return n > 0;
  }

  std::FILE* m_file = nullptr;
  std::vector<char> m_buf;
  const char* m_chunk = nullptr;  // start of the buffered bytes
  const char* m_cur = nullptr;
  const char* m_end = nullptr;
  std::uint64_t m_base = 0;  // offset of m_chunk in the input
  std::string m_name;
};

}  // namespace kpreempt::load
