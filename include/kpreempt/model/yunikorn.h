// SPDX-License-Identifier: Apache-2.0
// Apache YuniKorn's queue configuration (ConfigMap yunikorn-configs, key queues.yaml).
#pragma once

#include <vector>

#include "kpreempt/model/objects.h"

namespace kpreempt::model {

struct YunikornObjects {
  // Filled by the YuniKorn decoders; empty when the dump has no queue configuration.
};

}  // namespace kpreempt::model
