// SPDX-License-Identifier: Apache-2.0
// ElasticQuota objects of scheduler-plugins CapacityScheduling (scheduling.x-k8s.io), and the
// pod request formula that plugin uses for quota accounting.
#pragma once

#include "kpreempt/model/objects.h"
#include "kpreempt/model/resources.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::model {

// One scheduling.x-k8s.io/v1alpha1 ElasticQuota. It governs its whole namespace; the name
// only labels it in output. status.used is not read: the plugin recomputes usage from pods.
struct ElasticQuota {
  std::string namespace_, name;
  // spec.min / spec.max as written. Absent (or null) and present-but-empty differ upstream:
  // an absent list gets a default, an empty one means every bound is 0.
  std::optional<ResourceList> min, max;
  SourceLoc loc;
};

struct CapacityObjects {
  std::vector<ElasticQuota> quotas;  // input order

  // The quota that governs `ns`: the first one of the namespace in input order (upstream keeps
  // whichever its informer saw first and ignores the rest). nullptr when the namespace has none.
  const ElasticQuota* find(std::string_view ns) const;
  // How many quotas the namespace holds (more than one: all but the first are ignored).
  std::size_t count_in(std::string_view ns) const;
};

// scheduler-plugins capacityscheduling computePodResourceRequest: the sum of the regular
// containers, raised per dimension to each init container's request, plus overhead. Unlike
// kube-scheduler, sidecar init containers are not added and pod-level requests are not read.
Resources capacity_pod_request(const Pod& pod);

}  // namespace kpreempt::model
