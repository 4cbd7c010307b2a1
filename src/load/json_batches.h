// SPDX-License-Identifier: Apache-2.0
// Batches of JSON events handed from the parsing thread to the reading one. A few batches are
// in flight at most, so memory stays constant whatever the input size.
#pragma once

#include "kpreempt/load/events.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kpreempt::load {

struct JsonEvent {
  EventType type = EventType::stream_end;
  ScalarStyle style = ScalarStyle::plain;
  std::uint32_t text_len = 0;
  std::uint64_t text_offset = 0;  // into JsonBatch::text
  Mark mark;
};

struct JsonBatch {
  // Handing events over one by one would cost a lock each; a batch amortises it.
  static constexpr std::size_t k_events = 8192;
  // A batch is also handed over early once its text is this large.
  static constexpr std::size_t k_text = std::size_t{1} << 20;

  std::vector<JsonEvent> events;
  std::string text;
  bool last = false;         // nothing follows
  std::exception_ptr error;  // thrown after the events of the last batch

  bool full() const { return events.size() >= k_events || text.size() >= k_text; }
  void clear() {
    events.clear();
    text.clear();
    last = false;
    error = nullptr;
  }
};

// A bounded queue of full batches plus a free list to recycle spent ones. Cancelling wakes
// and refuses the producer, which then stops parsing.
class JsonBatchQueue {
 public:
  static constexpr std::size_t k_capacity = 3;

  // Producer: queues `batch` (waiting for room) and replaces it with an empty one. False when
  // cancelled; `batch` is then left as it was.
  bool push(std::unique_ptr<JsonBatch>& batch) {
    std::unique_lock lock(m_mutex);
    m_room.wait(lock, [this] { return m_cancelled || m_full.size() < k_capacity; });
    if (m_cancelled) {
      return false;
    }
    m_full.push_back(std::move(batch));
    if (m_free.empty()) {
      batch = std::make_unique<JsonBatch>();
    } else {
      batch = std::move(m_free.back());
      m_free.pop_back();
    }
    lock.unlock();
    m_ready.notify_one();
    return true;
  }

  // Consumer: gives back a spent batch (may be null) and waits for the next full one.
  std::unique_ptr<JsonBatch> pop(std::unique_ptr<JsonBatch> spent) {
    std::unique_lock lock(m_mutex);
    if (spent != nullptr) {
      spent->clear();
      m_free.push_back(std::move(spent));
    }
    m_ready.wait(lock, [this] { return !m_full.empty(); });
    std::unique_ptr<JsonBatch> batch = std::move(m_full.front());
    m_full.pop_front();
    lock.unlock();
    m_room.notify_one();
    return batch;
  }

  void cancel() {
    {
      std::lock_guard lock(m_mutex);
      m_cancelled = true;
    }
    m_room.notify_all();
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::condition_variable m_room;
  std::deque<std::unique_ptr<JsonBatch>> m_full;
  std::vector<std::unique_ptr<JsonBatch>> m_free;
  bool m_cancelled = false;
};

}  // namespace kpreempt::load
