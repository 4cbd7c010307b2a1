// SPDX-License-Identifier: Apache-2.0
// A decision's reasons as the JSON output prints them, for assertions on policies.
#pragma once

#include "kpreempt/policy/policy.h"
#include "kpreempt/render/render.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

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
