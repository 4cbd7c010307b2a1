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

// Texts are hashed once, by the caller; the sets hold the hash beside the text.
struct Probe {
  std::size_t hash;
  std::string_view text;
};
struct Entry {
  std::size_t hash;
  const std::string* text;
};

struct EntryHash {
  using is_transparent = void;
  std::size_t operator()(const Probe& p) const noexcept { return p.hash; }
  std::size_t operator()(const Entry& e) const noexcept { return e.hash; }
};

struct EntryEqual {
  using is_transparent = void;
  static std::string_view text(const Probe& p) { return p.text; }
  static std::string_view text(const Entry& e) { return *e.text; }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const noexcept {
    return a.hash == b.hash && text(a) == text(b);
  }
};

class Shard {
 public:
  const std::string* intern(const Probe& p) {
    std::lock_guard lock(m_mutex);
    if (auto it = m_index.find(p); it != m_index.end()) {
      return it->text;
    }
    const std::string* copy = &m_texts.emplace_back(p.text);
    m_index.insert(Entry{p.hash, copy});
    return copy;
  }

 private:
  std::mutex m_mutex;
  std::deque<std::string> m_texts;  // never moves an element: atoms point into it
  std::unordered_set<Entry, EntryHash, EntryEqual> m_index;
};

constexpr std::size_t k_shards = 64;

// Never destroyed: atoms live as long as the process, and freeing a large table at exit
// would only cost time.
std::array<Shard, k_shards>& shards() {
  static auto* table = new std::array<Shard, k_shards>;
  return *table;
}

// Each thread's last atoms by hash: most texts of a dump repeat within a few objects, and a
// hit here takes no lock.
struct Recent {
  std::size_t hash = 0;
  const std::string* text = nullptr;
};
constexpr std::size_t k_recent = 4096;
thread_local std::array<Recent, k_recent> t_recent;

}  // namespace

const std::string& Atom::empty_text() noexcept {
  static const std::string empty;
  return empty;
}

Atom::Atom(std::string_view s) {
  if (!s.empty()) {
    const std::size_t hash = std::hash<std::string_view>{}(s);
    Recent& recent = t_recent[hash % k_recent];
    if (recent.text != nullptr && recent.hash == hash && *recent.text == s) {
      m_s = recent.text;
      return;
    }
    m_s = shards()[(hash >> 12) % k_shards].intern(Probe{hash, s});
    recent = {hash, m_s};
  }
}

std::ostream& operator<<(std::ostream& out, Atom a) {
  return out << a.view();
}

}  // namespace kpreempt::model
