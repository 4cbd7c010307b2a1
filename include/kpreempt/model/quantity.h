// SPDX-License-Identifier: Apache-2.0
// Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource) in exact integer
// milli-units.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kpreempt::model {

// A quantity held as an exact count of milli-units: "100m" is 100, "2" is 2000, "1Ki" is
// 1024000. Values finer than a milli-unit are rounded up, as Quantity.MilliValue() does.
class Quantity {
 public:
  constexpr Quantity() = default;
  static constexpr Quantity from_milli(std::int64_t milli) { return Quantity(milli); }
  static constexpr Quantity from_units(std::int64_t units) { return Quantity(units * 1000); }

  constexpr std::int64_t milli() const { return m_milli; }
  // Whole units rounded up, as Quantity.Value() does (what the scheduler uses for every
  // resource but cpu).
  std::int64_t value_ceil() const;

  friend constexpr bool operator==(Quantity, Quantity) = default;
  friend constexpr auto operator<=>(Quantity, Quantity) = default;

 private:
  constexpr explicit Quantity(std::int64_t milli) : m_milli(milli) {}
  std::int64_t m_milli = 0;
};

struct QuantityParse {
  std::optional<Quantity> value;
  std::string error;  // why it is not a quantity, when value is empty
};

// Parses the full Kubernetes grammar: sign, digits with optional fraction, then one of the
// binary suffixes (Ki Mi Gi Ti Pi Ei), decimal suffixes (n u m "" k M G T P E) or a decimal
// exponent (e3, E-2). Fails on syntax errors and on values that do not fit int64 milli-units.
QuantityParse parse_quantity(std::string_view text);

// Canonical-ish rendering for output: "500m", "2", "1536Mi" style is not attempted; cpu-like
// values print as milli when fractional ("1500m"), else as integers ("2"), bytes as integers
// with the largest exact binary suffix ("4Gi").
std::string to_string(Quantity q, bool binary_suffixes = false);

}  // namespace kpreempt::model
