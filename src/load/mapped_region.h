// SPDX-License-Identifier: Apache-2.0
// One part of a big file, read through a memory map: the parser gets the page cache's bytes
// without the copy read(2) makes, which on a multi-gigabyte JSON dump is a third of the work.
#pragma once

#include "load/pruned_fields_blanker.h"

#include "kpreempt/diag.h"

#include <sys/mman.h>
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

class MappedRegion {
 public:
  // Bytes [begin, end) of the open file `fd`; throws InputError when it cannot be mapped.
  MappedRegion(int fd, const std::string& name, std::uint64_t begin, std::uint64_t end,
               std::optional<PrunedFieldsBlanker> blanker, std::atomic<std::uint64_t>* progress)
      : m_blanker(blanker), m_progress(progress) {
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    const std::uint64_t at = begin / page * page;
    m_length = static_cast<std::size_t>(end - at);
    void* map = m_length == 0
                    ? nullptr
                    : mmap(nullptr, m_length, PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(at));
    if (map == MAP_FAILED) {
      throw InputError(SourceLoc{name, 0, 0}, std::string("cannot map: ") + std::strerror(errno));
    }
    m_map = static_cast<const char*>(map);
    m_pos = m_released = m_map + (begin - at);
    m_end = m_map + m_length;
    if (m_map != nullptr) {
      madvise(const_cast<char*>(m_map), m_length, MADV_SEQUENTIAL);
    }
  }
  ~MappedRegion() {
    if (m_map != nullptr) {
      munmap(const_cast<char*>(m_map), m_length);
    }
  }
  MappedRegion(const MappedRegion&) = delete;
  MappedRegion& operator=(const MappedRegion&) = delete;

  // The next piece of input; empty at the end.
  std::string_view next() {
    while (m_next == m_pieces.size()) {
      if (m_pos == m_end) {
        return {};
      }
      load_window();
    }
    return m_pieces[m_next++];
  }
  std::uint64_t newlines() const { return m_newlines; }
  bool done() const { return m_pos == m_end && m_next == m_pieces.size(); }

 private:
  static constexpr std::size_t k_window = std::size_t{1} << 20;
  static constexpr std::size_t k_release_every = std::size_t{64} << 20;

  // The next window of whole lines, as pieces.
  void load_window() {
    release_behind();
    const char* stop = m_pos + std::min<std::size_t>(k_window, m_end - m_pos);
    if (stop != m_end) {
      const auto* last = static_cast<const char*>(memrchr(m_pos, '\n', stop - m_pos));
      const auto* next =
          last != nullptr ? last : static_cast<const char*>(std::memchr(stop, '\n', m_end - stop));
      stop = next != nullptr ? next + 1 : m_end;
    }
    const auto n = static_cast<std::size_t>(stop - m_pos);
    m_newlines += static_cast<std::uint64_t>(std::count(m_pos, stop, '\n'));
    if (m_progress != nullptr) {
      m_progress->fetch_add(n, std::memory_order_relaxed);
    }
    m_pieces.clear();
    m_next = 0;
    if (m_blanker) {
      m_blanker->split(m_pos, n,
                       [&](const char* p, std::size_t k) { m_pieces.emplace_back(p, k); });
    } else {
      m_pieces.emplace_back(m_pos, n);
    }
    m_pos = stop;
  }

  // Pages already parsed leave the process's resident set (they stay in the page cache, and
  // come back from it should anything still look at them).
  void release_behind() {
    if (static_cast<std::size_t>(m_pos - m_released) < k_release_every) {
      return;
    }
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    auto from = reinterpret_cast<std::uintptr_t>(m_released) / page * page;
    auto to = reinterpret_cast<std::uintptr_t>(m_pos) / page * page;
    from = std::max(from, reinterpret_cast<std::uintptr_t>(m_map));
    if (to > from) {
      madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
    }
    m_released = m_pos;
  }

  const char* m_map = nullptr;
  std::size_t m_length = 0;
  const char* m_pos = nullptr;
  const char* m_end = nullptr;
  const char* m_released = nullptr;
  std::optional<PrunedFieldsBlanker> m_blanker;
  std::atomic<std::uint64_t>* m_progress;
  std::uint64_t m_newlines = 0;
  std::vector<std::string_view> m_pieces;
  std::size_t m_next = 0;
};

}  // namespace kpreempt::load
