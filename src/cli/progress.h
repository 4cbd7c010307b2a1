// SPDX-License-Identifier: Apache-2.0
// The load's progress line on stderr, for dumps big enough to make a user wonder.
#pragma once

#include "kpreempt/load/load.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace kpreempt::cli {

// Redraws `loading: 412 MB of 927 MB (44%), 71204 objects` a few times a second while alive,
// from one second after it was made, and only when stderr is a terminal; the line is erased
// when it goes away, so nothing of it stays in the output.
class LoadProgressLine {
 public:
  LoadProgressLine(const load::LoadProgress& progress, const std::vector<std::string>& files);
  ~LoadProgressLine();
  LoadProgressLine(const LoadProgressLine&) = delete;
  LoadProgressLine& operator=(const LoadProgressLine&) = delete;

 private:
  void run();
  std::string line() const;

  const load::LoadProgress& m_progress;
  std::uint64_t m_total = 0;  // 0 when unknown (stdin)
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_done = false;
  bool m_drawn = false;
  std::thread m_thread;
};

}  // namespace kpreempt::cli
