// SPDX-License-Identifier: Apache-2.0
// Go's strconv.ParseInt / ParseUint / ParseBool and time.ParseDuration, byte for byte: the one
// place where kpreempt reads numbers, booleans and durations the way upstream Go code does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kpreempt::model::go {

enum class Error {
  none,
  syntax,        // strconv: invalid syntax; time: invalid duration
  range,         // strconv: value out of range; time: invalid duration (overflow)
  missing_unit,  // time: missing unit in duration
  unknown_unit,  // time: unknown unit "x" in duration
};

// A value, or why there is none. For Error::range, `limit` is the bound the text went past
// (the maximum, or the minimum for negative text), which Go also returns as the value.
template <class T>
struct Parsed {
  T value{};
  Error error = Error::none;
  T limit{};
  std::string unit;  // Error::unknown_unit only

  bool ok() const { return error == Error::none; }
  explicit operator bool() const { return ok(); }
};

// strconv.ParseInt(text, 10, bits), bits 1..64: an optional + or -, then ASCII digits only
// (no underscores, no base prefix, no spaces).
Parsed<std::int64_t> parse_int(std::string_view text, int bits = 64);
// strconv.ParseUint(text, 10, bits), bits 1..64: ASCII digits only, no sign.
Parsed<std::uint64_t> parse_uint(std::string_view text, int bits = 64);
// strconv.ParseBool: 1 t T TRUE true True, 0 f F FALSE false False.
Parsed<bool> parse_bool(std::string_view text);
// time.ParseDuration, in nanoseconds: a possibly signed sequence of decimal numbers with
// optional fractions, each with a unit of ns, us, µs (U+00B5), μs (U+03BC), ms, s, m or h;
// "0" alone needs no unit.
Parsed<std::int64_t> parse_duration(std::string_view text);

// Go's error texts, e.g. `strconv.ParseInt: parsing "a": invalid syntax`.
std::string int_error(std::string_view text, Error e);
std::string uint_error(std::string_view text, Error e);
std::string bool_error(std::string_view text);
// e.g. `time: invalid duration "1.5.2s"`, `time: unknown unit "d" in duration "1d"`.
std::string duration_error(std::string_view text, const Parsed<std::int64_t>& r);

// strconv.Quote for the characters configuration values realistically hold.
std::string quote(std::string_view text);

}  // namespace kpreempt::model::go
