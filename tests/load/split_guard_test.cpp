// SPDX-License-Identifier: Apache-2.0
#include "load/split_guard.h"

#include <catch2/catch.hpp>

#include <string>

using kpreempt::load::SplitGuard;

namespace {

// A line opening something at column `at` of plain text, then a line too shallow to continue it.
bool ok_after(const std::string& first, const std::string& second = "  next: 1\n") {
  SplitGuard guard;
  return guard.lines_ok(first + "\n" + second);
}

}  // namespace

TEST_CASE("the split guard sees a quote or bracket at any column", "[load][split]") {
  for (std::size_t at = 0; at < 24; ++at) {
    const std::string pad(at, 'a');
    INFO("column " << at);
    for (const char* open : {"\"x", "'x", "[x", "{x"}) {
      CHECK_FALSE(ok_after("    k: " + pad + " " + open));
    }
    for (const char* closed : {"\"x\"", "'x'", "[x]", "{x}", "[{x}]"}) {
      CHECK(ok_after("    k: " + pad + " " + closed));
    }
    CHECK(ok_after("    k: " + pad + " #" + std::string(10, 'b') + " \"x"));  // in a comment
    // Bytes that look special eight at a time but are not.
    for (char plain : {'\x02', '\x03', '\x07', 'Z', '\\', ';', '}'}) {
      CHECK(ok_after("    k: " + pad + plain + "\"x"));  // a quote inside a plain scalar
    }
  }
}

TEST_CASE("the split guard measures indents of any length", "[load][split]") {
  for (std::size_t indent = 7; indent < 26; ++indent) {
    INFO("indent " << indent);
    const std::string line = std::string(indent, ' ') + "k: \"open";
    CHECK(ok_after(line, std::string(indent + 1, ' ') + "still quoted\"\n"));
    CHECK_FALSE(ok_after(line, std::string(indent, ' ') + "k2: 1\n"));
  }
}
