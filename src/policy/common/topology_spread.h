// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread's DoNotSchedule filter. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/podtopologyspread/filtering.go (calPreFilterState,
// updateWithPod, Filter), release v1.34.
#pragma once

#include "policy/common/filters.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace kpreempt::policy::common {

class TopologySpread {
 public:
  TopologySpread(const model::Snapshot& snap, const model::Pod& preemptor);

  // PreFilter returns Skip when the pod has no DoNotSchedule constraint.
  bool skipped() const { return m_constraints.empty(); }
  FilterStatus filter(const NodeView& view) const;

 private:
  struct Constraint {
    std::int32_t max_skew = 1;
    std::string key;
    model::LabelSelector selector;  // labelSelector with matchLabelKeys merged in
    std::int32_t min_domains = 1;
    bool honor_affinity = true;
    bool honor_taints = false;
    bool self_match = false;
    std::unordered_map<std::string, std::int64_t> counts;  // domain value -> matching pods
    // The two smallest domains, as upstream's criticalPaths hold them after PreFilter.
    std::string min_value;
    std::int64_t min_count = INT32_MAX;
    std::int64_t second_count = INT32_MAX;
  };

  bool has_all_keys(const model::Node& node) const;
  bool included(const Constraint& c, const model::Node& node) const;
  bool counts_for(const Constraint& c, const model::Pod& pod) const;
  void count_node(model::NodeId id);

  const model::Snapshot& m_snap;
  const model::Pod& m_pod;
  std::vector<Constraint> m_constraints;
};

}  // namespace kpreempt::policy::common
