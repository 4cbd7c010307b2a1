// SPDX-License-Identifier: Apache-2.0
// case.yaml -> Scenario. Case files are small, so yaml-cpp reads them whole; its marks count
// from 0, messages count from 1.
#include "scenario/yaml_reader.h"

#include "kpreempt/policy/policy.h"
#include "kpreempt/scenario/scenario.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace kpreempt::scenario {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::string_view, 9> k_case_keys = {
    "name", "source", "note", "policy", "preemptor", "now", "args", "expect", "cluster"};
constexpr std::array<std::string_view, 6> k_expect_keys = {"outcome", "node",       "nodeOneOf",
                                                           "victims", "notVictims", "maxVictims"};
constexpr std::array<std::string_view, 4> k_preemptor_keys = {"kind", "namespace", "name",
                                                              "podFile"};

std::string resolve(const YamlReader& r, const std::string& relative) {
  fs::path p(relative);
  if (p.is_absolute()) {
    return p.lexically_normal().string();
  }
  return (fs::path(r.file()).parent_path() / p).lexically_normal().string();
}

void read_cluster(YamlReader& r, const YAML::Node& root, Scenario& s) {
  const YAML::Node node = root["cluster"];
  if (!node) {
    s.cluster_loc = {s.case_file, 1, 1};
    s.cluster_files.push_back(resolve(r, "cluster.yaml"));
    if (!fs::exists(s.cluster_files.back())) {
      r.error(root, "no cluster.yaml next to the case file and no cluster key naming the dump");
    }
    return;
  }
  s.cluster_loc = r.loc(node);
  for (const std::string& file : r.strings(node, "cluster")) {
    s.cluster_files.push_back(resolve(r, file));
    if (!fs::exists(s.cluster_files.back())) {
      r.error(node, fmt::format("cluster: \"{}\" does not exist", file));
    }
  }
}

void read_preemptor(YamlReader& r, const YAML::Node& root, Scenario& s) {
  const YAML::Node node = root["preemptor"];
  if (!r.require_map(root, node, "preemptor")) {
    return;
  }
  r.check_keys(node, k_preemptor_keys, "preemptor");
  Preemptor& p = s.preemptor;
  p.loc = r.loc(node);
  if (node["podFile"]) {
    if (node["name"] || node["kind"]) {
      r.error(node, "preemptor: give either podFile or kind, namespace and name");
    }
    p.pod_file = resolve(r, r.string(node["podFile"], "preemptor.podFile"));
    if (!fs::exists(p.pod_file)) {
      r.error(node["podFile"], fmt::format("preemptor.podFile: \"{}\" does not exist",
                                           r.string(node["podFile"], "")));
    }
    return;
  }
  p.kind = node["kind"] ? r.string(node["kind"], "preemptor.kind") : "Pod";
  if (p.kind != "Pod" && p.kind != "Workload") {
    r.error(node["kind"],
            fmt::format("preemptor.kind: expected Pod or Workload, got \"{}\"", p.kind));
  }
  p.namespace_ = node["namespace"] ? r.string(node["namespace"], "preemptor.namespace") : "default";
  if (!node["name"]) {
    r.error(node, "preemptor: name (or podFile) is required");
    return;
  }
  p.name = r.string(node["name"], "preemptor.name");
}

std::vector<std::string> read_refs(YamlReader& r, const YAML::Node& node, std::string_view key) {
  std::vector<std::string> refs = r.strings(node, key, /*allow_scalar=*/false);
  for (const std::string& ref : refs) {
    auto first = ref.find('/');
    auto second = first == std::string::npos ? first : ref.find('/', first + 1);
    if (second == std::string::npos || first == 0 || second == first + 1 ||
        second + 1 == ref.size() || ref.find('/', second + 1) != std::string::npos) {
      r.error(node, fmt::format("expect.{}: expected Kind/namespace/name, got \"{}\"", key, ref));
    }
  }
  return refs;
}

void read_expect(YamlReader& r, const YAML::Node& root, Scenario& s) {
  const YAML::Node node = root["expect"];
  if (!r.require_map(root, node, "expect")) {
    return;
  }
  r.check_keys(node, k_expect_keys, "expect");
  Expect& e = s.expect;
  if (!node["outcome"]) {
    r.error(node, "expect: outcome is required (fits, preempt or unschedulable)");
  } else {
    e.outcome = r.string(node["outcome"], "expect.outcome");
    if (e.outcome != "fits" && e.outcome != "preempt" && e.outcome != "unschedulable") {
      r.error(node["outcome"], fmt::format("expect.outcome: expected fits, preempt or "
                                           "unschedulable, got \"{}\"",
                                           e.outcome));
    }
  }
  if (node["node"] && node["nodeOneOf"]) {
    r.error(node["nodeOneOf"], "expect: give node or nodeOneOf, not both");
  }
  if (node["node"]) {
    e.node = r.string(node["node"], "expect.node");
  }
  if (node["nodeOneOf"]) {
    e.node_one_of = r.strings(node["nodeOneOf"], "expect.nodeOneOf", false);
  }
  if (node["victims"]) {
    e.victims = read_refs(r, node["victims"], "victims");
  }
  if (node["notVictims"]) {
    e.not_victims = read_refs(r, node["notVictims"], "notVictims");
  }
  if (node["maxVictims"]) {
    e.max_victims = r.count(node["maxVictims"], "expect.maxVictims");
  }
}

std::string policy_names() {
  std::string names;
  for (const policy::Entry& e : policy::all()) {
    names += names.empty() ? "" : ", ";
    names += e.name;
  }
  return names;
}

void read_top(YamlReader& r, const YAML::Node& root, Scenario& s) {
  if (root["name"]) {
    s.name = r.string(root["name"], "name");
  }
  s.source = root["source"] ? r.string(root["source"], "source") : "";
  s.note = root["note"] ? r.string(root["note"], "note") : "";
  if (!root["policy"]) {
    r.error(root, fmt::format("policy is required (one of {})", policy_names()));
  } else {
    s.policy = r.string(root["policy"], "policy");
    if (policy::find(s.policy) == nullptr) {
      r.error(root["policy"], fmt::format("policy: unknown policy \"{}\"; expected one of {}",
                                          s.policy, policy_names()));
    }
  }
  if (root["now"]) {
    std::string text = r.string(root["now"], "now");
    std::string why;
    s.now = model::parse_time(text, &why);
    if (!s.now) {
      r.error(root["now"], fmt::format("now: \"{}\" is not an RFC 3339 time: {}", text, why));
    }
  }
  if (root["args"]) {
    s.args_loc = r.loc(root["args"]);
    s.args = r.string_map(root["args"], "args");
  }
}

}  // namespace

std::optional<Scenario> parse_case_text(const std::string& text, const std::string& case_file,
                                        std::string name, std::vector<Diagnostic>& diags) {
  YamlReader r(case_file, diags);
  std::optional<YAML::Node> root = r.load(text);
  if (!root) {
    return std::nullopt;
  }
  Scenario s;
  s.name = std::move(name);
  s.case_file = case_file;
  r.check_keys(*root, k_case_keys, "");
  read_top(r, *root, s);
  read_cluster(r, *root, s);
  read_preemptor(r, *root, s);
  read_expect(r, *root, s);
  if (r.failed()) {
    return std::nullopt;
  }
  return s;
}

std::optional<Scenario> parse_case(const std::string& case_file, std::string name,
                                   std::vector<Diagnostic>& diags) {
  std::ifstream in(case_file, std::ios::binary);
  if (!in) {
    diags.push_back({Severity::error, {case_file, 0, 0}, "cannot read the file"});
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_case_text(text.str(), case_file, std::move(name), diags);
}

}  // namespace kpreempt::scenario
