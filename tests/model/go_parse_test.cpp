// SPDX-License-Identifier: Apache-2.0
// Go-compatible parsing, checked against the cases of Go's own strconv/atoi_test.go,
// strconv/atob_test.go and time/time_test.go.

#include "kpreempt/model/go_parse.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

namespace kpreempt::model::go {
namespace {

constexpr std::int64_t k_second = 1'000'000'000;
constexpr std::int64_t k_ms = 1'000'000;
constexpr std::int64_t k_minute = 60 * k_second;
constexpr std::int64_t k_hour = 60 * k_minute;

}  // namespace

TEST_CASE("ParseInt reads base-10 int64 with an optional sign", "[model][go_parse]") {
  CHECK(parse_int("0").value == 0);
  CHECK(parse_int("-0").value == 0);
  CHECK(parse_int("+5").value == 5);
  CHECK(parse_int("-012345").value == -12345);
  CHECK(parse_int("98765432100").value == 98765432100LL);
  CHECK(parse_int("9223372036854775807").value == INT64_MAX);
  CHECK(parse_int("-9223372036854775808").value == INT64_MIN);
  for (const char* bad :
       {"", "+", "-", "+-1", "--1", " 5", "5 ", "1e3", "0x10", "1.0", "-1_2_3_4_5", "-_12345",
        "_12345", "1__2345", "12345_", "123%45", "\xef\xbc\x95"}) {
    INFO(bad);
    CHECK(parse_int(bad).error == Error::syntax);
  }
}

TEST_CASE("ParseInt reports the limit a value went past", "[model][go_parse]") {
  const auto high = parse_int("9223372036854775808");
  CHECK(high.error == Error::range);
  CHECK(high.limit == INT64_MAX);
  const auto low = parse_int("-9223372036854775809");
  CHECK(low.error == Error::range);
  CHECK(low.limit == INT64_MIN);
  CHECK(parse_int(std::string(400, '9')).error == Error::range);
  CHECK(parse_int("2147483647", 32).value == 2147483647);
  CHECK(parse_int("-2147483648", 32).value == -2147483648LL);
  CHECK(parse_int("2147483648", 32).limit == 2147483647);
  CHECK(parse_int("-2147483649", 32).limit == -2147483648LL);
  CHECK(parse_int("12345x", 32).error == Error::syntax);
  // Go notices the overflow of the bit size before the bad character.
  CHECK(parse_int("99999999999999999999x").error == Error::range);
  CHECK(parse_int("5000000000x", 32).error == Error::range);
}

TEST_CASE("ParseInt errors carry Go's wording", "[model][go_parse]") {
  CHECK(int_error("a", Error::syntax) == "strconv.ParseInt: parsing \"a\": invalid syntax");
  CHECK(int_error("2147483648", Error::range) ==
        "strconv.ParseInt: parsing \"2147483648\": value out of range");
  // A value kubectl printed with its quotes kept, as a user may paste it.
  CHECK(int_error("\"5\"", Error::syntax) ==
        "strconv.ParseInt: parsing \"\\\"5\\\"\": invalid syntax");
}

TEST_CASE("ParseUint takes no sign and reports its maximum", "[model][go_parse]") {
  CHECK(parse_uint("012345").value == 12345);
  CHECK(parse_uint("18446744073709551615").value == UINT64_MAX);
  CHECK(parse_uint("18446744073709551616").limit == UINT64_MAX);
  CHECK(parse_uint("18446744073709551620").error == Error::range);
  CHECK(parse_uint("4294967296", 32).error == Error::range);
  for (const char* bad : {"", "-0", "-1", "+1", "12345x", "1_2_3_4_5", "12345_"}) {
    INFO(bad);
    CHECK(parse_uint(bad).error == Error::syntax);
  }
  CHECK(uint_error("-1", Error::syntax) == "strconv.ParseUint: parsing \"-1\": invalid syntax");
}

TEST_CASE("ParseBool accepts Go's six spellings of each value", "[model][go_parse]") {
  for (const char* t : {"1", "t", "T", "TRUE", "true", "True"}) {
    INFO(t);
    CHECK(parse_bool(t).ok());
    CHECK(parse_bool(t).value);
  }
  for (const char* f : {"0", "f", "F", "FALSE", "false", "False"}) {
    INFO(f);
    CHECK(parse_bool(f).ok());
    CHECK_FALSE(parse_bool(f).value);
  }
  for (const char* bad : {"", "asdf", "yes", "tRUE", " true"}) {
    INFO(bad);
    CHECK(parse_bool(bad).error == Error::syntax);
  }
  CHECK(bool_error("yes") == "strconv.ParseBool: parsing \"yes\": invalid syntax");
}

TEST_CASE("ParseDuration reads every unit, fractions and signs", "[model][go_parse]") {
  CHECK(parse_duration("0").value == 0);
  CHECK(parse_duration("-0").ok());
  CHECK(parse_duration("+0").ok());
  CHECK(parse_duration("5s").value == 5 * k_second);
  CHECK(parse_duration("-5s").value == -5 * k_second);
  CHECK(parse_duration("+5s").value == 5 * k_second);
  CHECK(parse_duration("5.6s").value == 5 * k_second + 600 * k_ms);
  CHECK(parse_duration("5.s").value == 5 * k_second);
  CHECK(parse_duration(".5s").value == 500 * k_ms);
  CHECK(parse_duration("1.004s").value == k_second + 4 * k_ms);
  CHECK(parse_duration("100.00100s").value == 100 * k_second + k_ms);
  CHECK(parse_duration("10ns").value == 10);
  CHECK(parse_duration("11us").value == 11'000);
  CHECK(parse_duration("12\xc2\xb5s").value == 12'000);
  CHECK(parse_duration("12\xce\xbcs").value == 12'000);
  CHECK(parse_duration("13ms").value == 13 * k_ms);
  CHECK(parse_duration("15m").value == 15 * k_minute);
  CHECK(parse_duration("16h").value == 16 * k_hour);
  CHECK(parse_duration("10.5s4m").value == 4 * k_minute + 10 * k_second + 500 * k_ms);
  CHECK(parse_duration("-2m3.4s").value == -(2 * k_minute + 3 * k_second + 400 * k_ms));
  CHECK(parse_duration("1h2m3s4ms5us6ns").value ==
        k_hour + 2 * k_minute + 3 * k_second + 4 * k_ms + 5'000 + 6);
  CHECK(parse_duration("39h9m14.425s").value == 39 * k_hour + 9 * k_minute + 14'425 * k_ms);
  CHECK(parse_duration("0.3333333333333333333h").value == 20 * k_minute);
  CHECK(parse_duration("9007199254740993ns").value == (std::int64_t{1} << 53) + 1);
  CHECK(parse_duration("0.100000000000000000000h").value == 6 * k_minute);
  CHECK(parse_duration("0.830103483285477580700h").value ==
        49 * k_minute + 48 * k_second + 372'539'827);
}

TEST_CASE("ParseDuration stops exactly at int64", "[model][go_parse]") {
  for (const char* max :
       {"9223372036854775807ns", "9223372036854775.807us", "9223372036854ms775us807ns"}) {
    INFO(max);
    CHECK(parse_duration(max).value == INT64_MAX);
  }
  for (const char* min : {"-9223372036854775808ns", "-9223372036854775.808us",
                          "-9223372036854ms775us808ns", "-2562047h47m16.854775808s"}) {
    INFO(min);
    CHECK(parse_duration(min).value == INT64_MIN);
  }
  for (const char* over : {"9223372036854775808ns", "9223372036854775.808us",
                           "9223372036854ms775us808ns", "-9223372036854775809ns"}) {
    INFO(over);
    CHECK(parse_duration(over).error == Error::range);
  }
  CHECK(parse_duration(std::string(400, '1') + "s").error == Error::range);
  // Fraction digits past what fits are dropped, not an overflow.
  CHECK(parse_duration("1." + std::string(400, '1') + "s").ok());
}

TEST_CASE("ParseDuration rejects what Go rejects, in Go's words", "[model][go_parse]") {
  const auto message = [](std::string_view s) { return duration_error(s, parse_duration(s)); };
  for (const char* bad :
       {"", "-", "s", ".", "-.", ".s", "+.s", "\x85\x85", "hello \xff\xff world"}) {
    INFO(bad);
    CHECK_FALSE(parse_duration(bad).ok());
  }
  CHECK(message("") == "time: invalid duration \"\"");
  CHECK(message("+.s") == "time: invalid duration \"+.s\"");
  CHECK(message("3") == "time: missing unit in duration \"3\"");
  CHECK(message("1.5.2s") == "time: missing unit in duration \"1.5.2s\"");
  CHECK(message("10 s") == "time: unknown unit \" s\" in duration \"10 s\"");
  CHECK(message("1d") == "time: unknown unit \"d\" in duration \"1d\"");
  CHECK(message("\x85\x85") == "time: invalid duration \"\\x85\\x85\"");
  CHECK(message("\xef\xbf\xbd") == "time: invalid duration \"\\xef\\xbf\\xbd\"");
  CHECK(message("9223372036854775808ns") == "time: invalid duration \"9223372036854775808ns\"");
}

}  // namespace kpreempt::model::go
