// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the JSON loader (load_buffer) on arbitrary bytes, then build().
#include "fuzz_load.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  if (in.starts_with("\xEF\xBB\xBF")) {
    in.remove_prefix(3);
  }
  char first = kpreempt::fuzz::first_non_blank(in);
  if (first != '{' && first != '[') {
    // Anything else would be sniffed as YAML: make it a JSON document that starts a list.
    std::string json = "[" + std::string(in);
    kpreempt::fuzz::load_and_build(json);
    return 0;
  }
  kpreempt::fuzz::load_and_build(in);
  return 0;
}
