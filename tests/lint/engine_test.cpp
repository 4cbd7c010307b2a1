// SPDX-License-Identifier: Apache-2.0
// Rule selection, severities that depend on context, order independence and the report
// formats (text, json, github, junit) of `kpreempt lint`.
#include "lint_support.h"

#include "kpreempt/policy/policy.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <string_view>

using kpreempt::lint::Finding;
using kpreempt::lint::Level;
using kpreempt::lint::Options;

namespace {

constexpr const char* k_classes = R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: normal}
value: 1000
globalDefault: true
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: standard}
value: 1500000000
globalDefault: true
)";

std::vector<std::string> ids(const std::vector<Finding>& fs) {
  std::vector<std::string> out;
  for (const Finding& f : fs) {
    out.push_back(f.rule);
  }
  return out;
}

std::string written(kpreempt::lint::Format fmt, const std::vector<Finding>& fs) {
  std::ostringstream out;
  kpreempt::lint::Result r;
  r.findings = fs;
  r.selected = kpreempt::lint::select_rules(Options{});
  kpreempt::lint::write(fmt, r, out);
  return out.str();
}

}  // namespace

TEST_CASE("rule selection honours groups, policies, only, enable and disable", "[lint]") {
  Options o;
  CHECK(kpreempt::lint::select_rules(o).size() == 47);
  o.groups = {kpreempt::lint::Group::priorityclasses};
  CHECK(kpreempt::lint::select_rules(o).size() == 28);
  o.policies = {"toleration"};
  auto tol = kpreempt::lint::select_rules(o);
  CHECK(tol.size() == 20 + 6);
  o.disable = {"PC001", "unused-class"};
  CHECK(kpreempt::lint::select_rules(o).size() == 24);
  o.enable = {"KQ001"};
  CHECK(kpreempt::lint::select_rules(o).back()->id == "KQ001");
  Options only;
  only.only = {"EQ003", "value-above-user-max"};
  auto sel = kpreempt::lint::select_rules(only);
  REQUIRE(sel.size() == 2);
  CHECK(sel[0]->id == "PC001");
}

TEST_CASE("unknown rule ids and policies are usage errors", "[lint]") {
  Options o;
  o.only = {"PC999"};
  CHECK_THROWS_AS(kpreempt::lint::select_rules(o), kpreempt::UsageError);
  Options p;
  p.policies = {"volcano"};
  CHECK_THROWS_AS(kpreempt::lint::select_rules(p), kpreempt::UsageError);
}

TEST_CASE("every rule names registered policies, and every policy can be selected", "[lint]") {
  for (const auto& r : kpreempt::lint::rules()) {
    INFO(r.id);
    std::string_view list = r.policies;
    if (list == "all") {
      continue;
    }
    for (std::size_t start = 0; start <= list.size();) {
      std::size_t comma = std::min(list.find(',', start), list.size());
      CHECK(kpreempt::policy::find(list.substr(start, comma - start)) != nullptr);
      start = comma + 1;
    }
  }
  for (const auto& e : kpreempt::policy::all()) {
    Options o;
    o.policies = {std::string(e.name)};
    CHECK_NOTHROW(kpreempt::lint::select_rules(o));
  }
}

TEST_CASE("findings are sorted by position and do not depend on input order", "[lint]") {
  auto a = lint_test::lint(lint_test::scan_text(k_classes));
  CHECK(ids(a) == std::vector<std::string>{"PC001", "PC005"});
  CHECK(a[0].object == "PriorityClass/standard");
  CHECK(a[0].loc.line == 10);
  CHECK(a[1].loc.line == 11);
  std::string text(k_classes);
  std::size_t sep = text.find("---\n");
  std::string swapped = text.substr(sep + 4) + "---\n" + text.substr(0, sep);
  auto b = lint_test::lint(lint_test::scan_text(swapped));
  REQUIRE(b.size() == 2);
  // PC005 still names the same pair the same way round.
  CHECK(b[0].rule == "PC001");
  CHECK(b[1].object == "PriorityClass/standard");
}

TEST_CASE("a running pod with an unknown class is a warning, a stale priority is info", "[lint]") {
  auto in = lint_test::scan_text(R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: web}
value: 1000
---
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: shop, uid: 1234}
spec: {priorityClassName: gone}
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: shop, uid: 5678}
spec: {priorityClassName: web, priority: 10}
)");
  Options o;
  o.only = {"PC010", "PC011"};
  auto fs = lint_test::lint(in, o);
  REQUIRE(fs.size() == 2);
  CHECK(fs[0].rule == "PC010");
  CHECK(fs[0].severity == Level::warning);
  CHECK(fs[1].rule == "PC011");
  CHECK(fs[1].severity == Level::info);
}

TEST_CASE("an older --kube-version turns PC009 into a warning", "[lint]") {
  auto in = lint_test::scan_text(
      "apiVersion: scheduling.k8s.io/v1beta1\nkind: PriorityClass\nmetadata: {name: x}\n"
      "value: 1\n");
  Options o;
  o.only = {"PC009"};
  o.kube_version = std::pair{1, 21};
  auto fs = lint_test::lint(in, o);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].severity == Level::warning);
  o.kube_version = std::pair{1, 22};
  CHECK(lint_test::lint(in, o)[0].severity == Level::error);
}

TEST_CASE("JSON input is linted with real positions", "[lint]") {
  auto in = lint_test::scan_text(
      "{\"apiVersion\": \"scheduling.k8s.io/v1\", \"kind\": \"PriorityClass\",\n"
      " \"metadata\": {\"name\": \"x\"},\n \"value\": 2000000000}\n");
  Options o;
  o.only = {"PC001"};
  auto fs = lint_test::lint(in, o);
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].loc.line == 3);
  CHECK(fs[0].field == ".value");
}

TEST_CASE("an old-group quota is Koordinator's unless the run shows CapacityScheduling", "[lint]") {
  auto in = lint_test::scan_text(
      "apiVersion: scheduling.sigs.k8s.io/v1alpha1\nkind: ElasticQuota\n"
      "metadata: {name: q, namespace: a}\nspec: {min: {cpu: 1}, max: {cpu: 2}}\n");
  CHECK(lint_test::lint(in).empty());
  Options capacity;
  capacity.policies = {"capacity"};
  CHECK(ids(lint_test::lint(in, capacity)) == std::vector<std::string>{"EQ005"});
  auto mixed = lint_test::scan_text(
      "apiVersion: scheduling.sigs.k8s.io/v1alpha1\nkind: ElasticQuota\n"
      "metadata: {name: q, namespace: a}\nspec: {min: {cpu: 1}, max: {cpu: 2}}\n---\n"
      "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: ElasticQuota\n"
      "metadata: {name: q, namespace: b}\nspec: {min: {cpu: 1}, max: {cpu: 2}}\n");
  CHECK(ids(lint_test::lint(mixed)) == std::vector<std::string>{"EQ005"});
  capacity.policies = {"capacity", "koordinator"};
  CHECK(lint_test::lint(mixed, capacity).empty());
}

TEST_CASE("text output is one line per finding and nothing when clean", "[lint]") {
  auto fs = lint_test::lint(lint_test::scan_text(k_classes));
  std::string text = written(kpreempt::lint::Format::text, fs);
  CHECK(text.find("in.yaml:10:1: error: PriorityClass/standard: value 1500000000") == 0);
  CHECK(text.find("[PC001]\n") != std::string::npos);
  CHECK(written(kpreempt::lint::Format::text, {}).empty());
  CHECK(written(kpreempt::lint::Format::github, {}) ==
        "::notice title=kpreempt lint::linted 0 objects from 0 files: 0 findings\n");
}

TEST_CASE("json output lists every field of a finding", "[lint]") {
  auto fs = lint_test::lint(lint_test::scan_text(k_classes));
  auto doc = nlohmann::json::parse(written(kpreempt::lint::Format::json, fs));
  REQUIRE(doc["findings"].size() == 2);
  const auto& f = doc["findings"][0];
  for (const char* key :
       {"rule", "severity", "message", "object", "field", "file", "line", "column"}) {
    CHECK(f.contains(key));
  }
  CHECK(f["field"] == ".value");
  CHECK(nlohmann::json::parse(written(kpreempt::lint::Format::json, {}))["findings"].empty());
}

TEST_CASE("github annotations escape their properties and map info to notice", "[lint]") {
  Finding f{"PC016",           Level::info, "a, b: 100%",
            "PriorityClass/x", ".value",    kpreempt::SourceLoc{"dir/a,b.yaml", 3, 1}};
  std::string out = written(kpreempt::lint::Format::github, {f});
  CHECK(out.substr(0, out.find('\n') + 1) ==
        "::notice file=dir/a%2Cb.yaml,line=3,col=1,title=PC016::PriorityClass/x: a, b: "
        "100%25\n");
}

TEST_CASE("junit output has one testsuite and fails the rules with findings", "[lint]") {
  auto fs = lint_test::lint(lint_test::scan_text(k_classes));
  std::string xml = written(kpreempt::lint::Format::junit, fs);
  CHECK(xml.find("<testsuite name=\"kpreempt lint\" tests=\"47\" failures=\"2\"") !=
        std::string::npos);
  CHECK(xml.find("<failure type=\"PC001\"") != std::string::npos);
  CHECK(xml.find("<failure type=\"PC002\"") == std::string::npos);
  CHECK(xml.find("name=\"PC002 reserved-system-prefix\"") != std::string::npos);
}
