// SPDX-License-Identifier: Apache-2.0
// The process's table of interned texts, in shards so that the threads of a parallel read
// rarely wait on each other.
#include "kpreempt/model/atom.h"

#include <array>
#include <deque>
#include <mutex>
#include <ostream>
#include <unordered_set>

namespace kpreempt::model {
namespace {

struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
  }
  std::size_t operator()(const std::string* s) const noexcept { return (*this)(*s); }
};

struct TextEqual {
  using is_transparent = void;
  static std::string_view text(std::string_view s) { return s; }
  static std::string_view text(const std::string* s) { return *s; }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const noexcept {
    return text(a) == text(b);
  }
};

class Shard {
 public:
  const std::string* intern(std::string_view s) {
    std::lock_guard lock(m_mutex);
    if (auto it = m_index.find(s); it != m_index.end()) {
      return *it;
    }
    const std::string* copy = &m_texts.emplace_back(s);
    m_index.insert(copy);
    return copy;
  }

 private:
  std::mutex m_mutex;
  std::deque<std::string> m_texts;  // never moves an element: atoms point into it
  std::unordered_set<const std::string*, TextHash, TextEqual> m_index;
};

constexpr std::size_t k_shards = 64;

// Never destroyed: atoms live as long as the process, and freeing a large table at exit
// would only cost time.
std::array<Shard, k_shards>& shards() {
  static auto* table = new std::array<Shard, k_shards>;
  return *table;
}

}  // namespace

const std::string& Atom::empty_text() noexcept {
  static const std::string empty;
  return empty;
}

Atom::Atom(std::string_view s) : m_s(&empty_text()) {
  if (!s.empty()) {
    const std::size_t hash = TextHash{}(s);
    m_s = shards()[(hash >> 7) % k_shards].intern(s);
  }
}

std::ostream& operator<<(std::ostream& out, Atom a) { return out << a.view(); }

}  // namespace kpreempt::model
