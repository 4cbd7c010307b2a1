// SPDX-License-Identifier: Apache-2.0
// Look-ups over the Koordinator object store.
#include "kpreempt/model/koordinator.h"

#include <fmt/format.h>

#include <unordered_map>
#include <vector>

namespace kpreempt::model {

// Iterative: each chain is followed once (quotas already judged end a walk), so a long chain
// costs linear time and no stack.
void KoordinatorObjects::check_quota_parents(std::vector<Diagnostic>& diags) const {
  std::unordered_map<std::string_view, std::size_t> index;
  for (std::size_t i = 0; i < quotas.size(); ++i) {
    index.emplace(quotas[i].name, i);  // the first of a name, as find_quota
  }
  enum class State : unsigned char { unseen, walking, done };
  std::vector<State> state(quotas.size(), State::unseen);
  std::vector<std::size_t> depth(quotas.size(), 0);
  std::vector<std::size_t> chain;
  for (std::size_t start = 0; start < quotas.size(); ++start) {
    chain.clear();
    std::size_t at = start;
    std::size_t base = 0;  // depth above the chain's last quota
    bool cyclic = false;
    for (;;) {
      if (state[at] == State::done) {
        base = depth[at];
        break;
      }
      if (state[at] == State::walking) {
        const KoordElasticQuota& q = quotas[at];
        diags.push_back({Severity::error, q.loc,
                         q.parent == q.name
                             ? fmt::format("ElasticQuota {}: is its own parent", q.name)
                             : fmt::format("ElasticQuota {}: its parents form a cycle", q.name)});
        cyclic = true;
        break;
      }
      state[at] = State::walking;
      chain.push_back(at);
      auto parent = index.find(quotas[at].parent);
      if (quotas[at].parent.empty() || parent == index.end()) {
        break;  // the root, or a missing parent the policy reports
      }
      at = parent->second;
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      depth[*it] = ++base;
      state[*it] = State::done;
      if (!cyclic && base == k_max_quota_depth + 1) {
        const KoordElasticQuota& q = quotas[*it];
        diags.push_back({Severity::error, q.loc,
                         fmt::format("ElasticQuota {}: more than {} levels of parent quotas",
                                     q.name, k_max_quota_depth)});
      }
    }
  }
}

const KoordElasticQuota* KoordinatorObjects::find_quota(std::string_view name) const {
  // Quota names are global: the namespace of the object does not scope them.
  for (const KoordElasticQuota& q : quotas) {
    if (q.name == name) {
      return &q;
    }
  }
  return nullptr;
}

const KoordPodGroup* KoordinatorObjects::find_pod_group(std::string_view ns,
                                                        std::string_view name) const {
  for (const KoordPodGroup& g : pod_groups) {
    if (g.namespace_ == ns && g.name == name) {
      return &g;
    }
  }
  return nullptr;
}

}  // namespace kpreempt::model
