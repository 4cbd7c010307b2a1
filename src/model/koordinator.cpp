// SPDX-License-Identifier: Apache-2.0
// Look-ups over the Koordinator object store.
#include "kpreempt/model/koordinator.h"

namespace kpreempt::model {

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
