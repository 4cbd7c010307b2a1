// SPDX-License-Identifier: Apache-2.0
// Atom: an interned, immutable string. Equal texts share one copy for the life of the process
// and an Atom is a pointer to it, so the texts a dump repeats on every pod (label keys and
// values, toleration keys, node and namespace names, owner names, phases) are held once: a
// 150k-pod snapshot takes a fraction of the memory it would with a std::string each, and two
// atoms compare in one instruction.
#pragma once

#include <fmt/format.h>

#include <compare>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace kpreempt::model {

class Atom {
 public:
  Atom() noexcept = default;  // the empty text: a null pointer, one store
  // Interning: a hash lookup and, the first time a text is seen, one copy. Safe from any
  // thread; the loader interns on several at once.
  Atom(std::string_view s);  // NOLINT(google-explicit-constructor): a text is an atom
  Atom(const std::string& s) : Atom(std::string_view(s)) {}  // NOLINT
  Atom(const char* s) : Atom(std::string_view(s)) {}         // NOLINT

  const std::string& str() const noexcept { return m_s != nullptr ? *m_s : empty_text(); }
  operator const std::string&() const noexcept { return str(); }  // NOLINT
  operator std::string_view() const noexcept { return view(); }   // NOLINT
  std::string_view view() const noexcept {
    return m_s != nullptr ? std::string_view(*m_s) : std::string_view();
  }

  bool empty() const noexcept { return m_s == nullptr; }
  void clear() noexcept { m_s = nullptr; }
  std::size_t size() const noexcept { return view().size(); }
  const char* data() const noexcept { return str().data(); }
  const char* c_str() const noexcept { return str().c_str(); }
  auto begin() const noexcept { return view().begin(); }
  auto end() const noexcept { return view().end(); }
  bool starts_with(std::string_view p) const noexcept { return view().starts_with(p); }
  bool ends_with(std::string_view p) const noexcept { return view().ends_with(p); }
  std::string_view substr(std::size_t pos, std::size_t n = std::string_view::npos) const {
    return view().substr(pos, n);
  }
  std::size_t find(std::string_view s, std::size_t pos = 0) const noexcept {
    return view().find(s, pos);
  }
  std::size_t find(char c, std::size_t pos = 0) const noexcept { return view().find(c, pos); }

  // One text, one copy: equal atoms are the same pointer.
  friend bool operator==(Atom a, Atom b) noexcept { return a.m_s == b.m_s; }
  friend bool operator==(Atom a, std::string_view b) noexcept { return a.view() == b; }
  friend bool operator==(Atom a, const std::string& b) noexcept { return a.view() == b; }
  friend bool operator==(Atom a, const char* b) noexcept { return a.view() == b; }
  // Ordered by text, as the strings they replace were.
  friend std::strong_ordering operator<=>(Atom a, Atom b) noexcept {
    return a.m_s == b.m_s ? std::strong_ordering::equal : a.view().compare(b.view()) <=> 0;
  }
  friend std::strong_ordering operator<=>(Atom a, std::string_view b) noexcept {
    return a.view().compare(b) <=> 0;
  }
  friend std::strong_ordering operator<=>(Atom a, const std::string& b) noexcept {
    return a.view().compare(b) <=> 0;
  }
  friend std::strong_ordering operator<=>(Atom a, const char* b) noexcept {
    return a.view().compare(b) <=> 0;
  }

  friend std::string operator+(Atom a, std::string_view b) { return a.str() + std::string(b); }
  friend std::string operator+(std::string_view a, Atom b) { return std::string(a) + b.str(); }
  friend std::string operator+(Atom a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const std::string& a, Atom b) { return a + b.str(); }
  friend std::string operator+(Atom a, const char* b) { return a.str() + b; }
  friend std::string operator+(const char* a, Atom b) { return a + b.str(); }
  friend std::string operator+(Atom a, char b) { return a.str() + b; }
  friend std::string operator+(Atom a, Atom b) { return a.str() + b.str(); }
  friend std::string operator+(std::string&& a, Atom b) { return std::move(a) + b.str(); }

  friend std::ostream& operator<<(std::ostream& out, Atom a);

  // The interned copy's address: equal atoms, equal keys (the snapshot codec's string table).
  const void* identity() const noexcept { return m_s; }

 private:
  static const std::string& empty_text() noexcept;
  const std::string* m_s = nullptr;  // the interned copy; null for the empty text
};

}  // namespace kpreempt::model

// By text, as a std::string key was: an unordered container of atoms then iterates in the
// same order on every run, which a hash of the address would not.
template <>
struct std::hash<kpreempt::model::Atom> {
  std::size_t operator()(kpreempt::model::Atom a) const noexcept {
    return std::hash<std::string_view>{}(a.view());
  }
};

template <>
struct fmt::formatter<kpreempt::model::Atom> : fmt::formatter<std::string_view> {
  template <class Context>
  auto format(kpreempt::model::Atom a, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(a.view(), ctx);
  }
};
