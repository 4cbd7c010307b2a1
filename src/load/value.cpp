// SPDX-License-Identifier: Apache-2.0
// Field: typed reads of the object tree with Go's decoding rules (what `kubectl apply` would
// accept) and messages that name the API path.
#include "load/value.h"

#include <algorithm>

namespace kpreempt::load {
namespace {

bool plain_key(std::string_view key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

void append_key(std::string& out, std::string_view key) {
  if (plain_key(key)) {
    if (!out.empty()) {
      out += '.';
    }
    out += key;
  } else {
    out += '[';
    out += key;
    out += ']';
  }
}

// YAML 1.1 plain scalars that go-yaml resolves to null; JSON writes only `null`.
bool null_text(std::string_view t) {
  return t.empty() || t == "~" || t == "null" || t == "Null" || t == "NULL";
}

std::string quoted(std::string_view t) {
  return "\"" + std::string(t) + "\"";
}

bool parse_digits(std::string_view digits, unsigned base, bool negative, std::int64_t& out) {
  if (digits.empty()) {
    return false;
  }
  std::uint64_t v = 0;
  const std::uint64_t limit = negative ? 9223372036854775808ULL : 9223372036854775807ULL;
  for (char c : digits) {
    const unsigned d = c >= '0' && c <= '9'   ? static_cast<unsigned>(c - '0')
                       : c >= 'a' && c <= 'f' ? static_cast<unsigned>(c - 'a' + 10)
                       : c >= 'A' && c <= 'F' ? static_cast<unsigned>(c - 'A' + 10)
                                              : 99;
    if (d >= base || v > (limit - d) / base) {
      return false;
    }
    v = v * base + d;
  }
  out = negative ? static_cast<std::int64_t>(0 - v) : static_cast<std::int64_t>(v);
  return true;
}

// A plain integer as kubectl's YAML reader (go-yaml v2, YAML 1.1) resolves one before it
// becomes JSON: `_` separators dropped anywhere, an optional sign, then 0x/0X hex, 0o/0O or a
// leading 0 octal, 0b/0B binary, or decimal. A leading 0 followed by an 8 or 9 is not octal;
// go-yaml takes it for the float it is written like, which becomes a decimal JSON number.
// JSON numbers are decimal and read the same.
bool parse_int64(std::string_view written, std::int64_t& out) {
  if (written.empty() || written.front() == '_') {
    return false;  // go-yaml only tries numbers starting with a digit, a sign or a dot
  }
  std::string t;
  for (char c : written) {
    if (c != '_') {
      t += c;
    }
  }
  std::string_view digits = t;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.size() > 1 && digits[0] == '0') {
    const char p = digits[1];
    const unsigned base = p == 'x' || p == 'X'   ? 16
                          : p == 'o' || p == 'O' ? 8
                          : p == 'b' || p == 'B' ? 2
                                                 : 0;
    if (base != 0) {
      return parse_digits(digits.substr(2), base, negative, out);
    }
    if (digits.find_first_of("89") == std::string_view::npos) {
      return parse_digits(digits.substr(1), 8, negative, out);
    }
  }
  return parse_digits(digits, 10, negative, out);
}

}  // namespace

std::string Tree::path(std::uint32_t n) const {
  std::vector<std::uint32_t> chain;
  for (std::uint32_t i = n; i != k_nil && nodes[i].parent != k_nil; i = nodes[i].parent) {
    chain.push_back(i);
  }
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const TreeNode& parent = nodes[nodes[*it].parent];
    if (parent.type == NodeType::map) {
      append_key(out, key(*it));
      continue;
    }
    std::size_t index = 0;
    for (std::uint32_t c = parent.first_child; c != *it; c = nodes[c].next) {
      ++index;
    }
    out += '[' + std::to_string(index) + ']';
  }
  return out;
}

Field Field::operator[](std::string_view key) const {
  if (m_node == k_nil) {
    std::string missing = m_missing;
    append_key(missing, key);
    return Field(*m_obj, m_parent, std::move(missing));
  }
  if (node().type == NodeType::map) {
    for (std::uint32_t c = node().first_child; c != k_nil; c = tree().nodes[c].next) {
      if (tree().key(c) == key) {
        return Field(*m_obj, c);
      }
    }
  } else if (!is_null()) {
    fail_expected("a map");
  }
  std::string missing;
  append_key(missing, key);
  return Field(*m_obj, m_node, std::move(missing));
}

bool Field::is_null() const {
  return m_node == k_nil || (node().type == NodeType::scalar &&
                             node().style == ScalarStyle::plain && null_text(scalar_text("")));
}

SourceLoc Field::loc() const {
  std::uint32_t n = m_node != k_nil ? m_node : (m_parent != k_nil ? m_parent : 0);
  return tree().loc(tree().nodes[n].mark);
}

std::string Field::path() const {
  if (m_node != k_nil) {
    return tree().path(m_node);
  }
  std::string out = m_parent != k_nil ? tree().path(m_parent) : std::string();
  if (!out.empty() && m_missing.front() != '[') {
    out += '.';
  }
  return out + m_missing;
}

void Field::fail(const std::string& message) const {
  std::string p = path();
  // An object not yet named (its kind is being read) has no description to lead with.
  std::string text = m_obj->description;
  if (!text.empty()) {
    text += ": ";
  }
  text += p.empty() ? "" : p + ": ";
  throw InputError(loc(), text + message);
}

void Field::fail_expected(const char* expected) const {
  if (node().type == NodeType::scalar) {
    fail(std::string("expected ") + expected + ", got " + quoted(scalar_text("")));
  }
  fail(std::string("expected ") + expected + ", got " +
       (node().type == NodeType::map ? "a map" : "a list"));
}

std::uint32_t Field::first_child(NodeType want) const {
  if (is_null()) {
    return k_nil;
  }
  if (node().type != want) {
    fail_expected(want == NodeType::map ? "a map" : "a list");
  }
  return node().first_child;
}

std::string_view Field::scalar_text(const char* expected) const {
  if (node().type != NodeType::scalar) {
    fail_expected(expected);
  }
  return tree().scalar(m_node);
}

std::string Field::str(std::string_view def) const {
  if (is_null()) {
    return std::string(def);
  }
  // Plain numbers and booleans are taken as written rather than refused as Go would: kubectl
  // quotes them in dumps, and hand-written files often do not.
  return std::string(scalar_text("a string"));
}

std::int64_t Field::int64(std::int64_t def) const {
  if (is_null()) {
    return def;
  }
  std::string_view t = scalar_text("an integer");
  std::int64_t v = 0;
  if (node().style != ScalarStyle::plain || !parse_int64(t, v)) {
    fail_expected("an integer");
  }
  return v;
}

std::int32_t Field::int32(std::int32_t def) const {
  std::int64_t v = int64(def);
  if (v < INT32_MIN || v > INT32_MAX) {
    fail_expected("an integer from -2147483648 to 2147483647");
  }
  return static_cast<std::int32_t>(v);
}

std::optional<std::int32_t> Field::opt_int32() const {
  if (is_null()) {
    return std::nullopt;
  }
  return int32();
}

bool Field::boolean(bool def) const {
  if (is_null()) {
    return def;
  }
  std::string_view t = scalar_text("true or false");
  // go-yaml v2 (YAML 1.1) booleans, which kubectl's YAML reader turns into JSON ones.
  if (node().style == ScalarStyle::plain) {
    for (std::string_view yes :
         {"true", "True", "TRUE", "yes", "Yes", "YES", "y", "Y", "on", "On", "ON"}) {
      if (t == yes) {
        return true;
      }
    }
    for (std::string_view no :
         {"false", "False", "FALSE", "no", "No", "NO", "n", "N", "off", "Off", "OFF"}) {
      if (t == no) {
        return false;
      }
    }
  }
  fail_expected("true or false");
}

model::Quantity Field::quantity() const {
  if (is_null()) {
    return model::Quantity();
  }
  std::string_view t = scalar_text("a quantity");
  model::QuantityParse q = model::parse_quantity(t);
  if (q.out_of_range) {
    fail(quoted(t) + " is out of range: " + q.error);
  }
  if (!q.value) {
    fail(quoted(t) + " is not a quantity");
  }
  return *q.value;
}

model::Quantity Field::quantity_of(std::string_view resource) const {
  model::Quantity q = quantity();
  if (std::string limit = model::resource_limit_error(resource, q); !limit.empty()) {
    fail(quoted(str()) + " is out of range: " + limit);
  }
  return q;
}

std::optional<model::Instant> Field::time() const {
  if (is_null()) {
    return std::nullopt;
  }
  std::string_view t = scalar_text("a time");
  std::optional<model::Instant> v = model::parse_time(t);
  if (!v) {
    fail(quoted(t) + " is not an RFC 3339 time");
  }
  return v;
}

model::StringMap Field::string_map() const {
  model::StringMap out;
  out.reserve(count());  // a dump's maps are most of its memory: no slack
  each_member([&](const Field& m) { out.emplace_back(std::string(m.key()), m.str()); });
  std::sort(out.begin(), out.end());
  return out;
}

model::ResourceList Field::resource_list() const {
  model::ResourceList out;
  out.reserve(count());
  each_member(
      [&](const Field& m) { out.emplace_back(std::string(m.key()), m.quantity_of(m.key())); });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

model::ResourceList Field::non_negative_resource_list() const {
  model::ResourceList out = resource_list();
  each_member([](const Field& m) {
    if (m.quantity().milli() < 0) {
      // ValidateResourceQuantityValue's wording.
      m.fail(quoted(m.str()) + " must be greater than or equal to 0");
    }
  });
  return out;
}

std::vector<std::string> Field::strings() const {
  std::vector<std::string> out;
  out.reserve(count());
  each_item([&](const Field& item) { out.push_back(item.str()); });
  return out;
}

std::vector<std::string> Field::map_keys() const {
  std::vector<std::string> out;
  each_member([&](const Field& m) { out.emplace_back(m.key()); });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kpreempt::load
