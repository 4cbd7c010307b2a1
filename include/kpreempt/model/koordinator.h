// SPDX-License-Identifier: Apache-2.0
// Koordinator's ElasticQuota tree (scheduling.sigs.k8s.io ElasticQuota with
// quota.scheduling.koordinator.sh labels) and gang PodGroups.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/objects.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kpreempt::model {

// Built-in quota names (apis/extension/elastic_quota.go).
inline constexpr std::string_view k_koord_root_quota = "koordinator-root-quota";
// Deeper quota trees are refused; real ones have a handful of levels.
inline constexpr std::size_t k_max_quota_depth = 1000;
inline constexpr std::string_view k_koord_default_quota = "koordinator-default-quota";
inline constexpr std::string_view k_koord_system_quota = "koordinator-system-quota";

// An ElasticQuota of group scheduling.sigs.k8s.io, with Koordinator's labels and annotations
// already read (prefix quota.scheduling.koordinator.sh/).
struct KoordElasticQuota {
  std::string namespace_, name;
  ResourceList min, max;
  std::string parent;                   // label `parent`; empty when absent
  bool is_parent = false;               // label `is-parent` == "true"
  bool allow_lent_resource = true;      // label `allow-lent-resource` != "false"
  std::string tree_id;                  // label `tree-id`
  bool is_root = false;                 // label `is-root` == "true"
  ResourceList shared_weight;           // annotation `shared-weight` (JSON); empty when absent
  std::vector<std::string> namespaces;  // annotation `namespaces` (JSON list)
  StringMap labels, annotations;
  SourceLoc loc;
};

// A PodGroup of group scheduling.sigs.k8s.io (the gang of label pod-group.scheduling.sigs.k8s.io).
struct KoordPodGroup {
  std::string namespace_, name;
  std::int32_t min_member = 0;
  std::optional<std::int32_t> schedule_timeout_seconds;
  StringMap annotations;
  SourceLoc loc;
};

struct KoordinatorObjects {
  std::vector<KoordElasticQuota> quotas;  // input order
  std::vector<KoordPodGroup> pod_groups;  // input order

  const KoordElasticQuota* find_quota(std::string_view name) const;
  // Errors for quotas whose parent labels loop (a quota its own parent, a cycle) or nest
  // deeper than k_max_quota_depth: the quota tree is walked recursively later.
  void check_quota_parents(std::vector<Diagnostic>& diags) const;
  const KoordPodGroup* find_pod_group(std::string_view ns, std::string_view name) const;
};

}  // namespace kpreempt::model
