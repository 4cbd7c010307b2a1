// SPDX-License-Identifier: Apache-2.0
// Queue loading, placement and queue properties. Mirrors apache/yunikorn-core v1.7.0
// pkg/scheduler/placement/{placement.go,provided_rule.go,tag_rule.go,fixed_rule.go,user_rule.go}
// and pkg/scheduler/objects/queue.go (UpdateQueueProperties, the preemption and priority
// property parsing).
#include "policy/yunikorn/placement.h"

#include "kpreempt/model/go_parse.h"
#include "kpreempt/policy/reason.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace kpreempt::policy::yunikorn {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

std::string property(const model::YkQueue& q, std::string_view key) {
  const std::string* v = model::find(q.properties, key);
  return v == nullptr ? std::string() : *v;
}

const model::YkPartition& builtin_partition() {
  static const model::YkPartition k_default = [] {
    model::YkPartition p;
    p.name = "default";
    model::YkQueueConfig root;
    root.name = "root";
    root.parent = true;
    p.queues.push_back(root);
    p.placement_rules.push_back(model::YkPlacementRule{
        .name = "tag", .create = true, .value = "namespace", .parent = {}, .loc = {}});
    return p;
  }();
  return k_default;
}

const model::YkPartition& partition_of(Cluster& c, bool warn) {
  const model::YunikornConfig* cfg = c.snap.yunikorn().config();
  c.has_config = cfg != nullptr;
  if (cfg == nullptr) {
    return builtin_partition();
  }
  if (const model::YkPartition* p = model::default_partition(*cfg)) {
    return *p;
  }
  if (warn) {
    c.warnings.push_back(
        "the queue file has no partition \"default\"; the built-in default is used");
  }
  return builtin_partition();
}

// A dynamic leaf below `parent`: the nearest child template of an ancestor, else defaults
// (dynamic queues do not inherit their parent's properties).
std::uint32_t create_leaf(Cluster& c, std::uint32_t parent, const std::string& name) {
  model::YkQueue q;
  q.name = name;
  q.path = c.queues[parent].q.path + "." + name;
  q.parent = parent;
  q.dynamic = true;
  for (std::uint32_t a = parent; a != k_no_queue; a = c.queues[a].q.parent) {
    if (const auto& t = c.queues[a].q.child_template) {
      q.properties = t->properties;
      q.guaranteed = t->resources.guaranteed;
      q.max = t->resources.max;
      break;
    }
  }
  auto index = static_cast<std::uint32_t>(c.queues.size());
  c.queues.push_back(QueueInfo{.q = std::move(q), .allocated = {}, .preempting = {}});
  c.queues[parent].q.children.push_back(index);
  return index;
}

// The queue name a rule produces, before qualification; empty when the rule does not apply.
std::string rule_name(const model::YkPlacementRule& r, const model::Pod& pod) {
  if (r.name == "provided") {
    return model::yk_queue_name(pod);
  }
  if (r.name == "tag") {
    return lower(r.value) == "namespace" ? pod.namespace_ : std::string();
  }
  if (r.name == "fixed") {
    return r.value;
  }
  if (r.name == "user") {
    return "nobody";  // the shim's default user; user info annotations are not modelled
  }
  return {};
}

std::string replace_dots(const std::string& s) {
  std::string out;
  for (char ch : s) {
    out += ch == '.' ? std::string("_dot_") : std::string(1, ch);
  }
  return out;
}

// The full path a rule asks for; empty when it does not apply.
std::string rule_path(const Cluster& c, const model::YkPlacementRule& r, const model::Pod& pod) {
  std::string name = lower(rule_name(r, pod));
  if (name.empty()) {
    return name;
  }
  if (name == "root" || name.starts_with("root.")) {
    return name;
  }
  std::string parent = "root";
  if (!r.parent.empty()) {
    parent = rule_path(c, r.parent.front(), pod);
    if (parent.empty()) {
      return parent;
    }
  }
  return parent + "." + replace_dots(name);
}

std::uint32_t try_rule(Cluster& c, const model::YkPlacementRule& r, const model::Pod& pod) {
  const std::string path = rule_path(c, r, pod);
  if (path.empty()) {
    return k_no_queue;
  }
  if (std::optional<std::uint32_t> q = c.find_queue(path)) {
    return c.queues[*q].q.leaf ? *q : k_no_queue;
  }
  const std::size_t dot = path.rfind('.');
  std::optional<std::uint32_t> parent = c.find_queue(path.substr(0, dot));
  if (!r.create || dot == std::string::npos || !parent || c.queues[*parent].q.leaf) {
    return k_no_queue;
  }
  return create_leaf(c, *parent, path.substr(dot + 1));
}

}  // namespace

void load_queues(Cluster& c) {
  const model::YkPartition& p = partition_of(c, true);
  c.preemption_enabled = p.preemption_enabled;
  if (!c.rules.newer_config_keys && !p.newer_keys.empty()) {
    const SourceLoc& at = p.newer_keys.front();
    c.warnings.push_back(fmt::format(
        "{}: yunikorn v1.7 rejects this queues.yaml as a whole (a v1.8 key at {}:{}); the "
        "scheduler keeps its previous configuration, which the dump does not show: evaluated "
        "with the file as v1.8 reads it",
        policy::name(policy::Code::config_rejected), at.file, at.line));
  }
  for (model::YkQueue& q : model::build_yk_queues(p)) {
    c.queues.push_back(QueueInfo{.q = std::move(q), .allocated = {}, .preempting = {}});
  }
  c.queues[0].q.guaranteed.reset();  // root never has a guarantee
  c.queues[0].q.max.reset();         // its max is the cluster size (Cluster::root_max)
}

std::uint32_t place(Cluster& c, const model::Pod& pod, bool running) {
  const model::YkPartition& p = partition_of(c, false);
  std::vector<model::YkPlacementRule> rules = p.placement_rules;
  if (rules.empty()) {
    rules.push_back(model::YkPlacementRule{
        .name = "provided", .create = false, .value = {}, .parent = {}, .loc = {}});
  }
  for (const model::YkPlacementRule& r : rules) {
    if (std::uint32_t q = try_rule(c, r, pod); q != k_no_queue) {
      return q;
    }
  }
  if (running) {
    std::optional<std::uint32_t> q = c.find_queue("root.@recovery@");
    return q ? *q : create_leaf(c, 0, "@recovery@");
  }
  std::optional<std::uint32_t> def = c.find_queue("root.default");
  return def && c.queues[*def].q.leaf ? *def : k_no_queue;
}

PreemptionPolicy preemption_policy(const model::YkQueue& q) {
  const std::string v = lower(property(q, "preemption.policy"));
  if (v == "fence") {
    return PreemptionPolicy::fence;
  }
  return v == "disabled" ? PreemptionPolicy::disabled : PreemptionPolicy::normal;
}

bool priority_fence(const model::YkQueue& q) {
  return lower(property(q, "priority.policy")) == "fence";
}

std::int32_t priority_offset(const model::YkQueue& q) {
  // strconv.ParseInt(value, 10, 32); upstream logs a failure and uses 0.
  const auto n = model::go::parse_int(property(q, "priority.offset"), 32);
  return n ? static_cast<std::int32_t>(n.value) : 0;
}

std::int64_t preemption_delay_ns(const model::YkQueue& q) {
  constexpr std::int64_t k_default = 30'000'000'000LL;
  // time.ParseDuration; upstream logs a failure (an overflow too) and keeps the default.
  const auto d = model::go::parse_duration(property(q, "preemption.delay"));
  return d && d.value > 0 ? d.value : k_default;
}

}  // namespace kpreempt::policy::yunikorn
