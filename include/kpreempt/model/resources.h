// SPDX-License-Identifier: Apache-2.0
// Resource amounts in the units the scheduler compares: cpu in milli-cores, every other
// resource in whole units rounded up (framework.Resource).
#pragma once

#include "kpreempt/model/objects.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kpreempt::model {

struct Resources {
  std::int64_t cpu_milli = 0;
  std::int64_t memory = 0;
  std::int64_t ephemeral_storage = 0;
  std::int64_t pods = 0;
  // hugepages-*, extended resources (nvidia.com/gpu): name -> units, sorted by name.
  std::vector<std::pair<std::string, std::int64_t>> scalar;

  std::int64_t get(std::string_view name) const;  // absent = 0
  void set(std::string_view name, std::int64_t v);
  void add(const Resources& o);
  void subtract(const Resources& o);

  friend bool operator==(const Resources&, const Resources&) = default;
};

// a + b, clamped to the int64 range, so absurd inputs give absurd but defined answers.
std::int64_t saturating_add(std::int64_t a, std::int64_t b);

// Converts an API resource list (requests, allocatable) to scheduler units.
Resources to_resources(const ResourceList& list);

// k8s.io/component-helpers/resource.PodRequests for the scheduler: containers plus sidecars,
// the init-container maximum, pod-level requests for cpu/memory, plus overhead. pods = 0.
Resources pod_requests(const Pod& pod);

// How a release line of the scheduler reads a bound pod's status into its requests
// (component-helpers PodRequestsOptions).
enum class StatusRequests {
  ignored,        // spec only (InPlacePodVerticalScaling off)
  container_max,  // v1.33-v1.36: per container max(spec, status) before aggregating
  max_of_sums,    // v1.37: max of the spec, allocated and actuated aggregates
};

struct RequestRules {
  StatusRequests status = StatusRequests::ignored;
  bool pod_level = true;          // PodLevelResources: spec.resources.requests counts
  bool pod_level_status = false;  // InPlacePodLevelResourcesVerticalScaling
  friend bool operator==(const RequestRules&, const RequestRules&) = default;
};

// pod_requests with the pod's resize status read as `rules` say. Equal to pod_requests(pod)
// for a pod without resize status, and for StatusRequests::ignored.
Resources pod_requests(const Pod& pod, const RequestRules& rules);

// Whether the pod's status carries resources a RequestRules reading could count.
bool has_resize_status(const Pod& pod);

// Whether pod_requests(pod, rules) is pod_requests(pod), known without summing either: so for
// nearly every pod of a dump, whose status is absent or reports the spec (as a kubelet of
// v1.33+ does for every pod not resized). A snapshot keeps pod_requests(pod) in its facts.
bool reads_as_spec(const Pod& pod, const RequestRules& rules);

// Why pod_requests(pod) cannot be held as upstream holds it (a total beyond int64 in the
// resource's unit; upstream's sum would wrap), or empty.
std::string pod_requests_limit_error(const Pod& pod);

}  // namespace kpreempt::model
