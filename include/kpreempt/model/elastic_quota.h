// SPDX-License-Identifier: Apache-2.0
// ElasticQuota objects of scheduler-plugins CapacityScheduling (scheduling.x-k8s.io).
#pragma once

#include <vector>

#include "kpreempt/model/objects.h"

namespace kpreempt::model {

struct CapacityObjects {
  // Filled by the CapacityScheduling decoders; empty when the dump has none.
};

}  // namespace kpreempt::model
