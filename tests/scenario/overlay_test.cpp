// SPDX-License-Identifier: Apache-2.0
// Configuration versions for `kpreempt diff`: what differs between two, read from text.
#include "kpreempt/scenario/overlay.h"

#include <catch2/catch.hpp>

namespace kpreempt::scenario {
namespace {

ConfigVersion version(const std::string& name, const std::string& text) {
  std::vector<Diagnostic> diags;
  ConfigVersion v = read_config({ConfigInput{name, text}}, false, diags);
  REQUIRE(diags.empty());
  return v;
}

constexpr const char* k_class = R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: %NAME%, uid: 1234}
value: %VALUE%
)";

std::string pc(const std::string& name, int value) {
  std::string s = k_class;
  s.replace(s.find("%NAME%"), 6, name);
  s.replace(s.find("%VALUE%"), 7, std::to_string(value));
  return s;
}

}  // namespace

TEST_CASE("two configuration versions: added, removed and changed objects in key order",
          "[scenario][diff]") {
  ConfigVersion base = version("base.yaml", pc("batch", 100) + "---\n" + pc("old", 5));
  ConfigVersion head = version("head.yaml", pc("batch", 200) + "---\n" + pc("new", 7) +
                                                "---\napiVersion: kueue.x-k8s.io/v1beta1\n"
                                                "kind: LocalQueue\nmetadata: {name: q, "
                                                "namespace: ml}\nspec: {clusterQueue: cq}\n");
  std::vector<render::ConfigChange> changes = config_changes(base, head);
  REQUIRE(changes.size() == 4);
  // The same uid with another value is a change: versions are told apart by content.
  CHECK(changes[0].object == "LocalQueue/ml/q");
  CHECK(changes[0].kind == render::ConfigChangeKind::added);
  CHECK(changes[1].object == "PriorityClass/batch");
  CHECK(changes[1].kind == render::ConfigChangeKind::changed);
  CHECK(changes[1].loc.file == "head.yaml");
  CHECK(changes[2].object == "PriorityClass/new");
  CHECK(changes[2].kind == render::ConfigChangeKind::added);
  CHECK(changes[3].object == "PriorityClass/old");
  CHECK(changes[3].kind == render::ConfigChangeKind::removed);
  CHECK(changes[3].loc.file == "base.yaml");
  CHECK(class_value_changed(base, head));
  CHECK_FALSE(class_value_changed(base, base));
  CHECK(config_changes(base, base).empty());
}

}  // namespace kpreempt::scenario
