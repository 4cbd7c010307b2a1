// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: YuniKorn's queues.yaml parser on arbitrary text, located as a block
// scalar inside a dump so that the position arithmetic is exercised too.
#include "load/queues_yaml.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  kpreempt::load::QueuesYamlOrigin origin;
  origin.file = "fuzz.yaml";
  origin.first_line = 7;
  origin.indent = 4;
  origin.block = (size % 2) == 0;
  try {
    kpreempt::load::parse_queues_yaml(in, origin);
  } catch (const kpreempt::InputError&) {
    // bad input, reported as such
  }
  return 0;
}
