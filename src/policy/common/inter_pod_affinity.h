// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity's required terms as a filter. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (PreFilter, updateWithPod,
// satisfyPodAffinity, satisfyPodAntiAffinity, satisfyExistingPodsAntiAffinity), release v1.34.
#pragma once

#include "policy/common/filters.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kpreempt::policy::common {

class InterPodAffinity {
 public:
  InterPodAffinity(const model::Snapshot& snap, const model::Pod& preemptor,
                   std::vector<std::string>& warnings);

  // PreFilter returns Skip when neither the pod nor any existing pod has a relevant term.
  bool skipped() const { return m_skipped; }
  FilterStatus filter(const NodeView& view) const;

  // An affinity term with its namespaces resolved against the pod that owns it.
  // Points into the snapshot's pods: one is made for every pod with terms, every decision.
  struct Term {
    const model::LabelSelector* selector = nullptr;
    bool all_namespaces = false;
    const std::vector<std::string>* namespaces = nullptr;  // the term's own list, if any
    const std::string* owner_namespace = nullptr;  // when the term names no namespace at all
    std::string_view topology_key;
  };

 private:
  // (topologyKey, value) -> count; keys are "key\0value".
  using Counts = std::unordered_map<std::string, std::int64_t>;

  void add_pod(const model::Pod& pod, const model::Node& node, std::int64_t by, Counts& existing,
               Counts& affinity, Counts& anti) const;
  // `unknown` is set when a term has a namespaceSelector we cannot evaluate.
  static std::vector<Term> terms_of(const model::Pod& owner,
                                    const std::vector<model::PodAffinityTerm>& terms);
  void warn_unknown_selectors();
  bool satisfies_affinity(const model::Node& node, const Counts& delta) const;
  bool satisfies_anti_affinity(const model::Node& node, const Counts& delta) const;
  bool satisfies_existing(const model::Node& node, const Counts& delta) const;

  const model::Snapshot& m_snap;
  const model::Pod& m_pod;
  std::vector<std::string>& m_warnings;
  std::vector<Term> m_affinity_terms, m_anti_terms;
  Counts m_existing, m_affinity, m_anti;
  bool m_skipped = false;
};

}  // namespace kpreempt::policy::common
