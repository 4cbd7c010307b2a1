// SPDX-License-Identifier: Apache-2.0
// ElasticQuota lookups and the CapacityScheduling pod request. Mirrors kubernetes-sigs/
// scheduler-plugins pkg/capacityscheduling/capacity_scheduling.go computePodResourceRequest
// (v0.35).
#include "kpreempt/model/elastic_quota.h"

#include <algorithm>

namespace kpreempt::model {

const ElasticQuota* CapacityObjects::find(std::string_view ns) const {
  const auto it = std::find_if(quotas.begin(), quotas.end(),
                               [&](const ElasticQuota& q) { return q.namespace_ == ns; });
  return it == quotas.end() ? nullptr : &*it;
}

std::size_t CapacityObjects::count_in(std::string_view ns) const {
  return static_cast<std::size_t>(std::count_if(
      quotas.begin(), quotas.end(), [&](const ElasticQuota& q) { return q.namespace_ == ns; }));
}

namespace {

// framework.Resource.SetMaxResource: cpu, memory, ephemeral-storage and scalar resources are
// raised; a "pods" entry is ignored there.
void set_max(Resources& r, const Resources& init) {
  r.cpu_milli = std::max(r.cpu_milli, init.cpu_milli);
  r.memory = std::max(r.memory, init.memory);
  r.ephemeral_storage = std::max(r.ephemeral_storage, init.ephemeral_storage);
  for (const auto& [name, v] : init.scalar) {
    r.set(name, std::max(r.get(name), v));
  }
}

}  // namespace

Resources capacity_pod_request(const Pod& pod) {
  Resources r;
  // Each container's quantities are rounded to scheduler units before summing, as
  // framework.Resource.Add does per call.
  for (const Container& c : pod.containers) {
    r.add(to_resources(c.requests));
  }
  for (const Container& c : pod.init_containers) {
    set_max(r, to_resources(c.requests));
  }
  r.add(to_resources(pod.overhead));
  return r;
}

}  // namespace kpreempt::model
