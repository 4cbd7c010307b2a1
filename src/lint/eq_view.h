// SPDX-License-Identifier: Apache-2.0
// ElasticQuota classification shared by the EQ rules: CapacityScheduling (scheduling.x-k8s.io),
// old-group CapacityScheduling, or Koordinator (scheduling.sigs.k8s.io with Koordinator labels
// or --policy koordinator).
#pragma once

#include "lint/corpus.h"

#include "kpreempt/model/quantity.h"

#include <map>

namespace kpreempt::lint {

enum class QuotaKind { capacity, old_capacity, koordinator };

struct QuotaView {
  const Obj* obj = nullptr;
  QuotaKind kind = QuotaKind::capacity;
};

inline constexpr std::string_view k_koord_prefix = "quota.scheduling.koordinator.sh/";

// Input quotas, or with `with_baseline` the baseline ones after them.
std::vector<QuotaView> quotas(const Context& c, bool with_baseline);

// A quantity field; nullopt when absent or not a quantity.
std::optional<model::Quantity> quantity_of(const Node& n);

// "4", "16Gi": a quantity for messages (binary suffixes for memory and storage).
std::string show(std::string_view resource, model::Quantity q);

}  // namespace kpreempt::lint
