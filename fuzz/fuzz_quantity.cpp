// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: parse_quantity on arbitrary text. Besides crashes it checks that what
// to_string prints parses back to the same amount, so a wrong value is a finding too.
#include "kpreempt/model/quantity.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using kpreempt::model::parse_quantity;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  kpreempt::model::QuantityParse q = parse_quantity(in);
  if (!q.value) {
    if (q.error.empty()) {
      std::abort();  // a refusal must say why
    }
    return 0;
  }
  for (bool binary : {false, true}) {
    kpreempt::model::QuantityParse back = parse_quantity(to_string(*q.value, binary));
    if (!back.value || *back.value != *q.value) {
      std::abort();
    }
  }
  return 0;
}
