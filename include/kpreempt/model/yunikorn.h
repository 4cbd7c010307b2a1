// SPDX-License-Identifier: Apache-2.0
// Apache YuniKorn's queue configuration (ConfigMap yunikorn-configs, key queues.yaml) as
// yunikorn-core v1.7.0 reads it (pkg/common/configs), and the shim's view of pods.
#pragma once

#include "kpreempt/model/objects.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kpreempt::model {

// A YuniKorn resource: name -> value (vcore in millicores), sorted by name. "None" (no map at
// all) and an empty map differ upstream, hence std::optional<YkResource> where it matters.
using YkResource = std::vector<std::pair<std::string, std::int64_t>>;

struct YkResources {
  std::optional<YkResource> guaranteed, max;  // empty when absent or all zero (discarded)
};

struct YkChildTemplate {
  StringMap properties;
  YkResources resources;
  std::int64_t max_applications = 0;
};

struct YkQueueConfig {
  std::string name;  // as written
  bool parent = false;
  YkResources resources;
  std::int64_t max_applications = 0;
  StringMap properties;  // own properties only
  std::optional<YkChildTemplate> child_template;
  std::vector<YkQueueConfig> queues;
  bool has_limits = false;
  SourceLoc loc;
};

struct YkPlacementRule {
  std::string name;  // provided, tag, fixed, user, group, ...
  bool create = false;
  std::string value;
  std::vector<YkPlacementRule> parent;  // zero or one
  SourceLoc loc;
};

struct YkPartition {
  std::string name;
  std::vector<YkQueueConfig> queues;
  std::vector<YkPlacementRule> placement_rules;
  bool preemption_enabled = true;         // preemption.enabled, unset = true
  bool quota_preemption_enabled = false;  // preemption.quotapreemptionenabled (v1.8)
  std::string user_group_resolver;        // usergroupresolver.type (v1.8)
  // Where the file uses a partition key v1.7 does not know (v1.7 rejects the whole file).
  std::vector<SourceLoc> newer_keys;
  bool has_limits = false;
  SourceLoc loc;
};

// One parsed queue file.
struct YunikornConfig {
  std::vector<YkPartition> partitions;
  std::string source;  // "ConfigMap yunikorn/yunikorn-configs" or the file name
  SourceLoc loc;
};

struct YunikornObjects {
  // From ConfigMap yunikorn-configs (or a bare queues.yaml), and from yunikorn-defaults.
  std::optional<YunikornConfig> configs, defaults;
  // The file the scheduler would use: yunikorn-configs wins over yunikorn-defaults.
  const YunikornConfig* config() const {
    return configs ? &*configs : (defaults ? &*defaults : nullptr);
  }
};

// The queue tree of partition `default` after root insertion and property inheritance
// (pkg/common/configs/config.go checkQueuesStructure, queue.go property handling).
struct YkQueue {
  std::string name;  // lower-case
  std::string path;  // "root.a.b"
  std::uint32_t parent = UINT32_MAX;
  std::vector<std::uint32_t> children;
  bool leaf = true;
  std::optional<YkResource> guaranteed, max;
  StringMap properties;  // effective
  std::optional<YkChildTemplate> child_template;
  bool dynamic = false;  // created by a placement rule
};

// Parses a YuniKorn resource quantity for `key` (pkg/common/resources ParseQuantity): digits
// and an optional suffix; "m" only for vcore. vcore comes back in millicores.
std::optional<std::int64_t> parse_yk_quantity(std::string_view key, std::string_view text,
                                              std::string* error = nullptr);

// Flattens the partition into queues (index 0 is root), inserting root when needed.
std::vector<YkQueue> build_yk_queues(const YkPartition& p);

// The partition the shim uses ("default", case-insensitive, or unnamed), or nullptr.
const YkPartition* default_partition(const YunikornConfig& c);

// The shim's reading of a pod (yunikorn-k8shim pkg/common/utils GetApplicationIDFromPod,
// GetQueueNameFromPod).
std::string yk_application_id(const Pod& pod);
std::string yk_queue_name(const Pod& pod);  // empty when the pod names none
bool yk_pod(const Pod& pod);                // schedulerName yunikorn

}  // namespace kpreempt::model
