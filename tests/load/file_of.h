// SPDX-License-Identifier: Apache-2.0
// Test input as a temporary file, so that a source reads it in chunks as from a real dump.
#pragma once

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

namespace kpreempt::test {

inline std::FILE* file_of(const std::string& text) {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  REQUIRE(std::fwrite(text.data(), 1, text.size(), f) == text.size());
  std::rewind(f);
  return f;
}

}  // namespace kpreempt::test
