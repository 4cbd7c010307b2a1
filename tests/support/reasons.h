// SPDX-License-Identifier: Apache-2.0
// A decision's reasons as the JSON output prints them, for assertions on policies.
#pragma once

#include "kpreempt/policy/policy.h"
#include "kpreempt/render/render.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Failed comparisons of typed reasons print them as the JSON output would.
namespace Catch {
template <>
struct StringMaker<kpreempt::policy::Reason> {
  static std::string convert(const kpreempt::policy::Reason& r) {
    return kpreempt::render::reason_text(r);
  }
};
template <>
struct StringMaker<std::optional<kpreempt::policy::Reason>> {
  static std::string convert(const std::optional<kpreempt::policy::Reason>& r) {
    return r ? kpreempt::render::reason_text(*r) : "(none)";
  }
};
}  // namespace Catch

namespace kpreempt::testing {

inline std::vector<std::string> reason_texts(const policy::Decision& d) {
  std::vector<std::string> out;
  for (const policy::Reason& r : d.reasons) {
    out.push_back(render::reason_text(r));
  }
  return out;
}

inline bool has_reason(const policy::Decision& d, std::string_view text) {
  const std::vector<std::string> texts = reason_texts(d);
  return std::find(texts.begin(), texts.end(), text) != texts.end();
}

}  // namespace kpreempt::testing
