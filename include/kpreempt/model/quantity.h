// SPDX-License-Identifier: Apache-2.0
// Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource) in exact integer
// milli-units, wide enough for every amount a resource can hold upstream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kpreempt::model {

// A quantity held as an exact count of milli-units: "100m" is 100, "2" is 2000, "1Ki" is
// 1024000. Values finer than a milli-unit are rounded up, as Quantity.MilliValue() does. The
// count is 128 bits wide: upstream compares cpu in int64 milli-units but every other resource
// in int64 whole units, so "1000000000Gi" of memory is valid although its milli-units are not.
class Quantity {
 public:
  __extension__ typedef __int128 Wide;
  __extension__ typedef unsigned __int128 UnsignedWide;  // for bit-exact storage

  constexpr Quantity() = default;
  static constexpr Quantity from_milli(std::int64_t milli) { return Quantity(milli); }
  static constexpr Quantity from_wide_milli(Wide milli) { return Quantity(milli); }
  static constexpr Quantity from_units(std::int64_t units) { return Quantity(Wide{units} * 1000); }

  constexpr Wide wide_milli() const { return m_milli; }
  // Milli-units, clamped to the int64 range (exact for every loaded cpu amount).
  std::int64_t milli() const;
  // Whole units rounded up, as Quantity.Value() does (what the scheduler uses for every
  // resource but cpu); clamped to the int64 range (exact for every loaded amount).
  std::int64_t value_ceil() const;

  friend constexpr Quantity operator+(Quantity a, Quantity b) {
    return Quantity(a.m_milli + b.m_milli);
  }
  friend constexpr bool operator==(Quantity, Quantity) = default;
  friend constexpr auto operator<=>(Quantity, Quantity) = default;

 private:
  constexpr explicit Quantity(Wide milli) : m_milli(milli) {}
  Wide m_milli = 0;
};

struct QuantityParse {
  std::optional<Quantity> value;
  std::string error;          // why it is not a quantity, when value is empty
  bool out_of_range = false;  // well formed, but beyond what any resource can hold
};

// Parses the full Kubernetes grammar: sign, digits with optional fraction, then one of the
// binary suffixes (Ki Mi Gi Ti Pi Ei), decimal suffixes (n u m "" k M G T P E) or a decimal
// exponent (e3, E-2). Fails on syntax errors and on values whose whole units do not fit int64
// (no resource can hold them upstream).
QuantityParse parse_quantity(std::string_view text);

// Why `q` cannot be an amount of `resource` as upstream compares it (cpu: int64 milli-units,
// MilliValue; anything else: int64 whole units, Value), or empty when it can. Names the limit.
std::string resource_limit_error(std::string_view resource, Quantity q);

// Canonical-ish rendering for output: "500m", "2", "1536Mi" style is not attempted; cpu-like
// values print as milli when fractional ("1500m"), else as integers ("2"), bytes as integers
// with the largest exact binary suffix ("4Gi").
std::string to_string(Quantity q, bool binary_suffixes = false);

}  // namespace kpreempt::model
