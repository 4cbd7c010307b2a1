// SPDX-License-Identifier: Apache-2.0
// Buffered bytes from a FILE* or a memory buffer, shared by the format sniffing and the two
// event sources so that the bytes looked at to choose a format are not lost.
#pragma once

#include "load/file_region.h"

#include "kpreempt/diag.h"

#include <sys/types.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::load {

class ByteReader {
 public:
  ByteReader(std::FILE* file, std::string name, std::atomic<std::uint64_t>* progress = nullptr)
      : m_file(file), m_stage(Stage::file), m_progress(progress), m_name(std::move(name)) {
    m_buf.resize(k_chunk);
    m_chunk = m_cur = m_end = m_buf.data();
  }
  ByteReader(std::string_view data, std::string name)
      : m_chunk(data.data()),
        m_cur(data.data()),
        m_end(data.data() + data.size()),
        m_name(std::move(name)) {}

  // Bytes [begin, end) of `file` between `prefix` and `suffix`, read as if they were the whole
  // input: one part of a List split at item boundaries (parallel_list.cpp).
  struct Region {
    std::uint64_t begin = 0, end = 0;
    std::string prefix, suffix;
    bool yaml = false;  // lines checked by SplitGuard, pruned fields blanked
  };
  ByteReader(std::FILE* file, std::string name, Region region, std::atomic<std::uint64_t>* progress)
      : m_file(file), m_stage(Stage::prefix), m_progress(progress), m_name(std::move(name)) {
    // No read buffer: the bytes come from the region's windows.
    m_prefix = std::move(region.prefix);
    m_suffix = std::move(region.suffix);
    m_region.emplace(fileno(file), region.begin, region.end, region.yaml, progress);
  }
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
  // Shows `bytes` before the bytes not yet shown: a reader that gives up part-way hands what it
  // took, possibly changed, to another one. Only once the current window is spent.
  void unread(std::string bytes) {
    std::uint64_t at = offset();
    m_unread = std::move(bytes);
    m_chunk = m_cur = m_unread.data();
    m_end = m_chunk + m_unread.size();
    m_base = at >= m_unread.size() ? at - m_unread.size() : 0;
  }
  // For a Region: line breaks among its bytes read so far, and whether all were read.
  std::uint64_t file_newlines() const { return m_region ? m_region->newlines() : 0; }
  std::uint64_t file_counted() const { return m_region ? m_region->counted() : 0; }
  bool file_done() const { return m_stage == Stage::suffix || m_stage == Stage::done; }

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
    if (m_stage == Stage::prefix) {
      m_stage = Stage::file;
      if (!m_prefix.empty()) {
        return show(m_prefix.data(), m_prefix.size());
      }
    }
    if (m_stage == Stage::file && m_region) {
      if (std::string_view piece = m_region->next(); !piece.empty()) {
        return show(piece.data(), piece.size());
      }
      m_stage = Stage::suffix;
    }
    if (m_stage == Stage::file) {
      // The buffer is reused: the bytes shown so far must count before it is overwritten.
      m_base += static_cast<std::uint64_t>(m_end - m_chunk);
      m_chunk = m_cur = m_end = m_buf.data();
      std::size_t n = std::fread(m_buf.data(), 1, m_buf.size(), m_file);
      if (n == 0 && std::ferror(m_file) != 0) {
        throw InputError(SourceLoc{m_name, 0, 0},
                         std::string("cannot read: ") + std::strerror(errno));
      }
      if (n > 0) {
        if (m_progress != nullptr) {
          m_progress->fetch_add(n, std::memory_order_relaxed);
        }
        return show(m_buf.data(), n);
      }
      m_stage = Stage::suffix;
    }
    if (m_stage == Stage::suffix) {
      m_stage = Stage::done;
      if (!m_suffix.empty()) {
        return show(m_suffix.data(), m_suffix.size());
      }
    }
    return false;
  }
  bool show(const char* data, std::size_t n) {
    m_base += static_cast<std::uint64_t>(m_end - m_chunk);
    m_chunk = m_cur = data;
    m_end = data + n;
    return true;
  }

  enum class Stage { prefix, file, suffix, done };
  std::FILE* m_file = nullptr;
  Stage m_stage = Stage::done;  // a memory buffer has nothing to refill from
  std::string m_prefix, m_suffix, m_unread;
  std::optional<FileRegion> m_region;
  std::atomic<std::uint64_t>* m_progress = nullptr;
  std::vector<char> m_buf;
  const char* m_chunk = nullptr;  // start of the buffered bytes
  const char* m_cur = nullptr;
  const char* m_end = nullptr;
  std::uint64_t m_base = 0;  // offset of m_chunk in the input
  std::string m_name;
};

}  // namespace kpreempt::load
