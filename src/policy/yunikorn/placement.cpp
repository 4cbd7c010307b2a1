// SPDX-License-Identifier: Apache-2.0
// Queue loading, placement and queue properties. Mirrors apache/yunikorn-core v1.7.0
// pkg/scheduler/placement/{placement.go,provided_rule.go,tag_rule.go,fixed_rule.go,user_rule.go}
// and pkg/scheduler/objects/queue.go (UpdateQueueProperties, the preemption and priority
// property parsing).
#include "policy/yunikorn/placement.h"

#include <algorithm>
#include <cctype>
#include <cmath>

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
  const std::string v = property(q, "priority.offset");
  std::size_t i = (!v.empty() && (v[0] == '+' || v[0] == '-')) ? 1 : 0;
  if (i == v.size() ||
      !std::all_of(v.begin() + static_cast<std::ptrdiff_t>(i), v.end(),
                   [](unsigned char ch) { return std::isdigit(ch); }) ||
      v.size() > 12) {
    return 0;  // strconv.ParseInt failed: upstream logs and uses 0
  }
  const long long n = std::stoll(v);
  return n < INT32_MIN || n > INT32_MAX ? 0 : static_cast<std::int32_t>(n);
}

std::int64_t preemption_delay_ns(const model::YkQueue& q) {
  constexpr std::int64_t k_default = 30'000'000'000LL;
  std::optional<std::int64_t> d = parse_go_duration(property(q, "preemption.delay"));
  return d && *d > 0 ? *d : k_default;
}

std::optional<std::int64_t> parse_go_duration(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") {
    return 0;
  }
  if (s.empty()) {
    return std::nullopt;
  }
  static const std::pair<std::string_view, double> k_units[] = {
      {"ns", 1.0}, {"us", 1e3}, {"\xc2\xb5s", 1e3}, {"\xce\xbcs", 1e3},
      {"ms", 1e6}, {"s", 1e9},  {"m", 60e9},        {"h", 3600e9}};
  double total = 0;
  while (!s.empty()) {
    std::size_t n = 0;
    while (n < s.size() && (std::isdigit(static_cast<unsigned char>(s[n])) || s[n] == '.')) {
      ++n;
    }
    if (n == 0 || s.substr(0, n) == ".") {
      return std::nullopt;
    }
    const double value = std::stod(std::string(s.substr(0, n)));
    s.remove_prefix(n);
    std::size_t u = 0;
    while (u < s.size() && !std::isdigit(static_cast<unsigned char>(s[u])) && s[u] != '.') {
      ++u;
    }
    auto it = std::find_if(std::begin(k_units), std::end(k_units),
                           [&](const auto& e) { return e.first == s.substr(0, u); });
    if (it == std::end(k_units)) {
      return std::nullopt;
    }
    total += value * it->second;
    s.remove_prefix(u);
  }
  if (total > 9.2e18) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(std::llround(negative ? -total : total));
}

}  // namespace kpreempt::policy::yunikorn
