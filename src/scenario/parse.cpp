// SPDX-License-Identifier: Apache-2.0
// case.yaml -> Scenario. Case files are small, so yaml-cpp reads them whole; its marks count
// from 0, messages count from 1.
#include "scenario/yaml_reader.h"

#include "kpreempt/policy/args.h"
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

constexpr std::array<std::string_view, 10> k_case_keys = {"name",      "source",  "note", "policy",
                                                          "preemptor", "now",     "args", "expect",
                                                          "cluster",   "upstream"};
constexpr std::array<std::string_view, 9> k_expect_keys = {"outcome", "node",       "nodeOneOf",
                                                           "victims", "notVictims", "maxVictims",
                                                           "placed",  "pending",    "cascade"};
constexpr std::array<std::string_view, 2> k_cascade_keys = {"noLoopWithin", "maxEvictions"};
constexpr std::array<std::string_view, 4> k_preemptor_keys = {"kind", "namespace", "name",
                                                              "podFile"};

// Whether `file` is `root` or below it, symlinks followed.
bool inside(const fs::path& file, const fs::path& root) {
  std::error_code ec;
  const fs::path f = fs::weakly_canonical(fs::absolute(file, ec), ec);
  const fs::path r = fs::weakly_canonical(fs::absolute(root, ec), ec);
  if (ec) {
    return false;
  }
  const fs::path rel = f.lexically_relative(r);
  return !rel.empty() && *rel.begin() != "..";
}

// A path of the case file resolved against its folder; "" (reported at `node`) when the rules
// keep it out.
std::string resolve(YamlReader& r, const PathRules& rules, const YAML::Node& node,
                    std::string_view key, const std::string& written) {
  fs::path p(written);
  const fs::path folder = fs::path(r.file()).parent_path();
  std::string path =
      p.is_absolute() ? p.lexically_normal().string() : (folder / p).lexically_normal().string();
  // Without a searched folder, a case may read its parent folder: the usual ../cluster.yaml.
  const fs::path root = rules.root.empty() ? folder.parent_path() : fs::path(rules.root);
  if (!rules.allow_outside && !inside(path, root.empty() ? fs::path(".") : root)) {
    r.error(node, fmt::format("{}: \"{}\" is outside the scenario folder \"{}\"; give "
                              "--allow-outside to read it",
                              key, written, root.empty() ? "." : root.string()));
    return {};
  }
  return path;
}

void read_cluster(YamlReader& r, const PathRules& rules, const YAML::Node& root, Scenario& s) {
  const YAML::Node node = root["cluster"];
  if (!node) {
    s.cluster_loc = {s.case_file, 1, 1};
    s.cluster_files.push_back(resolve(r, rules, root, "cluster", "cluster.yaml"));
    if (!fs::exists(s.cluster_files.back())) {
      r.error(root, "no cluster.yaml next to the case file and no cluster key naming the dump");
    }
    return;
  }
  s.cluster_loc = r.loc(node);
  for (const std::string& file : r.strings(node, "cluster")) {
    s.cluster_files.push_back(resolve(r, rules, node, "cluster", file));
    if (!s.cluster_files.back().empty() && !fs::exists(s.cluster_files.back())) {
      r.error(node, fmt::format("cluster: \"{}\" does not exist", file));
    }
  }
}

void read_preemptor(YamlReader& r, const PathRules& rules, const YAML::Node& root, Scenario& s) {
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
    p.pod_file = resolve(r, rules, node["podFile"], "preemptor.podFile",
                         r.string(node["podFile"], "preemptor.podFile"));
    if (!p.pod_file.empty() && !fs::exists(p.pod_file)) {
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

void read_cascade(YamlReader& r, const YAML::Node& expect, Expect& e) {
  const YAML::Node node = expect["cascade"];
  if (!r.require_map(expect, node, "expect.cascade")) {
    return;
  }
  r.check_keys(node, k_cascade_keys, "expect.cascade");
  CascadeExpect c;
  if (node["noLoopWithin"]) {
    c.no_loop_within = r.count(node["noLoopWithin"], "expect.cascade.noLoopWithin");
    // count() reports a value that is no count and gives 0 for it; a written 0 is ours.
    if (*c.no_loop_within == 0 && node["noLoopWithin"].Scalar() == "0") {
      r.error(node["noLoopWithin"],
              "expect.cascade.noLoopWithin: expected a number of rounds "
              ">= 1, got 0");
    }
  }
  if (node["maxEvictions"]) {
    c.max_evictions = r.count(node["maxEvictions"], "expect.cascade.maxEvictions");
  }
  if (!c.no_loop_within && !c.max_evictions) {
    r.error(node, "expect.cascade: give noLoopWithin, maxEvictions or both");
  }
  e.cascade = c;
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
  if (node["placed"]) {
    e.placed = r.count(node["placed"], "expect.placed");
  }
  if (node["pending"]) {
    e.pending = r.count(node["pending"], "expect.pending");
  }
  if (node["cascade"]) {
    read_cascade(r, node, e);
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

// The keys --set accepts, checked where they are written.
void check_arg_keys(YamlReader& r, const YAML::Node& args, const std::string& policy_name) {
  const policy::Entry* entry = policy::find(policy_name);
  if (entry == nullptr || !args.IsMap()) {
    return;  // already reported
  }
  const std::array<const policy::Entry*, 1> selected{entry};
  for (const auto& kv : args) {
    if (!kv.first.IsScalar()) {
      continue;
    }
    std::string problem = policy::unknown_key_problem(kv.first.Scalar(), selected);
    if (!problem.empty()) {
      r.error(kv.first, fmt::format("args: {}", problem));
    }
  }
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
  if (root["upstream"]) {
    s.upstream = r.string(root["upstream"], "upstream");
    if (const policy::Entry* entry = policy::find(s.policy)) {
      try {
        std::string warning;
        policy::resolve_line(*entry, s.upstream, &warning);
        if (!warning.empty()) {
          r.warning(root["upstream"], warning);
        }
      } catch (const UsageError& e) {
        r.error(root["upstream"], fmt::format("upstream: {}", e.what()));
      }
    }
  }
  if (root["args"]) {
    s.args_loc = r.loc(root["args"]);
    s.args = r.string_map(root["args"], "args");
    check_arg_keys(r, root["args"], s.policy);
  }
}

}  // namespace

std::optional<Scenario> parse_case_text(const std::string& text, const std::string& case_file,
                                        std::string name, std::vector<Diagnostic>& diags,
                                        const PathRules& paths) {
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
  read_cluster(r, paths, *root, s);
  read_preemptor(r, paths, *root, s);
  read_expect(r, *root, s);
  if (r.failed()) {
    return std::nullopt;
  }
  return s;
}

std::optional<Scenario> parse_case(const std::string& case_file, std::string name,
                                   std::vector<Diagnostic>& diags, const PathRules& paths) {
  std::ifstream in(case_file, std::ios::binary);
  if (!in) {
    diags.push_back({Severity::error, {case_file, 0, 0}, "cannot read the file"});
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_case_text(text.str(), case_file, std::move(name), diags, paths);
}

}  // namespace kpreempt::scenario
