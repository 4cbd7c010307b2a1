// SPDX-License-Identifier: Apache-2.0
// RFC 3339 parsing as Go's time.Parse(time.RFC3339) does it, and UTC rendering.

#include "kpreempt/model/time.h"

#include <catch2/catch.hpp>

using kpreempt::model::Instant;
using kpreempt::model::parse_time;

namespace {

Instant must(std::string_view text) {
  std::string error;
  const auto t = parse_time(text, &error);
  INFO(text << ": " << error);
  REQUIRE(t.has_value());
  return *t;
}

std::string error_of(std::string_view text) {
  std::string error;
  REQUIRE_FALSE(parse_time(text, &error).has_value());
  return error;
}

}  // namespace

TEST_CASE("UTC times convert to Unix seconds", "[model][time]") {
  CHECK(must("1970-01-01T00:00:00Z") == Instant{0, 0});
  CHECK(must("2026-01-01T00:00:00Z") == Instant{1767225600, 0});
  CHECK(must("2000-02-29T12:34:56Z") == Instant{951827696, 0});
  CHECK(must("1969-12-31T23:59:59Z") == Instant{-1, 0});
}

TEST_CASE("Go's zero time in year 1 parses", "[model][time]") {
  CHECK(must("0001-01-01T00:00:00Z") == Instant{-62135596800, 0});
  CHECK(must("0000-01-01T00:00:00Z").seconds == -62167219200);
  CHECK(must("9999-12-31T23:59:59Z").seconds == 253402300799);
}

TEST_CASE("offsets are subtracted to reach UTC", "[model][time]") {
  CHECK(must("2026-01-01T02:00:00+02:00") == must("2026-01-01T00:00:00Z"));
  CHECK(must("2025-12-31T19:30:00-04:30") == must("2026-01-01T00:00:00Z"));
  CHECK(must("2026-01-01T00:00:00+00:00") == must("2026-01-01T00:00:00Z"));
}

TEST_CASE("fractions keep nanoseconds and drop digits past the ninth", "[model][time]") {
  CHECK(must("2026-01-01T00:00:00.5Z").nanos == 500000000);
  CHECK(must("2026-01-01T00:00:00.123456789Z").nanos == 123456789);
  CHECK(must("2026-01-01T00:00:00.1234567899Z").nanos == 123456789);
  CHECK(must("2026-01-01T00:00:00.000000001+01:00") == Instant{1767222000, 1});
  CHECK(must("2026-01-01T00:00:00,25Z").nanos == 250000000);
}

TEST_CASE("Go's general parser leniencies are kept", "[model][time]") {
  CHECK(must("2026-01-01T7:00:00Z") == must("2026-01-01T07:00:00Z"));
  CHECK(must("2026-01-01T00:00:00+24:00").seconds == 1767225600 - 86400);
}

TEST_CASE("invalid dates and shapes are rejected", "[model][time]") {
  CHECK(error_of("2026-02-29T00:00:00Z") == "day out of range");
  CHECK(error_of("2024-02-30T00:00:00Z") == "day out of range");
  CHECK(error_of("1900-02-29T00:00:00Z") == "day out of range");
  CHECK(must("2000-02-29T00:00:00Z").seconds == 951782400);
  CHECK(error_of("2026-13-01T00:00:00Z") == "month out of range");
  CHECK(error_of("2026-00-01T00:00:00Z") == "month out of range");
  CHECK(error_of("2026-04-31T00:00:00Z") == "day out of range");
  CHECK(error_of("2026-01-01T24:00:00Z") == "hour out of range");
  CHECK(error_of("2026-01-01T00:60:00Z") == "minute out of range");
  CHECK(error_of("2026-01-01T00:00:60Z") == "second out of range");
  CHECK(error_of("2026-01-01T00:00:00") ==
        "expected \"Z\" or a \"+hh:mm\" offset after the seconds");
  CHECK(error_of("2026-01-01T00:00:00z") ==
        "expected \"Z\" or a \"+hh:mm\" offset after the seconds");
  CHECK(error_of("2026-01-01t00:00:00Z") ==
        "expected an RFC 3339 time like \"2006-01-02T15:04:05Z\"");
  CHECK(error_of("2026-01-01 00:00:00Z") ==
        "expected an RFC 3339 time like \"2006-01-02T15:04:05Z\"");
  CHECK(error_of("") == "expected an RFC 3339 time like \"2006-01-02T15:04:05Z\"");
  CHECK(error_of("2026-01-01T00:00:00+0200") ==
        "expected \"Z\" or a \"+hh:mm\" offset after the seconds");
  CHECK(error_of("2026-01-01T00:00:00+02:61") == "time zone offset out of range");
  CHECK(error_of("2026-01-01T00:00:00.Z") ==
        "expected \"Z\" or a \"+hh:mm\" offset after the seconds");
  CHECK(error_of("2026-01-01T00:00:00ZZ") ==
        "expected \"Z\" or a \"+hh:mm\" offset after the seconds");
  CHECK(error_of("20x6-01-01T00:00:00Z") == "bad year");
}

TEST_CASE("the error pointer may be null", "[model][time]") {
  CHECK_FALSE(parse_time("nope").has_value());
}

TEST_CASE("instants print in UTC with trimmed fractions", "[model][time]") {
  using kpreempt::model::to_string;
  CHECK(to_string(Instant{0, 0}) == "1970-01-01T00:00:00Z");
  CHECK(to_string(Instant{1767225600, 0}) == "2026-01-01T00:00:00Z");
  CHECK(to_string(Instant{1767225600, 500000000}) == "2026-01-01T00:00:00.5Z");
  CHECK(to_string(Instant{1767225600, 123456789}) == "2026-01-01T00:00:00.123456789Z");
  CHECK(to_string(Instant{1767225600, 1000}) == "2026-01-01T00:00:00.000001Z");
  CHECK(to_string(Instant{-62135596800, 0}) == "0001-01-01T00:00:00Z");
  CHECK(to_string(Instant{-1, 0}) == "1969-12-31T23:59:59Z");
  CHECK(to_string(must("2026-07-04T13:14:15.25+02:00")) == "2026-07-04T11:14:15.25Z");
}

TEST_CASE("instants order by seconds then nanoseconds", "[model][time]") {
  CHECK(Instant{1, 5} < Instant{2, 0});
  CHECK(Instant{1, 5} < Instant{1, 6});
  CHECK(Instant{1, 0}.plus_seconds(59) == Instant{60, 0});
}
