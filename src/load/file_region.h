// SPDX-License-Identifier: Apache-2.0
// One part of a big file, read with pread(2) one window of whole lines at a time. Not a memory
// map: a file truncated under a map kills the process with SIGBUS, where a short read here is
// an error the caller can report ("changed while being read").
#pragma once

#include "load/line_breaks.h"
#include "load/pruned_fields_blanker.h"
#include "load/split_guard.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::load {

// Thrown when the file ends before the region does, or cannot be read: it changed under us.
struct FileChanged {};
// Thrown when the region holds something only the one-thread read handles exactly.
struct NotSplittable {};

class FileRegion {
 public:
  // Bytes [begin, end) of the open file `fd`; YAML has its lines checked and its pruned
  // fields blanked.
  FileRegion(int fd, std::uint64_t begin, std::uint64_t end, bool yaml,
             std::atomic<std::uint64_t>* progress)
      : m_fd(fd), m_pos(begin), m_end(end), m_progress(progress) {
    if (yaml) {
      m_yaml.emplace();
    }
  }

  // The next piece of input; empty at the end. Pieces stay valid until the next call after
  // the last piece of a window.
  std::string_view next() {
    while (m_next == m_pieces.size()) {
      if (m_pos == m_end && m_taken == m_buf.size()) {
        return {};
      }
      load_window();
    }
    return m_pieces[m_next++];
  }
  std::uint64_t newlines() const { return m_newlines; }
  // Bytes counted into the progress so far.
  std::uint64_t counted() const { return m_counted; }
  bool done() const {
    return m_pos == m_end && m_taken == m_buf.size() && m_next == m_pieces.size();
  }

 private:
  static constexpr std::size_t k_window = std::size_t{1} << 20;
  // A line longer than this is no kubectl layout (scalars are limited to 1 MiB anyway): the
  // one-thread read streams it and reports it.
  static constexpr std::size_t k_max_line = std::size_t{4} << 20;

  // Reads on until the buffer holds at least one line break past what was taken, or the end.
  void fill() {
    m_buf.erase(0, m_taken);
    m_taken = 0;
    while (m_pos < m_end) {
      const std::size_t have = m_buf.size();
      const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(k_window, m_end - m_pos));
      m_buf.resize(have + want);
      read_fully(m_buf.data() + have, want);
      if (std::memchr(m_buf.data() + have, '\n', want) != nullptr) {
        return;
      }
      if (m_buf.size() > k_max_line) {
        throw NotSplittable{};
      }
    }
  }

  void read_fully(char* out, std::size_t size) {
    std::size_t got = 0;
    while (got < size) {
      ssize_t n = ::pread(m_fd, out + got, size - got, static_cast<off_t>(m_pos + got));
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        throw FileChanged{};
      }
      got += static_cast<std::size_t>(n);
    }
    m_pos += size;
  }

  // The next window of whole lines, as pieces.
  void load_window() {
    fill();
    std::size_t n = m_buf.size();
    if (m_pos != m_end) {
      const auto* last = static_cast<const char*>(memrchr(m_buf.data(), '\n', n));
      n = static_cast<std::size_t>(last - m_buf.data()) + 1;
    }
    const char* data = m_buf.data();
    m_pieces.clear();
    m_next = 0;
    if (m_yaml) {
      // A lone CR breaks lines for the YAML parser but not for the split.
      if (std::memchr(data, '\r', n) != nullptr) {
        throw NotSplittable{};
      }
      // One walk over the lines: the guard checks each one as the blanker decides it.
      const std::optional<std::size_t> breaks = m_yaml->blanker.split(
          data, n, [&](const char* p, std::size_t k) { m_pieces.emplace_back(p, k); },
          [&](std::string_view line) { return m_yaml->guard.line_ok(line); });
      if (!breaks) {
        throw NotSplittable{};
      }
      m_newlines += *breaks;
    } else {
      m_pieces.emplace_back(data, n);  // JSON, whole: simdjson checks every byte
      m_newlines += count_line_breaks(data, data + n);
    }
    if (m_progress != nullptr) {
      m_progress->fetch_add(n, std::memory_order_relaxed);
    }
    m_counted += n;
    m_taken = n;
  }

  int m_fd;
  std::uint64_t m_pos;  // file offset of the next byte to read
  std::uint64_t m_end;
  struct YamlLines {
    SplitGuard guard;
    PrunedFieldsBlanker blanker;
  };
  std::optional<YamlLines> m_yaml;
  std::atomic<std::uint64_t>* m_progress;
  std::string m_buf;        // bytes read and not yet handed out, from the start of a line
  std::size_t m_taken = 0;  // of m_buf, handed out as pieces
  std::uint64_t m_newlines = 0;
  std::uint64_t m_counted = 0;
  std::vector<std::string_view> m_pieces;
  std::size_t m_next = 0;
};

}  // namespace kpreempt::load
