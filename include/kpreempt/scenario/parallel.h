// SPDX-License-Identifier: Apache-2.0
// Runs independent policy decisions on a small thread pool: the snapshot is shared read-only
// while they run, and each result goes to its own slot.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace kpreempt::scenario {

// More threads than this only add memory: a policy run is CPU-bound and the snapshot is shared.
inline constexpr unsigned k_max_workers = 8;

// Calls fn(i) for every i in [0, n) on up to k_max_workers threads (this one among them);
// stops handing out work once `stop` is set. Rethrows the first error by index once every
// thread is done.
template <class Fn>
void parallel_for(std::size_t n, const std::atomic<bool>& stop, Fn fn) {
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < n && !stop.load(); i = next++) {
      try {
        fn(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  const auto workers = static_cast<unsigned>(std::min<std::size_t>({cores, k_max_workers, n}));
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no more threads: the ones running (and this one) finish the queue
    }
  }
  work();
  for (auto& t : pool) {
    t.join();
  }
  for (auto& e : errors) {
    if (e) {
      std::rethrow_exception(e);
    }
  }
}

}  // namespace kpreempt::scenario
