// SPDX-License-Identifier: Apache-2.0
// Decoder for scheduler-plugins CapacityScheduling's ElasticQuota
// (scheduling.x-k8s.io/v1alpha1). Only spec.min and spec.max matter upstream; status.used is
// left unread (even when malformed) because the plugin recomputes usage from the pods it sees.
#include "load/decode.h"

namespace kpreempt::load {

namespace {

// An absent or null list stays empty-optional: upstream then fills in its default bound. A
// present list, even `{}`, is taken as written.
std::optional<model::ResourceList> optional_list(const Field& f) {
  if (!f.present()) {
    return std::nullopt;
  }
  return f.resource_list();
}

}  // namespace

void decode_elastic_quota(const Field& root, DecodeContext& ctx) {
  model::ElasticQuota q;
  q.namespace_ = object_namespace(root);
  q.name = object_name(root);
  Field spec = root["spec"];
  q.min = optional_list(spec["min"]);
  q.max = optional_list(spec["max"]);
  q.loc = root.loc();
  ctx.out.capacity().quotas.push_back(std::move(q));
}

}  // namespace kpreempt::load
