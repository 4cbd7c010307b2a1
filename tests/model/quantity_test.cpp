// SPDX-License-Identifier: Apache-2.0
// Quantity parsing against resource.ParseQuantity + MilliValue, and output rendering.

#include "kpreempt/model/quantity.h"

#include <catch2/catch.hpp>

using kpreempt::model::parse_quantity;
using kpreempt::model::Quantity;

namespace {

std::int64_t milli(std::string_view text) {
  const auto r = parse_quantity(text);
  INFO(text << ": " << r.error);
  REQUIRE(r.value.has_value());
  return r.value->milli();
}

std::string error_of(std::string_view text) {
  const auto r = parse_quantity(text);
  REQUIRE_FALSE(r.value.has_value());
  return r.error;
}

}  // namespace

TEST_CASE("decimal suffixes scale the number", "[model][quantity]") {
  CHECK(milli("100m") == 100);
  CHECK(milli("2") == 2000);
  CHECK(milli("2k") == 2000000);
  CHECK(milli("500M") == 500000000000);
  CHECK(milli("1G") == 1000000000000);
  CHECK(milli("3T") == 3000000000000000);
  CHECK(milli("1P") == 1000000000000000000);
  CHECK(milli("250000u") == 250);
  CHECK(milli("1000000n") == 1);
}

TEST_CASE("binary suffixes multiply by powers of 1024", "[model][quantity]") {
  CHECK(milli("1Ki") == 1024000);
  CHECK(milli("1.5Gi") == 1610612736000);
  CHECK(milli("128Mi") == 134217728000);
  CHECK(milli("4Ti") == 4398046511104000);
  CHECK(milli("0.5Ki") == 512000);
}

TEST_CASE("decimal exponents are accepted in both cases and with signs", "[model][quantity]") {
  CHECK(milli("1e3") == 1000000);
  CHECK(milli("1E3") == 1000000);
  CHECK(milli("1e+3") == 1000000);
  CHECK(milli("1E-2") == 10);
  CHECK(milli("12e-3") == 12);
}

TEST_CASE("fractions and signs parse like upstream's scanner", "[model][quantity]") {
  CHECK(milli("0.5") == 500);
  CHECK(milli(".5") == 500);
  CHECK(milli("5.") == 5000);
  CHECK(milli("1.") == 1000);
  CHECK(milli("+1") == 1000);
  CHECK(milli("-1") == -1000);
  CHECK(milli("-100m") == -100);
  CHECK(milli("007") == 7000);
  CHECK(milli("0") == 0);
  CHECK(milli("000") == 0);
  CHECK(milli("0.000") == 0);
}

TEST_CASE("degenerate inputs upstream reads as zero stay zero", "[model][quantity]") {
  // parseQuantityString turns an empty numerator into "0", so these are valid upstream.
  CHECK(milli("Ki") == 0);
  CHECK(milli(".") == 0);
  CHECK(milli("-") == 0);
  CHECK(milli("m") == 0);
}

TEST_CASE("amounts finer than a milli-unit round up", "[model][quantity]") {
  CHECK(milli("1n") == 1);
  CHECK(milli("1u") == 1);
  CHECK(milli("1001u") == 2);
  CHECK(milli("0.0001") == 1);
  CHECK(milli("1.0001") == 1001);
  CHECK(milli("1e-30") == 1);
  CHECK(milli("0.1m") == 1);
  CHECK(milli("1000u") == 1);
  CHECK(milli("-0.1m") == -1);
}

TEST_CASE("values beyond int64 milli-units parse when their whole units fit", "[model][quantity]") {
  const auto wide = [](std::string_view text) {
    const auto r = parse_quantity(text);
    REQUIRE(r.value.has_value());
    return *r.value;
  };
  CHECK(wide("1Ei").value_ceil() == 1152921504606846976);
  CHECK(wide("1E").value_ceil() == 1000000000000000000);
  CHECK(wide("10P").value_ceil() == 10000000000000000);
  CHECK(wide("1000000000Gi").value_ceil() == 1073741824000000000);
  CHECK(wide("9223372036854775807").value_ceil() == INT64_MAX);
  CHECK(wide("9223372036854775806.5").value_ceil() == INT64_MAX);
  // milli() clamps; only cpu is read in milli-units, and the loader refuses cpu this large.
  CHECK(wide("1Ei").milli() == INT64_MAX);
  CHECK(milli("9223372036854775807m") == INT64_MAX);
  CHECK(milli("8Pi") == 9007199254740992000);
}

TEST_CASE("values whose whole units exceed int64 are out of range", "[model][quantity]") {
  const std::string limit =
      "a resource is compared in int64 whole units (Value), at most 9223372036854775807";
  CHECK(error_of("1e100") == limit);
  CHECK(error_of("99999999999999999999") == limit);
  CHECK(error_of("9223372036854775808") == limit);
  CHECK(error_of("8Ei") == limit);
  CHECK(parse_quantity("8Ei").out_of_range);
  CHECK_FALSE(parse_quantity("1.5.0").out_of_range);
}

TEST_CASE("each resource is limited in the unit upstream compares it in", "[model][quantity]") {
  using kpreempt::model::resource_limit_error;
  const auto q = [](std::string_view text) { return *parse_quantity(text).value; };
  CHECK(resource_limit_error("memory", q("7Ei")).empty());
  CHECK(resource_limit_error("cpu", q("9223372036854775807m")).empty());
  CHECK(resource_limit_error("cpu", q("10P")) ==
        "cpu is compared in int64 milli-units (MilliValue), at most 9223372036854775807m");
  CHECK(resource_limit_error("cpu", q("-10P")) ==
        "cpu is compared in int64 milli-units (MilliValue), at most 9223372036854775807m");
  CHECK(resource_limit_error("nvidia.com/gpu", q("9223372036854775807")).empty());
}

TEST_CASE("sums of quantities are exact beyond int64 milli-units", "[model][quantity]") {
  const Quantity big = Quantity::from_units(INT64_MAX);
  CHECK((big + big).value_ceil() == INT64_MAX);  // clamped, never wrapped
  CHECK(kpreempt::model::to_string(Quantity::from_units(INT64_MAX)) == "9223372036854775807");
  CHECK(kpreempt::model::to_string(Quantity::from_units(1073741824000000000), true) ==
        "1000000000Gi");
}

TEST_CASE("malformed quantities are rejected with a reason", "[model][quantity]") {
  CHECK(error_of("") == "empty string");
  CHECK(error_of("1.5.0") == "unexpected character '.'");
  CHECK(error_of("1 Gi") == "unexpected character ' '");
  CHECK(error_of("1Gi ") == "unexpected character ' '");
  CHECK(error_of("abc") == "unexpected character 'a'");
  CHECK(error_of("1K") == "unknown suffix \"K\"");
  CHECK(error_of("1KiB") == "unexpected character 'B'");
  CHECK(error_of("1e") == "unknown suffix \"e\"");
  CHECK(error_of("1m5") == "unknown suffix \"m5\"");
  CHECK(error_of("1e3.5") == "unexpected character '.'");
  CHECK(error_of("1ee3") == "unknown suffix \"ee3\"");
}

TEST_CASE("value_ceil rounds whole units up", "[model][quantity]") {
  CHECK(Quantity::from_milli(1500).value_ceil() == 2);
  CHECK(Quantity::from_milli(1000).value_ceil() == 1);
  CHECK(Quantity::from_milli(1).value_ceil() == 1);
  CHECK(Quantity::from_milli(0).value_ceil() == 0);
  CHECK(Quantity::from_milli(-1500).value_ceil() == -2);
  CHECK(Quantity::from_milli(INT64_MAX).value_ceil() == INT64_MAX / 1000 + 1);
  CHECK(Quantity::from_units(INT64_MAX).value_ceil() == INT64_MAX);
}

TEST_CASE("quantities render as milli, integers or binary suffixes", "[model][quantity]") {
  using kpreempt::model::to_string;
  CHECK(to_string(Quantity::from_milli(1500)) == "1500m");
  CHECK(to_string(Quantity::from_milli(2000)) == "2");
  CHECK(to_string(Quantity::from_milli(0)) == "0");
  CHECK(to_string(Quantity::from_milli(-250)) == "-250m");
  CHECK(to_string(Quantity::from_units(4294967296), true) == "4Gi");
  CHECK(to_string(Quantity::from_units(1536LL * 1024 * 1024), true) == "1536Mi");
  CHECK(to_string(Quantity::from_units(1000), true) == "1000");
  CHECK(to_string(Quantity::from_units(4294967296)) == "4294967296");
  CHECK(to_string(Quantity::from_units(0), true) == "0");
  CHECK(to_string(Quantity::from_milli(1500), true) == "1500m");
}

TEST_CASE("fractions combine with any suffix", "[model][quantity]") {
  CHECK(milli("1.5e3") == 1500000);
  CHECK(milli("0.1Ki") == 102400);
  CHECK(milli("1.1Mi") == 1153433600);
  CHECK(milli("1e-3") == 1);
  CHECK(milli("0.0000000001Ki") == 1);
}

TEST_CASE("exponents wrap to 32 bits as upstream narrows them", "[model][quantity]") {
  CHECK(milli("1e4294967296") == 1000);
  CHECK(error_of("1e99999999999999999999") == "unknown suffix \"e99999999999999999999\"");
}
