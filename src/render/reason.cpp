// SPDX-License-Identifier: Apache-2.0
// The one place a reason becomes text: its stable name and, after a colon, its subject; and
// the sentence that says what it means.
#include "kpreempt/render/render.h"

#include <fmt/format.h>

namespace kpreempt::render {

std::string reason_text(const policy::Reason& reason) {
  std::string out(policy::name(reason.code));
  if (!reason.subject.empty()) {
    out += fmt::format(":{}", fmt::join(reason.subject, ","));
  }
  return out;
}

std::string reason_sentence(const policy::Reason& reason) {
  return std::string(policy::info(reason.code).sentence);
}

}  // namespace kpreempt::render
