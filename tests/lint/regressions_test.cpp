// SPDX-License-Identifier: Apache-2.0
// Findings about classes declared in more than one file: a repeated declaration is one class,
// a differing one is reported with both places.
#include "lint_support.h"

#include <catch2/catch.hpp>

namespace {

using kpreempt::lint::Finding;

std::vector<Finding> lint_folder(const std::string& dir, const std::string& rule) {
  kpreempt::lint::Options o;
  o.only = {rule};
  return lint_test::lint(lint_test::scan(KPREEMPT_TESTDATA "/lint/" + dir), o);
}

}  // namespace

TEST_CASE("a class declared identically in two files is not an alias of itself", "[lint]") {
  CHECK(lint_folder("PC016/two-files", "PC016").empty());
  CHECK(lint_folder("PC016/two-files", "PC019").empty());
}

TEST_CASE("a class declared differently in two files is reported with both places", "[lint]") {
  std::vector<Finding> got = lint_folder("PC019/two-files", "PC019");
  REQUIRE(got.size() == 1);
  CHECK(got[0].loc.file.ends_with("PC019/two-files/b-team.yaml"));
  CHECK(got[0].loc.line == 1);  // where the object starts, as the loader's duplicate error says
  CHECK(got[0].message.find("PC019/two-files/a-platform.yaml:1:1 declares value 100") !=
        std::string::npos);
}
