// SPDX-License-Identifier: Apache-2.0
// Queue loading, placement and queue properties. Mirrors apache/yunikorn-core v1.7.0
// pkg/scheduler/placement/{placement.go,provided_rule.go,tag_rule.go,fixed_rule.go,user_rule.go}
// and pkg/scheduler/objects/queue.go (UpdateQueueProperties, the preemption and priority
// property parsing).
#include "policy/yunikorn/placement.h"

#include "kpreempt/model/go_parse.h"
#include "kpreempt/model/kueue.h"
#include "kpreempt/model/quantity.h"
#include "kpreempt/policy/reason.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

// A dynamic queue below `parent`: a leaf takes the nearest child template of an ancestor, else
// defaults (dynamic queues do not inherit their parent's properties); a parent made on the way
// to it takes nothing, the template lookup walks through it.
std::uint32_t create_queue(Cluster& c, std::uint32_t parent, const std::string& name, bool leaf) {
  model::YkQueue q;
  q.name = name;
  q.path = c.queues[parent].q.path + "." + name;
  q.parent = parent;
  q.leaf = leaf;
  q.dynamic = true;
  for (std::uint32_t a = parent; leaf && a != k_no_queue; a = c.queues[a].q.parent) {
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

std::uint32_t create_leaf(Cluster& c, std::uint32_t parent, const std::string& name) {
  return create_queue(c, parent, name, true);
}

// The shim's resource from a JSON annotation (utils.go GetNamespace*FromAnnotation and
// common.GetResource): cpu becomes vcore in millicores, every other name keeps its whole
// units. Bad JSON or any bad quantity drops the whole annotation.
std::optional<Res> annotation_resource(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_null()) {
    return Res{};  // a nil map: an empty resource, which no filter lets through
  }
  if (j.is_discarded() || !j.is_object()) {
    return std::nullopt;
  }
  Res out;
  for (const auto& [name, value] : j.items()) {
    // json.Unmarshal into map[string]string: a non-string value fails the whole object, a
    // null one reads as "" and then fails ParseQuantity.
    if (!value.is_string()) {
      return std::nullopt;
    }
    const model::QuantityParse q = model::parse_quantity(value.get<std::string>());
    if (!q.value) {
      return std::nullopt;
    }
    set(out, name == "cpu" ? "vcore" : name,
        name == "cpu" ? q.value->milli() : q.value->value_ceil());
  }
  return out;
}

// The deprecated namespace.max.cpu / namespace.max.memory pair (common.ParseResource).
std::optional<Res> deprecated_max(const std::string* cpu, const std::string* mem) {
  Res out;
  if (cpu != nullptr && !cpu->empty()) {
    const model::QuantityParse q = model::parse_quantity(*cpu);
    if (!q.value) {
      return std::nullopt;
    }
    set(out, "vcore", q.value->milli());
  }
  if (mem != nullptr && !mem->empty()) {
    const model::QuantityParse q = model::parse_quantity(*mem);
    if (!q.value) {
      return std::nullopt;
    }
    set(out, "memory", q.value->value_ceil());
  }
  return out;
}

// Both filters a resource tag passes: the shim drops an all-zero resource (IsZero), the core
// one with a negative value or no positive one (getResourceFromTags, StrictlyGreaterThanZero).
std::optional<Res> tag_resource(std::optional<Res> r) {
  if (!r) {
    return r;
  }
  bool positive = false;
  for (const auto& [name, v] : *r) {
    if (v < 0) {
      return std::nullopt;
    }
    positive = positive || v > 0;
  }
  return positive ? r : std::nullopt;
}

// The tags the shim puts on an application from its namespace (context.go
// updateApplicationTags); no Namespace object in the dump means none.
struct AppTags {
  std::string ns, parent_queue;
  std::optional<Res> guaranteed, max;
};

AppTags app_tags(const Cluster& c, const model::Pod& pod) {
  AppTags t;
  t.ns = pod.namespace_;
  const model::KueueNamespace* ns = model::find_namespace(c.snap.kueue(), pod.namespace_);
  if (ns == nullptr) {
    return t;
  }
  auto annotation = [&](std::string_view key) {
    return model::find(ns->annotations, fmt::format("yunikorn.apache.org/{}", key));
  };
  const std::string* quota = annotation("namespace.quota");
  if (quota != nullptr && !quota->empty()) {
    t.max = tag_resource(annotation_resource(*quota));
  } else {
    const std::string* cpu = annotation("namespace.max.cpu");
    const std::string* mem = annotation("namespace.max.memory");
    if ((cpu != nullptr && !cpu->empty()) || (mem != nullptr && !mem->empty())) {
      t.max = tag_resource(deprecated_max(cpu, mem));
    }
  }
  if (const std::string* g = annotation("namespace.guaranteed"); g != nullptr && !g->empty()) {
    t.guaranteed = tag_resource(annotation_resource(*g));
  }
  if (const std::string* p = annotation("parentqueue")) {
    t.parent_queue = *p;
  }
  return t;
}

// The queue name a rule produces, before qualification; empty when the rule does not apply.
// Tag names compare case-insensitively (Application.GetTag).
std::string rule_name(const model::YkPlacementRule& r, const model::Pod& pod, const AppTags& t) {
  if (r.name == "provided") {
    return model::yk_queue_name(pod);
  }
  if (r.name == "tag") {
    const std::string tag = lower(r.value);
    if (tag == "namespace") {
      return t.ns;
    }
    return tag == "namespace.parentqueue" ? t.parent_queue : std::string();
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

// configs.QueueNameRegExp: ^[a-zA-Z0-9_:#/@-]{1,64}$
bool valid_queue_name(std::string_view n) {
  if (n.empty() || n.size() > 64) {
    return false;
  }
  return std::all_of(n.begin(), n.end(), [](unsigned char ch) {
    return std::isalnum(ch) != 0 ||
           std::string_view("_:#/@-").find(static_cast<char>(ch)) != std::string_view::npos;
  });
}

// What a rule returns: a full path, nothing (the next rule runs) or an error, which fails the
// placement as a whole (placement.go PlaceApplication returns it).
struct RuleResult {
  std::string path;
  bool error = false;
};

// The rule's placeApplication: the path it asks for, with the parent rule run first when the
// name is not fully qualified; a rule that may not create needs an existing queue.
RuleResult rule_path(const Cluster& c, const model::YkPlacementRule& r, const model::Pod& pod,
                     const AppTags& t) {
  std::string name = lower(rule_name(r, pod, t));
  if (name.empty()) {
    return {};
  }
  std::string path;
  if (name == "root") {
    path = name;
  } else if (name.starts_with("root.")) {
    std::string_view rest = name;
    for (std::size_t dot = 0; dot != std::string_view::npos;) {
      dot = rest.find('.');
      if (!valid_queue_name(rest.substr(0, dot))) {
        return {.path = {}, .error = true};
      }
      rest = dot == std::string_view::npos ? rest : rest.substr(dot + 1);
    }
    path = name;
  } else {
    const std::string child = replace_dots(name);
    if (!valid_queue_name(child)) {
      return {.path = {}, .error = true};
    }
    std::string parent = "root";
    if (!r.parent.empty()) {
      RuleResult p = rule_path(c, r.parent.front(), pod, t);
      if (p.error || p.path.empty()) {
        return p;
      }
      parent = p.path.starts_with("root.") ? p.path : "root." + p.path;
      if (std::optional<std::uint32_t> q = c.find_queue(parent); q && c.queues[*q].q.leaf) {
        return {.path = {}, .error = true};  // "parent rule returned a leaf queue"
      }
    }
    path = parent + "." + child;
  }
  if (!r.create && !c.find_queue(path)) {
    return {};
  }
  return {.path = path, .error = false};
}

// The queue a rule places the application in, creating the missing part of its path
// (partition.go createQueue: below the deepest existing queue, which must not be a leaf).
// k_no_queue: the next rule runs; nullopt: placement failed.
std::optional<std::uint32_t> try_rule(Cluster& c, const model::YkPlacementRule& r,
                                      const model::Pod& pod, const AppTags& t) {
  const RuleResult res = rule_path(c, r, pod, t);
  if (res.error) {
    return std::nullopt;
  }
  if (res.path.empty()) {
    return k_no_queue;
  }
  if (std::optional<std::uint32_t> q = c.find_queue(res.path)) {
    return c.queues[*q].q.leaf ? *q : k_no_queue;
  }
  std::vector<std::string> missing;
  std::string current = res.path;
  std::optional<std::uint32_t> existing;
  while (!existing) {
    const std::size_t dot = current.rfind('.');
    if (dot == std::string::npos) {
      return std::nullopt;  // "illegal queue name passed in"
    }
    missing.push_back(current.substr(dot + 1));
    current.resize(dot);
    existing = c.find_queue(current);
  }
  if (c.queues[*existing].q.leaf) {
    return std::nullopt;  // "creation of queue failed parent is already a leaf"
  }
  std::uint32_t q = *existing;
  for (std::size_t i = missing.size(); i-- > 0;) {
    q = create_queue(c, q, missing[i], i == 0);
  }
  return q;
}

// partition.go AddApplication: a dynamic leaf takes the namespace's guaranteed and quota tags,
// each one cleared when its tag is absent (queue.go setResources) even if a child template set
// it; a configured leaf and the recovery queue ignore them.
void apply_tags(Cluster& c, std::uint32_t q, const AppTags& t) {
  model::YkQueue& leaf = c.queues[q].q;
  if (!leaf.dynamic || leaf.path == "root.@recovery@" || (!t.guaranteed && !t.max)) {
    return;
  }
  leaf.guaranteed = t.guaranteed;
  leaf.max = t.max;
}

}  // namespace

void load_queues(Cluster& c) {
  const model::YkPartition& p = partition_of(c, true);
  c.preemption_enabled = p.preemption_enabled;
  c.quota_preemption_enabled = p.quota_preemption_enabled;
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
  const AppTags tags = app_tags(c, pod);
  for (const model::YkPlacementRule& r : rules) {
    const std::optional<std::uint32_t> q = try_rule(c, r, pod, tags);
    if (!q) {
      return k_no_queue;
    }
    if (*q != k_no_queue) {
      apply_tags(c, *q, tags);
      return *q;
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

std::int64_t quota_delay_ns(const model::YkQueue& q) {
  // convertDelay with DefaultQuotaPreemptionDelay 0; unlike preemption.delay, parents use it too.
  const auto d = model::go::parse_duration(property(q, "preemption.quota.delay"));
  return d && d.value > 0 ? d.value : 0;
}

}  // namespace kpreempt::policy::yunikorn
