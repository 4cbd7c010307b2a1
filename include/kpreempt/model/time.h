// SPDX-License-Identifier: Apache-2.0
// Instants as the Kubernetes API writes them (RFC 3339, seconds or nanoseconds).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kpreempt::model {

// A point in time, UTC. Seconds and nanoseconds are kept apart because int64 nanoseconds end in
// 2262 and start in 1677, and dumps hold Go's zero time (year 1).
struct Instant {
  std::int64_t seconds = 0;  // since 1970-01-01T00:00:00Z, may be negative
  std::int32_t nanos = 0;    // 0..999999999
  friend constexpr auto operator<=>(const Instant&, const Instant&) = default;

  Instant plus_seconds(std::int64_t s) const { return Instant{seconds + s, nanos}; }
};

// Parses "2026-01-01T00:00:00Z", "2026-01-01T00:00:00.123456789+02:00" and the like.
// Returns nullopt with a reason in *error on failure.
std::optional<Instant> parse_time(std::string_view text, std::string* error = nullptr);

// "2026-01-01T00:00:00Z", with a fraction only when nanos != 0 (trailing zeros dropped).
std::string to_string(const Instant& t);

}  // namespace kpreempt::model
