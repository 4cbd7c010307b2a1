// SPDX-License-Identifier: Apache-2.0
// Lookups on the sorted maps objects carry, and object references for messages.

#include "kpreempt/model/objects.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::model {
namespace {

template <typename Pairs>
auto lower(const Pairs& m, std::string_view key) {
  return std::lower_bound(m.begin(), m.end(), key,
                          [](const auto& entry, std::string_view k) { return entry.first < k; });
}

}  // namespace

bool kept_pod_annotation(std::string_view key) {
  const std::size_t slash = key.find('/');
  if (slash == std::string_view::npos) {
    return key == "applicationId" || key == "queue" || key == "spark-app-selector";
  }
  const std::string_view domain = key.substr(0, slash);
  const auto under = [&](std::string_view d) {
    return domain == d || (domain.size() > d.size() && domain.ends_with(d) &&
                           domain[domain.size() - d.size() - 1] == '.');
  };
  // batch.kubernetes.io: a Job pod's completion index and its index's failure count.
  return under("batch.kubernetes.io") || under("kueue.x-k8s.io") || under("yunikorn.apache.org") ||
         under("koordinator.sh") || under("scheduling.sigs.k8s.io") || under("scheduling.x-k8s.io");
}

const OwnerReference* controller_of(const Pod& pod) {
  for (const OwnerReference& o : pod.owners) {
    if (o.controller) {
      return &o;
    }
  }
  return nullptr;
}

const std::string* find(const StringMap& m, std::string_view key) {
  const auto it = lower(m, key);
  if (it == m.end() || it->first != key) {
    return nullptr;
  }
  return &it->second.str();
}

void set(StringMap& m, const std::string& key, std::string value) {
  auto it = std::lower_bound(m.begin(), m.end(), key,
                             [](const auto& e, const std::string& k) { return e.first < k; });
  if (it != m.end() && it->first == key) {
    it->second = Atom(value);
  } else {
    m.insert(it, {Atom(key), Atom(value)});
  }
}

Quantity get(const ResourceList& r, std::string_view name) {
  const auto it = lower(r, name);
  if (it == r.end() || it->first != name) {
    return Quantity{};
  }
  return it->second;
}

std::string to_string(const ObjectRef& r) {
  if (r.namespace_.empty()) {
    return fmt::format("{}/{}", r.kind, r.name);
  }
  return fmt::format("{}/{}/{}", r.kind, r.namespace_, r.name);
}

}  // namespace kpreempt::model
