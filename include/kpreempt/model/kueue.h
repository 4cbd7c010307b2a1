// SPDX-License-Identifier: Apache-2.0
// Kueue objects (kueue.x-k8s.io): ClusterQueue, LocalQueue, ResourceFlavor, Workload,
// WorkloadPriorityClass, and the Namespaces a namespaceSelector needs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kpreempt/model/objects.h"

namespace kpreempt::model {

struct Workload {
  std::string namespace_, name;
  std::int32_t priority = 0;  // effective priority
  bool admitted = false;      // status.admission present
  SourceLoc loc;
};

struct KueueObjects {
  std::vector<Workload> workloads;  // input order
};

std::optional<std::uint32_t> find_workload(const KueueObjects& k, std::string_view ns,
                                           std::string_view name);

}  // namespace kpreempt::model
