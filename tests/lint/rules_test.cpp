// SPDX-License-Identifier: Apache-2.0
// Data-driven rule fixtures: testdata/lint/<RULE>/bad.yaml must yield the findings listed in
// its "# expect:" header lines (rule, severity, line:col, object, field); good.yaml must yield
// none of that rule. "# baseline: FILE" and "# option: NAME=VALUE" set up the run.
#include "lint_support.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using kpreempt::lint::Finding;

namespace {

struct Expect {
  std::string rule, severity, position, object, field;
};

struct Fixture {
  std::vector<Expect> expects;
  std::string baseline;
  kpreempt::lint::Options options;
};

Fixture read_header(const fs::path& file) {
  Fixture f;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line) && line.starts_with("#")) {
    std::istringstream words(line.substr(1));
    std::string tag;
    words >> tag;
    if (tag == "expect:") {
      Expect e;
      words >> e.rule >> e.severity >> e.position >> e.object;
      std::getline(words >> std::ws, e.field);
      f.expects.push_back(e);
    } else if (tag == "baseline:") {
      words >> f.baseline;
    } else if (tag == "option:") {
      std::string kv;
      words >> kv;
      if (kv.starts_with("policy=")) {
        f.options.policies.push_back(kv.substr(7));
      } else if (kv.starts_with("kube-version=")) {
        f.options.kube_version = std::pair{1, std::stoi(kv.substr(kv.find('.') + 1))};
      }
    }
  }
  return f;
}

std::vector<Finding> run_fixture(const fs::path& file, const Fixture& f, const std::string& rule) {
  kpreempt::lint::Options o = f.options;
  o.only = {rule};
  std::vector<kpreempt::load::ScannedObject> baseline;
  if (!f.baseline.empty()) {
    baseline = lint_test::scan((file.parent_path() / f.baseline).string());
  }
  return lint_test::lint(lint_test::scan(file.string()), o, baseline);
}

std::vector<fs::path> rule_dirs() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(KPREEMPT_TESTDATA "/lint")) {
    if (e.is_directory() && fs::exists(e.path() / "bad.yaml")) {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// bad.yaml, good.yaml and the variants bad-*.yaml, good-*.yaml (upstream-shaped regressions).
std::vector<fs::path> fixtures(const fs::path& dir, const std::string& kind) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (name == kind + ".yaml" || (name.starts_with(kind + "-") && name.ends_with(".yaml"))) {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every rule of the catalogue has a failing and a passing fixture", "[lint]") {
  for (const auto& r : kpreempt::lint::rules()) {
    INFO(r.id);
    fs::path dir = fs::path(KPREEMPT_TESTDATA "/lint") / std::string(r.id);
    CHECK(fs::exists(dir / "bad.yaml"));
    CHECK(fs::exists(dir / "good.yaml"));
  }
  CHECK(kpreempt::lint::rules().size() == 47);
}

TEST_CASE("each bad fixture yields its rule at the expected position", "[lint]") {
  for (const fs::path& dir : rule_dirs()) {
    const std::string rule = dir.filename().string();
    for (const fs::path& file : fixtures(dir, "bad")) {
      Fixture f = read_header(file);
      std::vector<Finding> got = run_fixture(file, f, rule);
      std::string listing;
      for (const Finding& g : got) {
        listing += g.rule + " " + std::string(kpreempt::lint::to_string(g.severity)) + " " +
                   std::to_string(g.loc.line) + ":" + std::to_string(g.loc.column) + " " +
                   g.object + " " + g.field + " | " + g.message + "\n";
      }
      INFO(file.filename().string() << " of " << rule << " findings:\n" << listing);
      REQUIRE_FALSE(f.expects.empty());
      CHECK(got.size() == f.expects.size());
      for (const Expect& e : f.expects) {
        bool found = std::any_of(got.begin(), got.end(), [&](const Finding& g) {
          return g.rule == e.rule && kpreempt::lint::to_string(g.severity) == e.severity &&
                 std::to_string(g.loc.line) + ":" + std::to_string(g.loc.column) == e.position &&
                 g.object == e.object && g.field == e.field &&
                 g.loc.file.ends_with(file.filename().string());
        });
        INFO("expected " << e.rule << " " << e.severity << " " << e.position << " " << e.object
                         << " " << e.field);
        CHECK(found);
      }
    }
  }
}

TEST_CASE("each good fixture is clean for its rule", "[lint]") {
  for (const fs::path& dir : rule_dirs()) {
    const std::string rule = dir.filename().string();
    for (const fs::path& file : fixtures(dir, "good")) {
      Fixture f = read_header(file);
      std::vector<Finding> got = run_fixture(file, f, rule);
      INFO(file.filename().string()
           << " of " << rule << ": " << (got.empty() ? "" : got.front().message));
      CHECK(got.empty());
    }
  }
}
