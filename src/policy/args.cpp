// SPDX-License-Identifier: Apache-2.0
// Policy arguments given with --set, and the names of outcomes.

#include "kpreempt/diag.h"
#include "kpreempt/policy/policy.h"

#include <fmt/format.h>

#include <charconv>

namespace kpreempt::policy {

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::fits:
      return "fits";
    case Outcome::preempt:
      return "preempt";
    case Outcome::unschedulable:
      return "unschedulable";
  }
  return "unschedulable";
}

std::int64_t Args::get_int(std::string_view key, std::int64_t fallback) const {
  const std::string* text = find(key);
  if (text == nullptr) {
    return fallback;
  }
  // Accept what Go's strconv.Atoi accepts: an optional sign, then decimal digits only.
  std::string_view digits = *text;
  if (!digits.empty() && digits.front() == '+') {
    digits.remove_prefix(1);
  }
  std::int64_t value = 0;
  const char* first = digits.data();
  const char* last = first + digits.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  const bool signed_twice = digits.size() != text->size() && !digits.empty() && digits[0] == '-';
  if (digits.empty() || ec != std::errc() || ptr != last || signed_twice) {
    throw UsageError(fmt::format("--set {}: \"{}\" is not an integer", key, *text));
  }
  return value;
}

}  // namespace kpreempt::policy
