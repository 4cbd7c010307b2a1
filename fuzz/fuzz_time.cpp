// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: parse_time on arbitrary text; what to_string prints must parse back to
// the same instant.
#include "kpreempt/model/time.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string error;
  std::optional<kpreempt::model::Instant> t = kpreempt::model::parse_time(in, &error);
  if (!t) {
    return 0;
  }
  if (t->nanos < 0 || t->nanos > 999999999) {
    std::abort();
  }
  // Year 0 with an offset east of UTC is an instant in year -1, which RFC 3339 cannot write.
  constexpr std::int64_t k_year_1 = -62135596800;
  if (t->seconds < k_year_1) {
    return 0;
  }
  std::optional<kpreempt::model::Instant> back =
      kpreempt::model::parse_time(kpreempt::model::to_string(*t));
  if (!back || *back != *t) {
    std::abort();
  }
  return 0;
}
