// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: lint's scanner (scan_buffer, every object kept as a tree) on arbitrary
// bytes, and scan_document on the same bytes as an embedded file.
#include "kpreempt/diag.h"
#include "kpreempt/load/scan.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<kpreempt::load::ScannedObject> objects;
  std::vector<kpreempt::Diagnostic> diags;
  kpreempt::load::scan_buffer(in, "fuzz.yaml", objects, diags);
  try {
    kpreempt::load::scan_document(in, "fuzz.yaml");
  } catch (const kpreempt::InputError&) {
    // bad input, reported as such
  }
  return 0;
}
