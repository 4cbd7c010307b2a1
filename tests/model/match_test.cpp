// SPDX-License-Identifier: Apache-2.0
// Label selectors, node selector terms, node affinity and tolerations.

#include "kpreempt/model/match.h"

#include <catch2/catch.hpp>

using namespace kpreempt::model;

namespace {

LabelSelector selector(StringMap labels, std::vector<Requirement> exprs = {}) {
  return LabelSelector{true, std::move(labels), std::move(exprs)};
}

Node node(std::string name, StringMap labels) {
  Node n;
  n.name = std::move(name);
  n.labels = std::move(labels);
  return n;
}

const StringMap k_labels{{"app", "web"}, {"tier", "front"}};

}  // namespace

TEST_CASE("a nil selector matches nothing and an empty one everything", "[model][match]") {
  CHECK_FALSE(matches(LabelSelector{}, k_labels));
  CHECK(matches(selector({}), k_labels));
  CHECK(matches(selector({}), StringMap{}));
  CHECK(empty(selector({})));
  CHECK_FALSE(empty(selector({{"app", "web"}})));
}

TEST_CASE("matchLabels require every pair exactly", "[model][match]") {
  CHECK(matches(selector({{"app", "web"}}), k_labels));
  CHECK(matches(selector({{"app", "web"}, {"tier", "front"}}), k_labels));
  CHECK_FALSE(matches(selector({{"app", "db"}}), k_labels));
  CHECK_FALSE(matches(selector({{"zone", "a"}}), k_labels));
}

TEST_CASE("label selector operators follow apimachinery", "[model][match]") {
  CHECK(matches(selector({}, {{"app", "In", {"db", "web"}}}), k_labels));
  CHECK_FALSE(matches(selector({}, {{"app", "In", {"db"}}}), k_labels));
  CHECK_FALSE(matches(selector({}, {{"zone", "In", {"a"}}}), k_labels));
  CHECK(matches(selector({}, {{"app", "NotIn", {"db"}}}), k_labels));
  CHECK_FALSE(matches(selector({}, {{"app", "NotIn", {"web"}}}), k_labels));
  CHECK(matches(selector({}, {{"zone", "NotIn", {"a"}}}), k_labels));
  CHECK(matches(selector({}, {{"app", "Exists", {}}}), k_labels));
  CHECK_FALSE(matches(selector({}, {{"zone", "Exists", {}}}), k_labels));
  CHECK(matches(selector({}, {{"zone", "DoesNotExist", {}}}), k_labels));
  CHECK_FALSE(matches(selector({}, {{"app", "DoesNotExist", {}}}), k_labels));
}

TEST_CASE("labels and expressions are ANDed", "[model][match]") {
  CHECK(matches(selector({{"app", "web"}}, {{"tier", "In", {"front"}}}), k_labels));
  CHECK_FALSE(matches(selector({{"app", "web"}}, {{"tier", "In", {"back"}}}), k_labels));
}

TEST_CASE("a label selector with an invalid requirement matches nothing", "[model][match]") {
  CHECK_FALSE(matches(selector({}, {{"app", "In", {}}}), k_labels));
  CHECK_FALSE(matches(selector({}, {{"app", "Exists", {"web"}}}), k_labels));
  CHECK_FALSE(matches(selector({}, {{"app", "Gt", {"1"}}}), k_labels));
  CHECK_FALSE(matches(selector({}, {{"zone", "NotIn", {"a"}}, {"x", "Bogus", {}}}), k_labels));
}

TEST_CASE("node selector terms support Gt and Lt on integer labels", "[model][match]") {
  const Node n = node("n1", {{"cores", "16"}, {"zone", "a"}});
  CHECK(matches(NodeSelectorTerm{{{"cores", "Gt", {"8"}}}, {}}, n));
  CHECK_FALSE(matches(NodeSelectorTerm{{{"cores", "Gt", {"16"}}}, {}}, n));
  CHECK(matches(NodeSelectorTerm{{{"cores", "Lt", {"32"}}}, {}}, n));
  CHECK_FALSE(matches(NodeSelectorTerm{{{"zone", "Lt", {"32"}}}, {}}, n));
  CHECK_FALSE(matches(NodeSelectorTerm{{{"gpus", "Lt", {"32"}}}, {}}, n));
  CHECK_FALSE(matches(NodeSelectorTerm{{{"cores", "Gt", {"x"}}}, {}}, n));
  CHECK_FALSE(matches(NodeSelectorTerm{{{"cores", "Gt", {"1", "2"}}}, {}}, n));
  CHECK(matches(NodeSelectorTerm{{{"cores", "Gt", {"-1"}}}, {}}, n));
}

TEST_CASE("node selector terms AND expressions and fields", "[model][match]") {
  const Node n = node("n1", {{"zone", "a"}});
  CHECK(matches(NodeSelectorTerm{{{"zone", "In", {"a", "b"}}}, {}}, n));
  CHECK(matches(NodeSelectorTerm{{{"zone", "NotIn", {"b"}}}, {}}, n));
  CHECK(matches(NodeSelectorTerm{{{"zone", "Exists", {}}}, {}}, n));
  CHECK(matches(NodeSelectorTerm{{{"gpu", "DoesNotExist", {}}}, {}}, n));
  CHECK(matches(NodeSelectorTerm{{}, {{"metadata.name", "In", {"n1"}}}}, n));
  CHECK_FALSE(matches(NodeSelectorTerm{{}, {{"metadata.name", "In", {"n2"}}}}, n));
  CHECK(matches(NodeSelectorTerm{{}, {{"metadata.name", "NotIn", {"n2"}}}}, n));
  CHECK_FALSE(
      matches(NodeSelectorTerm{{{"zone", "In", {"b"}}}, {{"metadata.name", "In", {"n1"}}}}, n));
}

TEST_CASE("unsupported field selectors and empty terms match nothing", "[model][match]") {
  const Node n = node("n1", {{"zone", "a"}});
  CHECK_FALSE(matches(NodeSelectorTerm{}, n));
  CHECK_FALSE(matches(NodeSelectorTerm{{}, {{"metadata.uid", "In", {"n1"}}}}, n));
  CHECK_FALSE(matches(NodeSelectorTerm{{}, {{"metadata.name", "In", {"n1", "n2"}}}}, n));
  CHECK_FALSE(matches(NodeSelectorTerm{{}, {{"metadata.name", "Exists", {}}}}, n));
  CHECK_FALSE(matches(NodeSelectorTerm{{{"zone", "In", {}}}, {}}, n));
}

TEST_CASE("node affinity needs the nodeSelector and one matching term", "[model][match]") {
  const Node n = node("n1", {{"disk", "ssd"}, {"zone", "a"}});
  Pod pod;
  CHECK(matches_node_affinity(pod, n));
  pod.node_selector = {{"disk", "ssd"}};
  CHECK(matches_node_affinity(pod, n));
  pod.node_selector = {{"disk", "hdd"}};
  CHECK_FALSE(matches_node_affinity(pod, n));
  pod.node_selector = {{"disk", "ssd"}};
  pod.has_required_node_affinity = true;
  CHECK_FALSE(matches_node_affinity(pod, n));  // present but no terms
  pod.required_node_affinity = {NodeSelectorTerm{{{"zone", "In", {"b"}}}, {}},
                                NodeSelectorTerm{{{"zone", "In", {"a"}}}, {}}};
  CHECK(matches_node_affinity(pod, n));
  pod.required_node_affinity = {NodeSelectorTerm{}, NodeSelectorTerm{{{"zone", "In", {"b"}}}, {}}};
  CHECK_FALSE(matches_node_affinity(pod, n));
  pod.required_node_affinity = {NodeSelectorTerm{{{"zone", "In", {}}}, {}},
                                NodeSelectorTerm{{{"zone", "Exists", {}}}, {}}};
  CHECK(matches_node_affinity(pod, n));  // a broken term does not spoil the others
}

TEST_CASE("tolerations follow v1.Toleration.ToleratesTaint", "[model][match]") {
  const Taint gpu{"gpu", "true", "NoSchedule"};
  CHECK(tolerates({"gpu", "Equal", "true", "NoSchedule"}, gpu));
  CHECK(tolerates({"gpu", "", "true", "NoSchedule"}, gpu));
  CHECK_FALSE(tolerates({"gpu", "Equal", "false", "NoSchedule"}, gpu));
  CHECK(tolerates({"gpu", "Exists", "", "NoSchedule"}, gpu));
  CHECK(tolerates({"gpu", "Exists", "", ""}, gpu));
  CHECK_FALSE(tolerates({"gpu", "Exists", "", "NoExecute"}, gpu));
  CHECK(tolerates({"", "Exists", "", ""}, gpu));
  CHECK_FALSE(tolerates({"other", "Exists", "", ""}, gpu));
  CHECK_FALSE(tolerates({"gpu", "Gt", "true", ""}, gpu));
  CHECK(tolerates({"", "Equal", "true", ""}, gpu));  // empty key: any key, value compared
}

TEST_CASE("only NoSchedule and NoExecute taints need toleration", "[model][match]") {
  const std::vector<Taint> taints{
      {"soft", "", "PreferNoSchedule"}, {"gpu", "true", "NoSchedule"}, {"drain", "", "NoExecute"}};
  CHECK(first_untolerated({}, taints) == &taints[1]);
  CHECK(first_untolerated({{"gpu", "Exists", "", ""}}, taints) == &taints[2]);
  CHECK(first_untolerated({{"gpu", "Exists", "", ""}, {"drain", "Exists", "", "NoExecute"}},
                          taints) == nullptr);
  CHECK(first_untolerated({{"", "Exists", "", ""}}, taints) == nullptr);
  CHECK(first_untolerated({}, {}) == nullptr);
}
