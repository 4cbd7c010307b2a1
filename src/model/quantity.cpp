// SPDX-License-Identifier: Apache-2.0
// Parsing Kubernetes quantities exactly as resource.ParseQuantity scans them, then reducing
// them to exact milli-units the way MilliValue() rounds; per-resource int64 limits on top.

#include "kpreempt/model/quantity.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

namespace kpreempt::model {
namespace {

using I128 = Quantity::Wide;

constexpr std::int64_t k_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t k_min = std::numeric_limits<std::int64_t>::min();
// The largest magnitude whose whole units, rounded up, still fit int64.
constexpr I128 k_max_milli = I128{k_max} * 1000;

std::int64_t clamp64(I128 v) {
  return v > k_max ? k_max : v < k_min ? k_min : static_cast<std::int64_t>(v);
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The pieces ParseQuantity's scanner splits a quantity into.
struct Scan {
  bool negative = false;
  std::string num;    // integer digits, leading zeros stripped, may be empty
  std::string denom;  // fraction digits as written
  std::string_view suffix;
  std::string error;
};

std::size_t scan_digits(std::string_view s, std::size_t pos) {
  while (pos < s.size() && is_digit(s[pos])) {
    ++pos;
  }
  return pos;
}

// Upstream accepts any run of the letters "eEinumkKMGTP", an optional sign, then digits; the
// suffix itself is judged afterwards. So "1.", ".5", "-", "." and "Ki" all scan (as 0 for the
// last three), which we keep for fidelity.
Scan scan(std::string_view s) {
  Scan out;
  std::size_t pos = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    out.negative = s[0] == '-';
    ++pos;
  }
  while (pos < s.size() && s[pos] == '0') {
    ++pos;
  }
  std::size_t end = scan_digits(s, pos);
  out.num = std::string(s.substr(pos, end - pos));
  pos = end;
  if (pos < s.size() && s[pos] == '.') {
    end = scan_digits(s, pos + 1);
    out.denom = std::string(s.substr(pos + 1, end - pos - 1));
    pos = end;
  }
  const std::size_t suffix_start = pos;
  constexpr std::string_view k_letters = "eEinumkKMGTP";
  while (pos < s.size() && k_letters.find(s[pos]) != std::string_view::npos) {
    ++pos;
  }
  if (pos < s.size() && (s[pos] == '-' || s[pos] == '+')) {
    ++pos;
  }
  pos = scan_digits(s, pos);
  if (pos < s.size()) {
    out.error = fmt::format("unexpected character '{}'", s[pos]);
  }
  out.suffix = s.substr(suffix_start, pos - suffix_start);
  return out;
}

struct Suffix {
  int base = 10;
  std::int64_t exponent = 0;
};

bool parse_exponent(std::string_view digits, std::int64_t& out) {
  bool negative = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) {
    return false;
  }
  I128 v = 0;
  for (char c : digits) {
    if (!is_digit(c)) {
      return false;
    }
    v = v * 10 + (c - '0');
    if (v > I128(k_max) + 1) {
      return false;
    }
  }
  if (v > I128(k_max) + (negative ? 1 : 0)) {
    return false;  // strconv.ParseInt range error
  }
  const std::int64_t wide = static_cast<std::int64_t>(negative ? -v : v);
  // Upstream narrows the exponent with int32(parsed), so huge exponents wrap around.
  out = static_cast<std::int32_t>(wide);
  return true;
}

std::optional<Suffix> interpret(std::string_view suffix) {
  static constexpr std::array<std::pair<std::string_view, int>, 10> k_decimal{{
      {"n", -9},
      {"u", -6},
      {"m", -3},
      {"", 0},
      {"k", 3},
      {"M", 6},
      {"G", 9},
      {"T", 12},
      {"P", 15},
      {"E", 18},
  }};
  static constexpr std::array<std::pair<std::string_view, int>, 6> k_binary{{
      {"Ki", 10},
      {"Mi", 20},
      {"Gi", 30},
      {"Ti", 40},
      {"Pi", 50},
      {"Ei", 60},
  }};
  for (const auto& [text, exp] : k_decimal) {
    if (suffix == text) {
      return Suffix{10, exp};
    }
  }
  for (const auto& [text, exp] : k_binary) {
    if (suffix == text) {
      return Suffix{2, exp};
    }
  }
  std::int64_t exp = 0;
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E') &&
      parse_exponent(suffix.substr(1), exp)) {
    return Suffix{10, exp};
  }
  return std::nullopt;
}

// digits *= 2, on a decimal digit string.
void double_digits(std::string& digits) {
  int carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const int d = (*it - '0') * 2 + carry;
    *it = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  if (carry != 0) {
    digits.insert(digits.begin(), '1');
  }
}

// ceil(digits * 10^shift), or nullopt when it is above k_max_milli.
std::optional<I128> scale_up_ceil(std::string digits, std::int64_t shift) {
  const std::size_t lead = digits.find_first_not_of('0');
  if (lead == std::string::npos) {
    return 0;
  }
  digits.erase(0, lead);
  const auto len = static_cast<std::int64_t>(digits.size());
  bool round_up = false;
  if (shift < 0) {
    if (-shift >= len) {
      return 1;  // a non-zero amount below one milli-unit
    }
    const auto keep = static_cast<std::size_t>(len + shift);
    round_up = digits.find_first_not_of('0', keep) != std::string::npos;
    digits.resize(keep);
    shift = 0;
  }
  if (static_cast<std::int64_t>(digits.size()) + shift > 23) {
    return std::nullopt;  // k_max_milli has 23 digits
  }
  I128 v = 0;
  for (char c : digits) {
    v = v * 10 + (c - '0');
  }
  for (std::int64_t i = 0; i < shift; ++i) {
    v *= 10;
  }
  v += round_up ? 1 : 0;
  if (v > k_max_milli) {
    return std::nullopt;
  }
  return v;
}

}  // namespace

std::int64_t Quantity::milli() const {
  return clamp64(m_milli);
}

std::int64_t Quantity::value_ceil() const {
  // Away from zero for negative amounts, like the int64 path of Quantity.Value(); requests
  // and allocatable are never negative in a valid object anyway.
  const I128 whole = m_milli / 1000;
  const I128 rest = m_milli % 1000;
  if (rest > 0) {
    return clamp64(whole + 1);
  }
  if (rest < 0) {
    return clamp64(whole - 1);
  }
  return clamp64(whole);
}

std::string resource_limit_error(std::string_view resource, Quantity q) {
  const I128 milli = q.wide_milli();
  if (resource == "cpu") {
    if (milli > k_max || milli < k_min) {
      return fmt::format("cpu is compared in int64 milli-units (MilliValue), at most {}m", k_max);
    }
    return {};
  }
  if (milli > k_max_milli || milli < -k_max_milli) {
    return fmt::format("{} is compared in int64 whole units (Value), at most {}", resource, k_max);
  }
  return {};
}

QuantityParse parse_quantity(std::string_view text) {
  if (text.empty()) {
    return {std::nullopt, "empty string"};
  }
  Scan s = scan(text);
  if (!s.error.empty()) {
    return {std::nullopt, std::move(s.error)};
  }
  const std::optional<Suffix> suffix = interpret(s.suffix);
  if (!suffix) {
    return {std::nullopt, fmt::format("unknown suffix \"{}\"", s.suffix)};
  }
  std::string digits = s.num + s.denom;
  if (suffix->base == 2 && digits.find_first_not_of('0') != std::string::npos) {
    for (std::int64_t i = 0; i < suffix->exponent; ++i) {
      double_digits(digits);
    }
  }
  const std::int64_t decimal_exp =
      (suffix->base == 10 ? suffix->exponent : 0) - static_cast<std::int64_t>(s.denom.size());
  // Rounding the magnitude up matches ParseQuantity (nano, away from zero) followed by
  // MilliValue (up) for every positive amount.
  const std::optional<I128> magnitude = scale_up_ceil(std::move(digits), decimal_exp + 3);
  if (!magnitude) {
    return {std::nullopt,
            fmt::format("a resource is compared in int64 whole units (Value), at most {}", k_max),
            true};
  }
  return {Quantity::from_wide_milli(s.negative ? -*magnitude : *magnitude), {}};
}

std::string to_string(Quantity q, bool binary_suffixes) {
  const I128 milli = q.wide_milli();
  if (milli % 1000 != 0) {
    return fmt::format("{}m", milli);
  }
  const I128 units = milli / 1000;
  if (binary_suffixes && units != 0) {
    static constexpr std::array<std::string_view, 6> k_names{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    for (int i = 5; i >= 0; --i) {
      const I128 unit = I128{1} << (10 * (i + 1));
      if (units % unit == 0) {
        return fmt::format("{}{}", units / unit, k_names[static_cast<std::size_t>(i)]);
      }
    }
  }
  return fmt::format("{}", units);
}

}  // namespace kpreempt::model
