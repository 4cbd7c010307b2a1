// SPDX-License-Identifier: Apache-2.0
// Decoders for Koordinator's kinds of group scheduling.sigs.k8s.io: ElasticQuota (with the
// quota.scheduling.koordinator.sh labels and annotations) and PodGroup. The scheduling.x-k8s.io
// ElasticQuota of CapacityScheduling is a different kind and decoded elsewhere.
#include "load/decode.h"

#include "kpreempt/model/quantity.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace kpreempt::load {
namespace {

constexpr std::string_view k_prefix = "quota.scheduling.koordinator.sh/";

std::string label(const model::StringMap& m, std::string_view key) {
  const std::string* v = model::find(m, std::string(k_prefix) + std::string(key));
  return v == nullptr ? std::string() : *v;
}

// The shared-weight annotation is a JSON ResourceList; upstream falls back to max when it does
// not parse, so a bad value is a warning, not an error.
model::ResourceList shared_weight(const Field& at, const std::string& text, DecodeContext& ctx,
                                  const std::string& who) {
  model::ResourceList out;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) {
    ctx.warn(at, who + ": annotation shared-weight: \"" + text +
                     "\" is not a JSON resource list; spec.max is used as the weight");
    return {};
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string value =
        it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
    model::QuantityParse q = model::parse_quantity(value);
    if (q.value && !model::resource_limit_error(it.key(), *q.value).empty()) {
      q.value.reset();
    }
    if (!q.value) {
      ctx.warn(at, who + ": annotation shared-weight: " + it.key() + ": \"" + value +
                       "\" is not a quantity; spec.max is used as the weight");
      return {};
    }
    out.emplace_back(it.key(), *q.value);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> namespace_list(const Field& at, const std::string& text,
                                        DecodeContext& ctx, const std::string& who) {
  std::vector<std::string> out;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_array()) {
    ctx.warn(at, who + ": annotation namespaces: \"" + text + "\" is not a JSON list; ignored");
    return out;
  }
  for (const auto& v : j) {
    if (v.is_string()) {
      out.push_back(v.get<std::string>());
    }
  }
  return out;
}

void decode_koordinator_quota(const Field& root, DecodeContext& ctx) {
  model::KoordElasticQuota q;
  q.namespace_ = object_namespace(root);
  q.name = object_name(root);
  const Field meta = root["metadata"];
  q.labels = meta["labels"].string_map();
  q.annotations = meta["annotations"].string_map();
  q.min = root["spec"]["min"].resource_list();
  q.max = root["spec"]["max"].resource_list();
  q.parent = label(q.labels, "parent");
  q.is_parent = label(q.labels, "is-parent") == "true";
  q.allow_lent_resource = label(q.labels, "allow-lent-resource") != "false";
  q.tree_id = label(q.labels, "tree-id");
  q.is_root = label(q.labels, "is-root") == "true";
  const std::string who = "ElasticQuota " + q.namespace_ + "/" + q.name;
  if (std::string w = label(q.annotations, "shared-weight"); !w.empty()) {
    q.shared_weight = shared_weight(meta["annotations"], w, ctx, who);
  }
  if (std::string ns = label(q.annotations, "namespaces"); !ns.empty()) {
    q.namespaces = namespace_list(meta["annotations"], ns, ctx, who);
  }
  q.loc = root.loc();
  ctx.out.koordinator().quotas.push_back(std::move(q));
}

void decode_pod_group(const Field& root, DecodeContext& ctx) {
  model::KoordPodGroup g;
  g.namespace_ = object_namespace(root);
  g.name = object_name(root);
  g.annotations = root["metadata"]["annotations"].string_map();
  g.min_member = root["spec"]["minMember"].int32();
  g.schedule_timeout_seconds = root["spec"]["scheduleTimeoutSeconds"].opt_int32();
  g.loc = root.loc();
  ctx.out.koordinator().pod_groups.push_back(std::move(g));
}

}  // namespace

void decode_koordinator(const Field& root, DecodeContext& ctx) {
  if (root["kind"].str() == "PodGroup") {
    decode_pod_group(root, ctx);
  } else {
    decode_koordinator_quota(root, ctx);
  }
}

}  // namespace kpreempt::load
