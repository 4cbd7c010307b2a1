// SPDX-License-Identifier: Apache-2.0
// Scheduler resource arithmetic (framework.Resource) and the pod request formula of
// component-helpers' PodRequests, including sidecar init containers and pod-level requests.

#include "kpreempt/model/resources.h"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>

namespace kpreempt::model {
namespace {

constexpr std::string_view k_cpu = "cpu";
constexpr std::string_view k_memory = "memory";
constexpr std::string_view k_ephemeral = "ephemeral-storage";
constexpr std::string_view k_pods = "pods";

using Scalars = std::vector<std::pair<std::string, std::int64_t>>;

Scalars::iterator scalar_slot(Scalars& s, std::string_view name) {
  return std::lower_bound(s.begin(), s.end(), name,
                          [](const auto& e, std::string_view n) { return e.first < n; });
}

bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// validation.IsDNS1123Subdomain: dot-separated labels of [a-z0-9-], each starting and ending
// alphanumeric.
bool is_dns_subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) {
    return false;
  }
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    const std::string_view label =
        s.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (label.empty() || !is_lower_alnum(label.front()) || !is_lower_alnum(label.back()) ||
        !std::all_of(label.begin(), label.end(),
                     [](char c) { return is_lower_alnum(c) || c == '-'; })) {
      return false;
    }
    if (dot == std::string_view::npos) {
      return true;
    }
    start = dot + 1;
  }
}

// validation.IsQualifiedName on "requests." + name: a DNS-subdomain prefix, '/', then a name
// of alphanumerics, '-', '_' and '.', starting and ending alphanumeric, at most 63 long.
bool is_qualified_request_name(std::string_view name) {
  const std::size_t slash = name.find('/');
  const std::string_view local = name.substr(slash + 1);
  if (!is_dns_subdomain("requests." + std::string(name.substr(0, slash)))) {
    return false;
  }
  const auto alnum = [](char c) { return is_lower_alnum(c) || (c >= 'A' && c <= 'Z'); };
  if (local.empty() || local.size() > 63 || !alnum(local.front()) || !alnum(local.back())) {
    return false;
  }
  return std::all_of(local.begin(), local.end(),
                     [&](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

// schedutil.IsScalarResourceName: the scheduler silently ignores every other resource name.
bool is_scalar_resource(std::string_view name) {
  if (name.starts_with("hugepages-") || name.starts_with("attachable-volumes-")) {
    return true;
  }
  const bool prefixed_native = name.find("kubernetes.io/") != std::string_view::npos;
  if (prefixed_native) {
    return true;
  }
  // Extended resources: domain-qualified, not native, not quota-prefixed.
  if (name.find('/') == std::string_view::npos || name.starts_with("requests.")) {
    return false;
  }
  return is_qualified_request_name(name);
}

// A v1.ResourceList being aggregated: exact milli-units per name, as Quantity.Add keeps them.
// 128 bits hold any sum of loaded amounts, so the limits are checked once, on the total.
using Wide = Quantity::Wide;
using Sum = std::map<std::string, Wide, std::less<>>;

void add_into(Sum& sum, const ResourceList& list) {
  for (const auto& [name, q] : list) {
    sum[name] += q.wide_milli();
  }
}

void add_into(Sum& sum, const Sum& other) {
  for (const auto& [name, v] : other) {
    sum[name] += v;
  }
}

void max_into(Sum& sum, const Sum& other) {
  for (const auto& [name, v] : other) {
    const auto it = sum.find(name);
    if (it == sum.end()) {
      sum.emplace(name, v);
    } else {
      it->second = std::max(it->second, v);
    }
  }
}

Sum to_sum(const ResourceList& list) {
  Sum s;
  add_into(s, list);
  return s;
}

// aggregateContainerResourcesByFn: regular containers and sidecars run together; each
// init container i runs alongside the sidecars started before it. `value` gives a container's
// amounts (nullopt: the container counts nothing).
template <class Value>
Sum aggregate_by(const Pod& pod, Value value) {
  Sum result;
  for (const Container& c : pod.containers) {
    if (const std::optional<Sum> v = value(c, false)) {
      add_into(result, *v);
    }
  }
  Sum sidecars;
  Sum init_peak;
  for (const Container& c : pod.init_containers) {
    const std::optional<Sum> v = value(c, true);
    if (c.restart_always) {
      if (v) {
        add_into(result, *v);
        add_into(sidecars, *v);
      }
      max_into(init_peak, sidecars);
    } else {
      Sum running = v ? *v : Sum{};
      add_into(running, sidecars);
      max_into(init_peak, running);
    }
  }
  max_into(result, init_peak);
  return result;
}

Sum aggregate_containers(const Pod& pod) {
  return aggregate_by(pod,
                      [](const Container& c, bool) { return std::optional(to_sum(c.requests)); });
}

// preFilterState.SetMaxResource on a zero Resource: negatives floor at zero, pods and
// non-scalar names are dropped.
Resources set_max_resource(const Sum& sum) {
  Resources r;
  for (const auto& [name, milli] : sum) {
    const Quantity q = Quantity::from_wide_milli(milli);
    if (name == k_cpu) {
      r.cpu_milli = std::max<std::int64_t>(0, q.milli());
    } else if (name == k_memory) {
      r.memory = std::max<std::int64_t>(0, q.value_ceil());
    } else if (name == k_ephemeral) {
      r.ephemeral_storage = std::max<std::int64_t>(0, q.value_ceil());
    } else if (is_scalar_resource(name)) {
      r.set(name, std::max<std::int64_t>(0, q.value_ceil()));
    }
  }
  return r;
}

}  // namespace

std::int64_t Resources::get(std::string_view name) const {
  if (name == k_cpu) {
    return cpu_milli;
  }
  if (name == k_memory) {
    return memory;
  }
  if (name == k_ephemeral) {
    return ephemeral_storage;
  }
  if (name == k_pods) {
    return pods;
  }
  const auto it = std::lower_bound(scalar.begin(), scalar.end(), name,
                                   [](const auto& e, std::string_view n) { return e.first < n; });
  return it != scalar.end() && it->first == name ? it->second : 0;
}

void Resources::set(std::string_view name, std::int64_t v) {
  if (name == k_cpu) {
    cpu_milli = v;
  } else if (name == k_memory) {
    memory = v;
  } else if (name == k_ephemeral) {
    ephemeral_storage = v;
  } else if (name == k_pods) {
    pods = v;
  } else {
    const auto it = scalar_slot(scalar, name);
    if (it != scalar.end() && it->first == name) {
      it->second = v;
    } else {
      scalar.emplace(it, std::string(name), v);
    }
  }
}

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) {
    return b > 0 ? std::numeric_limits<std::int64_t>::max()
                 : std::numeric_limits<std::int64_t>::min();
  }
  return r;
}

void Resources::add(const Resources& o) {
  cpu_milli = saturating_add(cpu_milli, o.cpu_milli);
  memory = saturating_add(memory, o.memory);
  ephemeral_storage = saturating_add(ephemeral_storage, o.ephemeral_storage);
  pods = saturating_add(pods, o.pods);
  for (const auto& [name, v] : o.scalar) {
    set(name, saturating_add(get(name), v));
  }
}

void Resources::subtract(const Resources& o) {
  cpu_milli = saturating_add(cpu_milli, -o.cpu_milli);
  memory = saturating_add(memory, -o.memory);
  ephemeral_storage = saturating_add(ephemeral_storage, -o.ephemeral_storage);
  pods = saturating_add(pods, -o.pods);
  for (const auto& [name, v] : o.scalar) {
    set(name, saturating_add(get(name), -v));
  }
}

Resources to_resources(const ResourceList& list) {
  // framework.Resource.Add: cpu in milli, the rest rounded up to whole units; names the
  // scheduler does not know as scalar resources are ignored.
  Resources r;
  for (const auto& [name, q] : list) {
    if (name == k_cpu) {
      r.cpu_milli = saturating_add(r.cpu_milli, q.milli());
    } else if (name == k_memory || name == k_ephemeral || name == k_pods) {
      r.set(name, saturating_add(r.get(name), q.value_ceil()));
    } else if (is_scalar_resource(name)) {
      r.set(name, saturating_add(r.get(name), q.value_ceil()));
    }
  }
  return r;
}

namespace {

// IsSupportedPodLevelResource: cpu, memory and hugepages-*.
bool pod_level_resource(std::string_view name) {
  return name == k_cpu || name == k_memory || name.starts_with("hugepages-");
}

// IsPodLevelRequestsSet: a pod-level request names a supported resource; then each supported
// name of `level` replaces the container aggregate for that resource alone.
void apply_pod_level(Sum& reqs, const Pod& pod, const Sum& level) {
  if (std::none_of(pod.pod_level_requests.begin(), pod.pod_level_requests.end(),
                   [](const auto& e) { return pod_level_resource(e.first); })) {
    return;
  }
  for (const auto& [name, v] : level) {
    if (pod_level_resource(name)) {
      reqs[name] = v;
    }
  }
}

const ContainerStatus* status_of(const Pod& pod, const Container& c, std::optional<bool> init) {
  for (const ContainerStatus& s : pod.container_statuses) {
    if (s.name == c.name && (!init || s.init == *init)) {
      return &s;
    }
  }
  return nullptr;
}

Sum max_of(std::initializer_list<const Sum*> sums) {
  Sum out;
  for (const Sum* s : sums) {
    max_into(out, *s);
  }
  return out;
}

Sum opt_sum(const std::optional<ResourceList>& list) {
  return list ? to_sum(*list) : Sum{};
}

// v1.33-v1.36 determineEffectiveRequests: per container, before aggregating; regular init
// containers and statuses without resources use the spec.
Sum container_max_sum(const Pod& pod) {
  const bool infeasible = pod.resize_infeasible;
  return aggregate_by(pod, [&](const Container& c, bool init) {
    const ContainerStatus* st = init && !c.restart_always ? nullptr : status_of(pod, c, init);
    Sum spec = to_sum(c.requests);
    if (st == nullptr || !st->resources.has_resources) {
      return std::optional(spec);
    }
    const Sum actual = opt_sum(st->resources.requests);
    const Sum allocated = opt_sum(st->resources.allocated);
    return std::optional(infeasible ? max_of({&actual, &allocated})
                                    : max_of({&spec, &actual, &allocated}));
  });
}

// v1.37 AggregateContainerRequests: the max of the spec, allocated and actuated aggregates.
Sum max_of_sums(const Pod& pod, const RequestRules& rules) {
  const bool infeasible = pod.resize_infeasible;
  const Sum spec = aggregate_containers(pod);
  auto from_status = [&](bool actuated) {
    return aggregate_by(pod, [&](const Container& c, bool) -> std::optional<Sum> {
      const ContainerStatus* st = status_of(pod, c, std::nullopt);
      if (st != nullptr && actuated && st->resources.requests) {
        return to_sum(*st->resources.requests);
      }
      if (st != nullptr && st->resources.allocated) {
        return to_sum(*st->resources.allocated);
      }
      return infeasible ? std::nullopt : std::optional(to_sum(c.requests));
    });
  };
  const ResourceStatus& level = pod.pod_status_resources;
  const bool level_status = rules.pod_level_status && level.allocated && level.requests;
  const Sum allocated = level_status ? to_sum(*level.allocated) : from_status(false);
  const Sum actuated = level_status ? to_sum(*level.requests) : from_status(true);
  return infeasible ? max_of({&actuated, &allocated}) : max_of({&spec, &actuated, &allocated});
}

// The pod-level requests in force: the spec, or with pod-level resize status read, the max of
// spec (unless infeasible) and the two status maps.
Sum pod_level_sum(const Pod& pod, const RequestRules& rules) {
  const Sum spec = to_sum(pod.pod_level_requests);
  const ResourceStatus& level = pod.pod_status_resources;
  if (rules.status == StatusRequests::ignored || !rules.pod_level_status || !level.has_resources) {
    return spec;
  }
  const Sum actual = opt_sum(level.requests);
  const Sum allocated = opt_sum(level.allocated);
  const Sum none;
  return max_of({pod.resize_infeasible ? &none : &spec, &actual, &allocated});
}

Sum pod_request_sum(const Pod& pod, const RequestRules& rules) {
  Sum reqs = rules.status == StatusRequests::container_max ? container_max_sum(pod)
             : rules.status == StatusRequests::max_of_sums ? max_of_sums(pod, rules)
                                                           : aggregate_containers(pod);
  if (rules.pod_level) {
    apply_pod_level(reqs, pod, pod_level_sum(pod, rules));
  }
  add_into(reqs, pod.overhead);
  return reqs;
}

Sum pod_request_sum(const Pod& pod) {
  return pod_request_sum(pod, RequestRules{});
}

// Whether every container's status reports exactly its spec's requests (as a kubelet of
// v1.33+ does for every running pod that was not resized) and nothing else is resized: every
// reading of the status then sums to the spec.
bool status_mirrors_spec(const Pod& pod) {
  if (pod.resize_infeasible || pod.pod_status_resources.any()) {
    return false;
  }
  auto mirrors = [&pod](const Container& c) {
    return std::all_of(pod.container_statuses.begin(), pod.container_statuses.end(),
                       [&c](const ContainerStatus& s) {
                         return s.name != c.name ||
                                ((!s.resources.requests || *s.resources.requests == c.requests) &&
                                 (!s.resources.allocated || *s.resources.allocated == c.requests));
                       });
  };
  return std::all_of(pod.containers.begin(), pod.containers.end(), mirrors) &&
         std::all_of(pod.init_containers.begin(), pod.init_containers.end(), mirrors);
}

}  // namespace

Resources pod_requests(const Pod& pod) {
  return set_max_resource(pod_request_sum(pod));
}

Resources pod_requests(const Pod& pod, const RequestRules& rules) {
  if (rules.status == StatusRequests::ignored || !has_resize_status(pod)) {
    return rules.pod_level ? pod_requests(pod) : set_max_resource(pod_request_sum(pod, rules));
  }
  return set_max_resource(pod_request_sum(pod, rules));
}

bool has_resize_status(const Pod& pod) {
  return pod.pod_status_resources.any() ||
         std::any_of(pod.container_statuses.begin(), pod.container_statuses.end(),
                     [](const ContainerStatus& s) { return s.resources.any(); });
}

// A release line without PodLevelResources reads the same sum for a pod without pod-level
// requests, unless it reads an infeasible resize's status (max_of_sums then counts no spec).
bool reads_as_spec(const Pod& pod, const RequestRules& rules) {
  const bool status_adds_nothing = rules.status == StatusRequests::ignored ||
                                   !has_resize_status(pod) || status_mirrors_spec(pod);
  if (rules.pod_level) {
    return status_adds_nothing;
  }
  return status_adds_nothing && pod.pod_level_requests.empty() &&
         (rules.status != StatusRequests::max_of_sums || !pod.resize_infeasible);
}

std::string pod_requests_limit_error(const Pod& pod) {
  for (const auto& [name, milli] : pod_request_sum(pod)) {
    std::string limit = resource_limit_error(name, Quantity::from_wide_milli(milli));
    if (!limit.empty()) {
      return limit;
    }
  }
  return {};
}

}  // namespace kpreempt::model
