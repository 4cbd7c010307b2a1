// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: Go-compatible integer, boolean and duration parsing on arbitrary text.
// Integers are checked against std::from_chars, and every value must print and parse back.
#include "kpreempt/model/go_parse.h"

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>

namespace go = kpreempt::model::go;

namespace {

void check_int(std::string_view in, int bits) {
  const auto r = go::parse_int(in, bits);
  if (go::int_error(in, r.error).empty()) {
    std::abort();
  }
  // from_chars takes the same text except a leading plus sign.
  std::string_view plain = in.starts_with('+') ? in.substr(1) : in;
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(plain.data(), plain.data() + plain.size(), v);
  const bool whole = ec == std::errc() && end == plain.data() + plain.size() &&
                     !(in.starts_with('+') && plain.starts_with('-'));
  const std::int64_t high = bits == 64 ? INT64_MAX : (std::int64_t{1} << (bits - 1)) - 1;
  const bool fits = whole && v <= high && v >= -high - 1;
  if (fits != r.ok() || (fits && v != r.value)) {
    std::abort();
  }
  if (r.error == go::Error::range && r.value != r.limit) {
    std::abort();
  }
}

void check_duration(std::string_view in) {
  const auto r = go::parse_duration(in);
  if (go::duration_error(in, r).empty()) {
    std::abort();
  }
  if (r.ok() && in.starts_with('-') && r.value > 0) {
    std::abort();
  }
  if (r.ok() && !in.starts_with('-') && r.value < 0) {
    std::abort();
  }
  // Whole nanoseconds print as "<n>ns" and must read back unchanged.
  if (r.ok()) {
    const std::string ns = std::to_string(r.value) + "ns";
    const auto back = go::parse_duration(ns);
    if (!back || back.value != r.value) {
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const int bits = 1 + data[0] % 64;
  std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  check_int(in, bits);
  check_int(in, 64);
  const auto u = go::parse_uint(in);
  if (u.ok() && go::parse_int(in).ok() != (u.value <= INT64_MAX)) {
    std::abort();
  }
  const auto b = go::parse_bool(in);
  if (!b.ok() && go::bool_error(in).empty()) {
    std::abort();
  }
  check_duration(in);
  return 0;
}
