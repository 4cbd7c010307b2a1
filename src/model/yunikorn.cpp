// SPDX-License-Identifier: Apache-2.0
// YuniKorn queue tree and pod metadata. Mirrors apache/yunikorn-core v1.7.0
// pkg/common/configs/config.go (root insertion), pkg/common/resources/resources.go
// (ParseQuantity) and pkg/scheduler/objects/queue.go (property inheritance), and
// apache/yunikorn-k8shim v1.7.0 pkg/common/utils/utils.go (application id and queue name).
#include "kpreempt/model/yunikorn.h"

#include <algorithm>
#include <cctype>

namespace kpreempt::model {
namespace {

struct Suffix {
  std::string_view text;
  std::int64_t factor;
};

constexpr Suffix k_suffixes[] = {
    {"Ki", 1LL << 10},      {"Mi", 1LL << 20},         {"Gi", 1LL << 30},
    {"Ti", 1LL << 40},      {"Pi", 1LL << 50},         {"Ei", 1LL << 60},
    {"k", 1000LL},          {"M", 1000000LL},          {"G", 1000000000LL},
    {"T", 1000000000000LL}, {"P", 1000000000000000LL}, {"E", 1000000000000000000LL},
};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool ieq(std::string_view a, std::string_view b) {
  return lower(a) == lower(b);
}

std::string label_or_annotation(const Pod& pod,
                                std::initializer_list<std::pair<bool, const char*>> keys) {
  for (const auto& [label, key] : keys) {
    const std::string* v = find(label ? pod.labels : pod.annotations, key);
    if (v != nullptr && !v->empty()) {
      return *v;
    }
  }
  return {};
}

// What a configured child takes over from its parent's effective properties (queue.go
// mergeProperties / the property table of the spec): only a disabled preemption policy
// inherits; priority settings never do; everything else is copied verbatim.
StringMap inherited_properties(const StringMap& parent) {
  StringMap out;
  for (const auto& [key, value] : parent) {
    if (key == "priority.policy" || key == "priority.offset") {
      continue;
    }
    if (key == "preemption.policy") {
      set(out, key, ieq(value, "disabled") ? "disabled" : "default");
      continue;
    }
    set(out, key, value);
  }
  return out;
}

void add_queue(std::vector<YkQueue>& out, const YkQueueConfig& c, std::uint32_t parent) {
  YkQueue q;
  q.name = lower(c.name);
  q.parent = parent;
  q.path = parent == UINT32_MAX ? q.name : out[parent].path + "." + q.name;
  q.leaf = !c.parent && c.queues.empty();
  q.guaranteed = c.resources.guaranteed;
  q.max = c.resources.max;
  q.properties = parent == UINT32_MAX ? StringMap{} : inherited_properties(out[parent].properties);
  for (const auto& [key, value] : c.properties) {
    set(q.properties, key, value);
  }
  q.child_template = c.child_template;
  auto index = static_cast<std::uint32_t>(out.size());
  out.push_back(std::move(q));
  if (parent != UINT32_MAX) {
    out[parent].children.push_back(index);
  }
  for (const YkQueueConfig& child : c.queues) {
    add_queue(out, child, index);
  }
}

}  // namespace

std::optional<std::int64_t> parse_yk_quantity(std::string_view key, std::string_view text,
                                              std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<std::int64_t> {
    if (error != nullptr) {
      *error = why;
    }
    return std::nullopt;
  };
  while (!text.empty() && text.front() == ' ') {
    text.remove_prefix(1);
  }
  while (!text.empty() && text.back() == ' ') {
    text.remove_suffix(1);
  }
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) {
    ++digits;
  }
  if (digits == 0) {
    return fail("is not a quantity");
  }
  std::string_view suffix = text.substr(digits);
  const bool vcore = key == "vcore";
  std::int64_t factor = 1;
  bool milli = false;
  if (suffix == "m" && vcore) {
    milli = true;
  } else if (!suffix.empty()) {
    auto it = std::find_if(std::begin(k_suffixes), std::end(k_suffixes),
                           [&](const Suffix& s) { return s.text == suffix; });
    if (it == std::end(k_suffixes)) {
      return fail(suffix == "m" ? "is not a quantity (\"m\" is only allowed for vcore)"
                                : "is not a quantity");
    }
    factor = it->factor;
  }
  std::int64_t value = 0;
  for (char ch : text.substr(0, digits)) {
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_add_overflow(value, ch - '0', &value)) {
      return fail("is out of range");
    }
  }
  if (vcore && !milli) {
    factor = factor > INT64_MAX / 1000 ? INT64_MAX : factor * 1000;
  }
  if (__builtin_mul_overflow(value, factor, &value)) {
    return fail("is out of range");
  }
  return value;
}

std::vector<YkQueue> build_yk_queues(const YkPartition& p) {
  std::vector<YkQueue> out;
  const bool has_root = p.queues.size() == 1 && ieq(p.queues[0].name, "root");
  if (has_root) {
    add_queue(out, p.queues[0], UINT32_MAX);
  } else {
    // config.go checkQueuesStructure: a root parent goes above the listed queues.
    YkQueueConfig root;
    root.name = "root";
    root.parent = true;
    root.queues = p.queues;
    add_queue(out, root, UINT32_MAX);
  }
  out[0].leaf = false;  // root is always a parent
  return out;
}

const YkPartition* default_partition(const YunikornConfig& c) {
  for (const YkPartition& p : c.partitions) {
    if (p.name.empty() || ieq(p.name, "default")) {
      return &p;
    }
  }
  return nullptr;
}

bool yk_pod(const Pod& pod) {
  return pod.scheduler_name == "yunikorn";
}

std::string yk_application_id(const Pod& pod) {
  std::string id = label_or_annotation(pod, {{true, "yunikorn.apache.org/app-id"},
                                             {false, "yunikorn.apache.org/app-id"},
                                             {true, "applicationId"},
                                             {true, "spark-app-selector"}});
  // A "-uniqueautogen" suffix written by the admission controller stands for the pod UID.
  constexpr std::string_view k_unique = "-uniqueautogen";
  if (id.ends_with(k_unique)) {
    id = id.substr(0, id.size() - k_unique.size()) + "-" + pod.uid;
  }
  if (!id.empty()) {
    return id;
  }
  return ("yunikorn-" + pod.namespace_ + "-autogen").substr(0, 63);
}

std::string yk_queue_name(const Pod& pod) {
  return label_or_annotation(
      pod,
      {{true, "yunikorn.apache.org/queue"}, {false, "yunikorn.apache.org/queue"}, {true, "queue"}});
}

}  // namespace kpreempt::model
