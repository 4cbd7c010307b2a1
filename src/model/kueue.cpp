// SPDX-License-Identifier: Apache-2.0
// Lookups over the Kueue objects and the request arithmetic Kueue applies to pod sets
// (kubernetes-sigs/kueue v0.14 pkg/workload/workload.go, pkg/resources).
#include "kpreempt/model/kueue.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace kpreempt::model {
namespace {

template <typename T, typename Pred>
const T* find_if_ptr(const std::vector<T>& v, Pred pred) {
  auto it = std::find_if(v.begin(), v.end(), pred);
  return it == v.end() ? nullptr : &*it;
}

using Wide = Quantity::Wide;
using WideAmounts = std::map<std::string, Wide>;

// One container's effective requests: its requests, plus limits for resources it does not
// request (the API server defaults requests to limits; Kueue does the same for templates).
WideAmounts container_requests(const KueueContainer& c) {
  WideAmounts out;
  for (const auto& [name, q] : c.limits) {
    out[name] = kueue_amount(name, q);
  }
  for (const auto& [name, q] : c.requests) {
    out[name] = kueue_amount(name, q);
  }
  return out;
}

}  // namespace

std::optional<std::uint32_t> find_workload(const KueueObjects& k, std::string_view ns,
                                           std::string_view name) {
  for (std::size_t i = 0; i < k.workloads.size(); ++i) {
    if (k.workloads[i].namespace_ == ns && k.workloads[i].name == name) {
      return static_cast<std::uint32_t>(i);
    }
  }
  return std::nullopt;
}

const ClusterQueue* find_cluster_queue(const KueueObjects& k, std::string_view name) {
  return find_if_ptr(k.cluster_queues, [&](const ClusterQueue& c) { return c.name == name; });
}

const LocalQueue* find_local_queue(const KueueObjects& k, std::string_view ns,
                                   std::string_view name) {
  return find_if_ptr(k.local_queues,
                     [&](const LocalQueue& q) { return q.namespace_ == ns && q.name == name; });
}

const ResourceFlavor* find_flavor(const KueueObjects& k, std::string_view name) {
  return find_if_ptr(k.flavors, [&](const ResourceFlavor& f) { return f.name == name; });
}

const WorkloadPriorityClass* find_workload_priority_class(const KueueObjects& k,
                                                          std::string_view name) {
  return find_if_ptr(k.priority_classes,
                     [&](const WorkloadPriorityClass& c) { return c.name == name; });
}

const KueueNamespace* find_namespace(const KueueObjects& k, std::string_view name) {
  return find_if_ptr(k.namespaces, [&](const KueueNamespace& n) { return n.name == name; });
}

const KueueCondition* find_condition(const Workload& w, std::string_view type) {
  return find_if_ptr(w.conditions, [&](const KueueCondition& c) { return c.type == type; });
}

bool condition_true(const Workload& w, std::string_view type) {
  const KueueCondition* c = find_condition(w, type);
  return c != nullptr && c->status == "True";
}

std::int64_t kueue_amount(std::string_view resource, Quantity q) {
  if (resource == "cpu") {
    return q.milli();
  }
  return q.value_ceil();
}

namespace {

// Each loaded amount fits int64, so 128 bits hold the sums and the product with an int32
// count exactly.
WideAmounts wide_pod_set_requests(const KueuePodSet& ps, std::int64_t count) {
  WideAmounts per_pod;
  for (const KueueContainer& c : ps.containers) {
    for (const auto& [name, v] : container_requests(c)) {
      per_pod[name] += v;
    }
  }
  for (const KueueContainer& c : ps.init_containers) {
    for (const auto& [name, v] : container_requests(c)) {
      per_pod[name] = std::max(per_pod[name], v);
    }
  }
  for (const auto& [name, q] : ps.overhead) {
    per_pod[name] += kueue_amount(name, q);
  }
  for (auto& [name, v] : per_pod) {
    v *= count;
  }
  return per_pod;
}

constexpr Wide k_int64_max = std::numeric_limits<std::int64_t>::max();
constexpr Wide k_int64_min = std::numeric_limits<std::int64_t>::min();

}  // namespace

KueueAmounts pod_set_requests(const KueuePodSet& ps, std::int64_t count) {
  KueueAmounts out;
  for (const auto& [name, v] : wide_pod_set_requests(ps, count)) {
    out[name] = static_cast<std::int64_t>(std::clamp(v, k_int64_min, k_int64_max));
  }
  return out;
}

std::string pod_set_limit_error(const KueuePodSet& ps, std::int64_t count) {
  for (const auto& [name, v] : wide_pod_set_requests(ps, count)) {
    if (v > k_int64_max || v < k_int64_min) {
      return fmt::format("{} pods request more {} than Kueue can count (int64, at most {}{})",
                         count, name, std::numeric_limits<std::int64_t>::max(),
                         name == "cpu" ? "m" : "");
    }
  }
  return {};
}

Instant queue_order_time(const Workload& w) {
  const KueueCondition* evicted = find_condition(w, "Evicted");
  if (evicted != nullptr && evicted->status == "True" &&
      (evicted->reason == "AdmissionCheck" || evicted->reason == "PodsReadyTimeout") &&
      evicted->last_transition_time) {
    return *evicted->last_transition_time;
  }
  return w.creation_timestamp.value_or(Instant{});
}

bool valid_strategy_set(const std::vector<std::string>& names) {
  const bool one = names.size() == 1 &&
                   (names[0] == k_final_share_strategy || names[0] == k_initial_share_strategy);
  return one || (names.size() == 2 && names[0] == k_final_share_strategy &&
                 names[1] == k_initial_share_strategy);
}

}  // namespace kpreempt::model
