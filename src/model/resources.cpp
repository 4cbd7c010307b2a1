// SPDX-License-Identifier: Apache-2.0
// Scheduler resource arithmetic (framework.Resource) and the pod request formula of
// component-helpers' PodRequests, including sidecar init containers and pod-level requests.

#include "kpreempt/model/resources.h"

#include <algorithm>
#include <limits>
#include <map>

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
// init container i runs alongside the sidecars started before it.
Sum aggregate_containers(const Pod& pod) {
  Sum result;
  for (const Container& c : pod.containers) {
    add_into(result, c.requests);
  }
  Sum sidecars;
  Sum init_peak;
  for (const Container& c : pod.init_containers) {
    if (c.restart_always) {
      add_into(result, c.requests);
      add_into(sidecars, c.requests);
      max_into(init_peak, sidecars);
    } else {
      Sum running = to_sum(c.requests);
      add_into(running, sidecars);
      max_into(init_peak, running);
    }
  }
  max_into(result, init_peak);
  return result;
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

Sum pod_request_sum(const Pod& pod) {
  Sum reqs = aggregate_containers(pod);
  // IsPodLevelRequestsSet: only cpu and memory count as pod-level resources (v1.34); when one
  // is set, each set one replaces the container aggregate for that resource alone.
  for (const std::string_view name : {k_cpu, k_memory}) {
    const auto it =
        std::lower_bound(pod.pod_level_requests.begin(), pod.pod_level_requests.end(), name,
                         [](const auto& e, std::string_view n) { return e.first < n; });
    if (it != pod.pod_level_requests.end() && it->first == name) {
      reqs[std::string(name)] = it->second.wide_milli();
    }
  }
  add_into(reqs, pod.overhead);
  return reqs;
}

}  // namespace

Resources pod_requests(const Pod& pod) {
  return set_max_resource(pod_request_sum(pod));
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
