// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the YAML loader (load_buffer) on arbitrary bytes, then build().
#include "fuzz_load.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  char first = kpreempt::fuzz::first_non_blank(in);
  if (first == '{' || first == '[') {
    // Such input would be sniffed as JSON; a comment line keeps it YAML (a flow collection).
    std::string yaml = "#\n" + std::string(in);
    kpreempt::fuzz::load_and_build(yaml);
    return 0;
  }
  kpreempt::fuzz::load_and_build(in);
  return 0;
}
