// SPDX-License-Identifier: Apache-2.0
// Go's strconv integer and boolean parsing and time.ParseDuration (Go 1.22 src/strconv/atoi.go,
// atob.go and src/time/format.go), including where Go reports overflow before a bad character.

#include "kpreempt/model/go_parse.h"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace kpreempt::model::go {
namespace {

constexpr std::uint64_t k_two_63 = std::uint64_t{1} << 63;

// ParseUint's loop: Go checks the cutoff and the maximum before it looks at later characters.
Parsed<std::uint64_t> digits(std::string_view s, int bits) {
  Parsed<std::uint64_t> r;
  const std::uint64_t max_val = bits >= 64 ? UINT64_MAX : (std::uint64_t{1} << bits) - 1;
  if (s.empty()) {
    r.error = Error::syntax;
    return r;
  }
  constexpr std::uint64_t k_cutoff = UINT64_MAX / 10 + 1;
  std::uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') {
      r.error = Error::syntax;
      return r;
    }
    const std::uint64_t n1 = n * 10 + static_cast<std::uint64_t>(c - '0');
    if (n >= k_cutoff || n1 < n * 10 || n1 > max_val) {
      r.error = Error::range;
      r.value = r.limit = max_val;
      return r;
    }
    n = n1;
  }
  r.value = n;
  return r;
}

// Go's time package quotes bytes outside printable ASCII as \xNN.
std::string time_quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c >= 0x80 || c < 0x20) {
      out += fmt::format("\\x{:02x}", c);
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += static_cast<char>(c);
  }
  return out + "\"";
}

struct Unit {
  std::string_view name;
  std::uint64_t nanos;
};
constexpr std::array<Unit, 8> k_units{{{"ns", 1},
                                       {"us", 1'000},
                                       {"\xc2\xb5s", 1'000},
                                       {"\xce\xbcs", 1'000},
                                       {"ms", 1'000'000},
                                       {"s", 1'000'000'000},
                                       {"m", 60'000'000'000},
                                       {"h", 3'600'000'000'000}}};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// leadingInt: [0-9]*, failing once the value passes 2^63.
bool leading_int(std::string_view& s, std::uint64_t& x) {
  std::size_t i = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (x > k_two_63 / 10) {
      return false;
    }
    x = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (x > k_two_63) {
      return false;
    }
  }
  s.remove_prefix(i);
  return true;
}

// leadingFraction: [0-9]*, keeping only the digits that still fit.
void leading_fraction(std::string_view& s, std::uint64_t& x, double& scale) {
  std::size_t i = 0;
  bool overflow = false;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (overflow) {
      continue;
    }
    if (x > (k_two_63 - 1) / 10) {
      overflow = true;
      continue;
    }
    const std::uint64_t y = x * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (y > k_two_63) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  s.remove_prefix(i);
}

Parsed<std::int64_t> duration_failure(Error e, std::string unit = {}) {
  Parsed<std::int64_t> r;
  r.error = e;
  r.unit = std::move(unit);
  return r;
}

// One [0-9]*(\.[0-9]*)?unit term, added to `total`; Error::none when it parsed.
Parsed<std::int64_t> duration_term(std::string_view& s, std::uint64_t& total) {
  if (s.front() != '.' && !is_digit(s.front())) {
    return duration_failure(Error::syntax);
  }
  const std::size_t before = s.size();
  std::uint64_t v = 0;
  if (!leading_int(s, v)) {
    return duration_failure(Error::range);
  }
  const bool pre = s.size() != before;
  bool post = false;
  std::uint64_t f = 0;
  double scale = 1;
  if (!s.empty() && s.front() == '.') {
    s.remove_prefix(1);
    const std::size_t at = s.size();
    leading_fraction(s, f, scale);
    post = s.size() != at;
  }
  if (!pre && !post) {
    return duration_failure(Error::syntax);
  }
  std::size_t i = 0;
  while (i < s.size() && s[i] != '.' && !is_digit(s[i])) {
    ++i;
  }
  if (i == 0) {
    return duration_failure(Error::missing_unit);
  }
  const std::string_view name = s.substr(0, i);
  s.remove_prefix(i);
  const Unit* unit = nullptr;
  for (const Unit& u : k_units) {
    unit = u.name == name ? &u : unit;
  }
  if (unit == nullptr) {
    return duration_failure(Error::unknown_unit, std::string(name));
  }
  if (v > k_two_63 / unit->nanos) {
    return duration_failure(Error::range);
  }
  v *= unit->nanos;
  if (f > 0) {
    // As Go: float64 keeps fractions of hours nanosecond-accurate.
    v += static_cast<std::uint64_t>(static_cast<double>(f) *
                                    (static_cast<double>(unit->nanos) / scale));
    if (v > k_two_63) {
      return duration_failure(Error::range);
    }
  }
  total += v;
  if (total > k_two_63) {
    return duration_failure(Error::range);
  }
  return {};
}

}  // namespace

Parsed<std::int64_t> parse_int(std::string_view text, int bits) {
  std::string_view s = text;
  const bool negative = !s.empty() && s.front() == '-';
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    s.remove_prefix(1);
  }
  const Parsed<std::uint64_t> u = digits(s, bits);
  const std::uint64_t cutoff = std::uint64_t{1} << (bits - 1);
  Parsed<std::int64_t> r;
  r.error = u.error;
  if (r.error == Error::none && (negative ? u.value > cutoff : u.value >= cutoff)) {
    r.error = Error::range;
  }
  if (r.error == Error::range) {
    // Two's complement: -cutoff from its magnitude, also for bits == 64.
    r.limit =
        negative ? static_cast<std::int64_t>(~cutoff + 1) : static_cast<std::int64_t>(cutoff - 1);
    r.value = r.limit;
  } else if (r.error == Error::none) {
    r.value = static_cast<std::int64_t>(negative ? ~u.value + 1 : u.value);
  }
  return r;
}

Parsed<std::uint64_t> parse_uint(std::string_view text, int bits) {
  return digits(text, bits);
}

Parsed<bool> parse_bool(std::string_view text) {
  Parsed<bool> r;
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"}) {
    r.value = r.value || text == t;
  }
  bool is_false = false;
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"}) {
    is_false = is_false || text == f;
  }
  r.error = r.value || is_false ? Error::none : Error::syntax;
  return r;
}

Parsed<std::int64_t> parse_duration(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s == "0") {
    return {};
  }
  if (s.empty()) {
    return duration_failure(Error::syntax);
  }
  std::uint64_t total = 0;
  while (!s.empty()) {
    Parsed<std::int64_t> term = duration_term(s, total);
    if (!term) {
      return term;
    }
  }
  Parsed<std::int64_t> r;
  if (negative) {
    r.value = static_cast<std::int64_t>(~total + 1);
  } else if (total > k_two_63 - 1) {
    r.error = Error::range;
  } else {
    r.value = static_cast<std::int64_t>(total);
  }
  return r;
}

std::string int_error(std::string_view text, Error e) {
  return fmt::format("strconv.ParseInt: parsing {}: {}", quote(text),
                     e == Error::range ? "value out of range" : "invalid syntax");
}

std::string uint_error(std::string_view text, Error e) {
  return fmt::format("strconv.ParseUint: parsing {}: {}", quote(text),
                     e == Error::range ? "value out of range" : "invalid syntax");
}

std::string bool_error(std::string_view text) {
  return fmt::format("strconv.ParseBool: parsing {}: invalid syntax", quote(text));
}

std::string duration_error(std::string_view text, const Parsed<std::int64_t>& r) {
  switch (r.error) {
    case Error::missing_unit:
      return "time: missing unit in duration " + time_quote(text);
    case Error::unknown_unit:
      return fmt::format("time: unknown unit {} in duration {}", time_quote(r.unit),
                         time_quote(text));
    default:
      return "time: invalid duration " + time_quote(text);
  }
}

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    const char* named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : nullptr;
    if (named != nullptr) {
      out += named;
    } else if (c == '"' || c == '\\') {
      out += {'\\', static_cast<char>(c)};
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace kpreempt::model::go
