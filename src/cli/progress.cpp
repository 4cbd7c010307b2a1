// SPDX-License-Identifier: Apache-2.0
#include "cli/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

namespace kpreempt::cli {
namespace {

namespace fs = std::filesystem;

constexpr auto k_quiet_for = std::chrono::seconds(1);
constexpr auto k_redraw_every = std::chrono::milliseconds(200);

std::uint64_t input_bytes(const std::vector<std::string>& files) {
  std::uint64_t total = 0;
  for (const std::string& f : files) {
    std::error_code ec;
    if (f == "-") {
      return 0;
    }
    if (fs::is_directory(f, ec)) {
      for (fs::recursive_directory_iterator it(f, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code size_ec;
        if (it->is_regular_file(size_ec)) {
          total += it->file_size(size_ec);
        }
      }
    } else {
      std::uintmax_t size = fs::file_size(f, ec);
      total += ec ? 0 : size;
    }
  }
  return total;
}

void write_stderr(const std::string& text) {
  // The line is cosmetic: a failed write is not worth reporting.
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
}

}  // namespace

LoadProgressLine::LoadProgressLine(const load::LoadProgress& progress,
                                   const std::vector<std::string>& files)
    : m_progress(progress) {
  if (::isatty(STDERR_FILENO) == 0) {
    return;
  }
  m_total = input_bytes(files);
  m_thread = std::thread([this] { run(); });
}

LoadProgressLine::~LoadProgressLine() {
  if (!m_thread.joinable()) {
    return;
  }
  {
    std::lock_guard lock(m_mutex);
    m_done = true;
  }
  m_wake.notify_one();
  m_thread.join();
  if (m_drawn) {
    write_stderr("\r\033[K");
  }
}

std::string LoadProgressLine::line() const {
  double mb = static_cast<double>(m_progress.bytes.load(std::memory_order_relaxed)) / 1e6;
  std::uint64_t objects = m_progress.objects.load(std::memory_order_relaxed);
  if (m_total == 0) {
    return fmt::format("\rloading: {:.0f} MB, {} objects\033[K", mb, objects);
  }
  double total = static_cast<double>(m_total) / 1e6;
  return fmt::format("\rloading: {:.0f} MB of {:.0f} MB ({:.0f}%), {} objects\033[K", mb, total,
                     total > 0 ? 100.0 * mb / total : 0.0, objects);
}

void LoadProgressLine::run() {
  std::unique_lock lock(m_mutex);
  if (m_wake.wait_for(lock, k_quiet_for, [this] { return m_done; })) {
    return;
  }
  while (!m_done) {
    write_stderr(line());
    m_drawn = true;
    m_wake.wait_for(lock, k_redraw_every, [this] { return m_done; });
  }
}

}  // namespace kpreempt::cli
