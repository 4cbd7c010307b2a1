// SPDX-License-Identifier: Apache-2.0
// Koordinator's ElasticQuota tree (scheduling.sigs.k8s.io ElasticQuota with
// quota.scheduling.koordinator.sh labels) and gang PodGroups.
#pragma once

#include <vector>

#include "kpreempt/model/objects.h"

namespace kpreempt::model {

struct KoordinatorObjects {
  // Filled by the Koordinator decoders; empty when the dump has none.
};

}  // namespace kpreempt::model
