// SPDX-License-Identifier: Apache-2.0
// The two archives of the snapshot codec: one visit() per model struct lists its fields once,
// and the same list writes (Writer) and reads (Reader). Generic over strings, integers, bools,
// enums, vectors, optionals, pairs and maps.
#pragma once

#include "kpreempt/model/atom.h"
#include "kpreempt/model/quantity.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kpreempt::cache::codec {

// A payload that does not decode: the file is corrupt (or was written by a buggy kpreempt).
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Counts the members of an aggregate: the largest N for which T{x1..xN} compiles. visit()
// functions compare it with the fields they list, so a member added to a model struct and
// not to its visit() stops the build instead of being silently dropped from snapshot files.
struct AnyField {
  std::size_t index;
  template <class T>
  operator T&() const&& noexcept;  // never defined: only used unevaluated
};

template <class T, std::size_t... I>
constexpr bool constructible_from_n(std::index_sequence<I...>) {
  return requires {
    T{AnyField{I}...};
  };
}

template <class T, std::size_t N = 0>
constexpr std::size_t field_count() {
  if constexpr (N > 64) {
    return N;
  } else if constexpr (constructible_from_n<T>(std::make_index_sequence<N + 1>{})) {
    return field_count<T, N + 1>();
  } else {
    return N;
  }
}

template <class T, class Archive, class... F>
void fields(Archive& a, F&... f) {
  static_assert(field_count<T>() == sizeof...(F),
                "a model struct gained or lost a member: list it in its visit() in "
                "src/cache/codec_model.cpp and bump k_format_version");
  a(f...);
}

template <std::integral I>
I to_little(I v) {
  if constexpr (std::endian::native == std::endian::big && sizeof(I) > 1) {
    auto* b = reinterpret_cast<unsigned char*>(&v);
    for (std::size_t i = 0; i < sizeof(I) / 2; ++i) {
      std::swap(b[i], b[sizeof(I) - 1 - i]);
    }
  }
  return v;
}

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsPair : std::false_type {};
template <class A, class B>
struct IsPair<std::pair<A, B>> : std::true_type {};
template <class T>
struct IsMap : std::false_type {};
template <class K, class V>
struct IsMap<std::map<K, V>> : std::true_type {};

// A long vector stored as independent chunks, each with its byte length, so that a reader
// decodes the chunks on several threads. The chunk count is fixed, not the machine's: the
// same snapshot is the same bytes everywhere.
template <class T>
struct Chunked {
  std::vector<T>& v;
};
template <class T>
struct IsChunked : std::false_type {};
template <class T>
struct IsChunked<Chunked<T>> : std::true_type {};
inline constexpr std::size_t k_chunks = 8;

// Atoms are written as indexes into a table of their texts, which leads the payload: each text
// is then stored, checked and interned once however many objects repeat it.
struct AtomTable {
  std::unordered_map<const void*, std::uint32_t> index;
  std::vector<model::Atom> atoms;
};

class Writer {
 public:
  Writer() : m_atoms(&m_own_atoms) {}
  Writer(const Writer&) = delete;  // m_atoms may point into the writer itself
  Writer& operator=(const Writer&) = delete;
  template <class... T>
  void operator()(const T&... v) {
    (put(v), ...);
  }
  // The table of the atoms written, then what was written.
  std::string finish() {
    Writer table;
    table.count(m_atoms->atoms.size());
    for (const model::Atom& a : m_atoms->atoms) {
      table.put(a.str());
    }
    table.m_out.append(m_out);
    return std::move(table.m_out);
  }

 private:
  explicit Writer(AtomTable* atoms) : m_atoms(atoms) {}
  void raw(const void* p, std::size_t n) { m_out.append(static_cast<const char*>(p), n); }
  void count(std::size_t n) { put(static_cast<std::uint32_t>(n)); }

  template <class T>
  void put(const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
      m_out.push_back(v ? '\1' : '\0');
    } else if constexpr (std::is_integral_v<T>) {
      T le = to_little(v);
      raw(&le, sizeof le);
    } else if constexpr (std::is_enum_v<T>) {
      put(static_cast<std::underlying_type_t<T>>(v));
    } else if constexpr (std::is_same_v<T, std::string>) {
      count(v.size());
      raw(v.data(), v.size());
    } else if constexpr (std::is_same_v<T, model::Atom>) {
      auto [it, added] = m_atoms->index.try_emplace(
          v.identity(), static_cast<std::uint32_t>(m_atoms->atoms.size()));
      if (added) {
        m_atoms->atoms.push_back(v);
      }
      put(it->second);
    } else if constexpr (std::is_same_v<T, model::Quantity>) {
      // 128-bit milli-units as two halves, low first.
      const auto bits = static_cast<model::Quantity::UnsignedWide>(v.wide_milli());
      put(static_cast<std::uint64_t>(bits));
      put(static_cast<std::uint64_t>(bits >> 64));
    } else if constexpr (IsVector<T>::value || IsMap<T>::value) {
      count(v.size());
      for (const auto& e : v) {
        put(e);
      }
    } else if constexpr (IsOptional<T>::value) {
      put(v.has_value());
      if (v) {
        put(*v);
      }
    } else if constexpr (IsPair<T>::value) {
      put(v.first);
      put(v.second);
    } else if constexpr (IsChunked<T>::value) {
      put_chunked(v.v);
    } else {
      visit(*this, const_cast<T&>(v));  // visit() only reads through a Writer
    }
  }

  // The element count, then per chunk its element count and byte length, then the chunks.
  template <class T>
  void put_chunked(const std::vector<T>& v) {
    count(v.size());
    std::vector<std::string> chunks;
    for (std::size_t k = 0; k < k_chunks; ++k) {
      Writer w(m_atoms);
      const std::size_t from = v.size() * k / k_chunks;
      const std::size_t to = v.size() * (k + 1) / k_chunks;
      for (std::size_t i = from; i < to; ++i) {
        w.put(v[i]);
      }
      put(static_cast<std::uint32_t>(to - from));
      put(static_cast<std::uint64_t>(w.m_out.size()));
      chunks.push_back(std::move(w.m_out));
    }
    for (const std::string& c : chunks) {
      m_out.append(c);
    }
  }

  std::string m_out;
  AtomTable m_own_atoms;
  AtomTable* m_atoms;  // shared with the writers of chunks
};

// Well-formed UTF-8: no stray continuation bytes, overlong forms, surrogates or values past
// U+10FFFF.
inline bool valid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    std::uint64_t word = 0;
    if (end - p >= 8 && (std::memcpy(&word, p, 8), (word & 0x8080808080808080ULL) == 0)) {
      p += 8;  // eight ASCII bytes at once: most text in a dump is ASCII
      continue;
    }
    if (*p < 0x80) {
      ++p;
      continue;
    }
    int more = *p >= 0xF0 ? 3 : *p >= 0xE0 ? 2 : *p >= 0xC2 ? 1 : -1;
    if (more < 0 || *p > 0xF4 || end - p <= more) {
      return false;
    }
    const unsigned c0 = p[0], c1 = p[1];
    if ((c0 == 0xE0 && c1 < 0xA0) || (c0 == 0xED && c1 > 0x9F) || (c0 == 0xF0 && c1 < 0x90) ||
        (c0 == 0xF4 && c1 > 0x8F)) {
      return false;
    }
    for (int i = 1; i <= more; ++i) {
      if ((p[i] & 0xC0) != 0x80) {
        return false;
      }
    }
    p += more + 1;
  }
  return true;
}

class Reader {
 public:
  // Told of the bytes of each chunk once decoded (see Chunked), which are not read again.
  using Release = std::function<void(std::string_view)>;

  explicit Reader(std::string_view in, Release release = {})
      : m_p(in.data()), m_end(in.data() + in.size()), m_release(std::move(release)) {}
  Reader(const Reader&) = delete;  // m_atoms may point into the reader itself
  Reader& operator=(const Reader&) = delete;
  template <class... T>
  void operator()(T&... v) {
    (get(v), ...);
  }
  bool done() const { return m_p == m_end; }
  // Reads the atom table that leads a payload (see Writer::finish).
  void read_atoms() {
    m_own_atoms.clear();
    for (std::size_t n = count(); n > 0; --n) {
      std::string text;
      get(text);
      m_own_atoms.emplace_back(text);
    }
    m_atoms = &m_own_atoms;
  }

 private:
  const char* take(std::size_t n) {
    if (n > static_cast<std::size_t>(m_end - m_p)) {
      throw DecodeError("a value runs past the end of the payload");
    }
    const char* p = m_p;
    m_p += n;
    return p;
  }
  // Every element takes at least one byte, so a count above the bytes left is corrupt; this
  // keeps a flipped count from reserving gigabytes.
  std::size_t count() {
    std::uint32_t n = 0;
    get(n);
    if (n > static_cast<std::size_t>(m_end - m_p)) {
      throw DecodeError("a length exceeds the payload");
    }
    return n;
  }

  template <class T>
  void get(T& v) {
    if constexpr (IsChunked<T>::value) {
      get_chunked(v.v);
    } else if constexpr (IsVector<T>::value) {
      get_vector(v);
    } else if constexpr (IsMap<T>::value) {
      get_map(v);
    } else if constexpr (IsOptional<T>::value) {
      get_optional(v);
    } else if constexpr (IsPair<T>::value) {
      get(v.first);
      get(v.second);
    } else if constexpr (std::is_class_v<T> && !std::is_same_v<T, std::string> &&
                         !std::is_same_v<T, model::Atom> && !std::is_same_v<T, model::Quantity>) {
      get_struct(v);
    } else {
      get_scalar(v);
    }
  }

  template <class T>
  void get_scalar(T& v) {
    if constexpr (std::is_same_v<T, bool>) {
      char c = *take(1);
      if (c != '\0' && c != '\1') {
        throw DecodeError("a boolean is neither 0 nor 1");
      }
      v = c == '\1';
    } else if constexpr (std::is_integral_v<T>) {
      std::memcpy(&v, take(sizeof v), sizeof v);
      v = to_little(v);
    } else if constexpr (std::is_enum_v<T>) {
      std::underlying_type_t<T> u{};
      get(u);
      v = static_cast<T>(u);
      check_enum(v);
    } else if constexpr (std::is_same_v<T, std::string>) {
      // Checked like parsed input: the renderers rely on UTF-8 text.
      std::size_t n = count();
      v.assign(take(n), n);
      if (!valid_utf8(v)) {
        throw DecodeError("a string is not UTF-8");
      }
    } else if constexpr (std::is_same_v<T, model::Atom>) {
      std::uint32_t i = 0;
      get(i);
      if (i >= m_atoms->size()) {
        throw DecodeError("an atom index is out of range");
      }
      v = (*m_atoms)[i];
    } else {
      static_assert(std::is_same_v<T, model::Quantity>);
      std::uint64_t low = 0;
      std::uint64_t high = 0;
      get(low);
      get(high);
      const auto bits = (static_cast<model::Quantity::UnsignedWide>(high) << 64) | low;
      const auto milli = static_cast<model::Quantity::Wide>(bits);
      // The parser yields at most int64 whole units either way.
      constexpr model::Quantity::Wide k_limit =
          model::Quantity::Wide{std::numeric_limits<std::int64_t>::max()} * 1000;
      if (milli > k_limit || milli < -k_limit) {
        throw DecodeError("a quantity is out of range");
      }
      v = model::Quantity::from_wide_milli(milli);
    }
  }

  // Grown as elements decode: a corrupt count then fails at the end of the data instead of
  // allocating count * sizeof(element) up front.
  template <class T>
  void get_vector(std::vector<T>& v) {
    std::size_t n = count();
    v.clear();
    v.reserve(std::min(n, static_cast<std::size_t>(m_end - m_p) / 8 + 1));
    for (; n > 0; --n) {
      get(v.emplace_back());
    }
  }

  template <class T>
  void get_chunked(std::vector<T>& v) {
    const std::size_t n = count();
    std::array<std::uint32_t, k_chunks> sizes{};
    std::array<std::uint64_t, k_chunks> lengths{};
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < k_chunks; ++k) {
      get(sizes[k]);
      get(lengths[k]);
      total += sizes[k];
    }
    if (total != n) {
      throw DecodeError("a chunked vector's chunks disagree with its length");
    }
    std::array<std::string_view, k_chunks> bytes{};
    for (std::size_t k = 0; k < k_chunks; ++k) {
      if (lengths[k] > static_cast<std::uint64_t>(m_end - m_p)) {
        throw DecodeError("a length exceeds the payload");
      }
      const auto length = static_cast<std::size_t>(lengths[k]);
      bytes[k] = std::string_view(take(length), length);
    }
    // Decoded in place when the element count is plausible for the bytes; a count no real
    // file has (elements far smaller than their size in memory) is read one element at a
    // time, growing the vector, so a corrupt count never reserves memory the file cannot fill.
    const std::uint64_t encoded = std::accumulate(lengths.begin(), lengths.end(), std::uint64_t{0});
    if (static_cast<std::uint64_t>(n) * sizeof(T) > 4 * encoded + (std::uint64_t{1} << 20)) {
      v.clear();
      for (std::size_t k = 0; k < k_chunks; ++k) {
        decode_chunk_into(bytes[k], sizes[k], [&v]() -> T& { return v.emplace_back(); });
      }
      return;
    }
    v.clear();
    // Room for pods a what-if adds on top (--pod-file): appending them then moves no element.
    // Capacity never written costs address space only.
    v.reserve(n + n / 32 + 1024);
    populate(v.data(), n * sizeof(T));
    v.resize(n);
    std::array<std::exception_ptr, k_chunks> errors;
    auto decode_chunk = [&](std::size_t k) {
      try {
        T* next = v.data() + std::accumulate(sizes.begin(), sizes.begin() + k, std::size_t{0});
        decode_chunk_into(bytes[k], sizes[k], [&next]() -> T& { return *next++; });
        if (m_release) {
          m_release(bytes[k]);
        }
      } catch (...) {
        errors[k] = std::current_exception();
      }
    };
    run_spread(decode_chunk);
    for (const std::exception_ptr& e : errors) {
      if (e) {
        std::rethrow_exception(e);
      }
    }
  }

  // Decodes `count` elements from `bytes`, each into the element `slot()` returns.
  template <class Slot>
  void decode_chunk_into(std::string_view bytes, std::size_t count, Slot slot) const {
    Reader r(bytes);
    r.m_depth = m_depth;
    r.m_atoms = m_atoms;
    for (std::size_t i = 0; i < count; ++i) {
      r.get(slot());
    }
    if (!r.done()) {
      throw DecodeError("a chunk has bytes left over");
    }
  }

  // Has the system map `bytes` of fresh memory at `p` on two cores at once: the elements are
  // then made in it on one core (std::vector makes them in order), which otherwise spends most
  // of that time in page faults while the other core waits. Where the system cannot
  // (MADV_POPULATE_WRITE is Linux 5.14), the faults come as before.
  static void populate(void* p, std::size_t bytes) {
#if defined(MADV_POPULATE_WRITE)
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<std::uintptr_t>(p) + page - 1) / page * page;
    const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) / page * page;
    if (end <= begin + (std::uintptr_t{1} << 20)) {
      return;  // small: not worth a thread
    }
    const std::uintptr_t middle = begin + (end - begin) / 2 / page * page;
    auto map = [](std::uintptr_t from, std::uintptr_t to) {
      ::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
    };
    std::thread other(map, middle, end);
    map(begin, middle);
    other.join();
#else
    (void)p;
    (void)bytes;
#endif
  }

  // Runs f(0) .. f(k_chunks - 1) on up to two extra threads and this one.
  template <class F>
  static void run_spread(F& f) {
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1U, 3U);
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < threads; ++t) {
      helpers.emplace_back([&f, t, threads] {
        for (std::size_t k = t; k < k_chunks; k += threads) {
          f(k);
        }
      });
    }
    for (std::size_t k = 0; k < k_chunks; k += threads) {
      f(k);
    }
    for (std::thread& h : helpers) {
      h.join();
    }
  }

  template <class K, class V>
  void get_map(std::map<K, V>& m) {
    m.clear();
    for (std::size_t n = count(); n > 0; --n) {
      std::pair<K, V> e;
      get(e);
      m.insert(m.end(), std::move(e));
    }
  }

  template <class T>
  void get_optional(std::optional<T>& v) {
    bool has = false;
    get(has);
    if (has) {
      get(v.emplace());
    } else {
      v.reset();
    }
  }

  // Only queue trees nest; a deeper nesting than any real config is a corrupt file, and
  // stopping here keeps it from exhausting the stack.
  template <class T>
  void get_struct(T& v) {
    if (++m_depth > k_max_depth) {
      throw DecodeError("objects nest too deeply");
    }
    visit(*this, v);
    --m_depth;
  }

  static constexpr int k_max_depth = 200;
  const char* m_p;
  const char* m_end;
  Release m_release;
  int m_depth = 0;
  std::vector<model::Atom> m_own_atoms;
  const std::vector<model::Atom>* m_atoms = &m_own_atoms;  // shared with the chunks' readers
};

}  // namespace kpreempt::cache::codec

namespace kpreempt::cache {
struct SnapshotFile;
namespace codec {

// The payload of a snapshot file: diagnostics, then every member of the snapshot.
std::string encode_payload(const SnapshotFile& file);
// Throws DecodeError. The snapshot's indexes are rebuilt and its cross references checked.
// `release`, when given, is told of payload bytes that will not be read again.
void decode_payload(std::string_view payload, SnapshotFile& file, Reader::Release release = {});

}  // namespace codec
}  // namespace kpreempt::cache
