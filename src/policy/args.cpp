// SPDX-License-Identifier: Apache-2.0
// Policy arguments given with --set, and the names of outcomes.

#include "kpreempt/diag.h"
#include "kpreempt/model/go_parse.h"
#include "kpreempt/policy/policy.h"

#include <fmt/format.h>

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
  // What Go's strconv.Atoi accepts: an optional sign, then decimal digits only.
  const auto parsed = model::go::parse_int(*text);
  if (!parsed) {
    throw UsageError(fmt::format("--set {}: \"{}\" is not an integer", key, *text));
  }
  return parsed.value;
}

}  // namespace kpreempt::policy
