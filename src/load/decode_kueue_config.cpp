// SPDX-License-Identifier: Apache-2.0
// Kueue's Configuration (config.kueue.x-k8s.io, kind Configuration), read as a document of its
// own or from ConfigMap kueue-system/kueue-manager-config (key controller_manager_config.yaml),
// where the Kueue manifests and Helm chart keep it. Only fair sharing is read, with the
// defaulting and validation of kubernetes-sigs/kueue v0.19.2: apis/config/v1beta1/defaults.go
// (both strategies when enable is true and none is listed), configuration_conversion.go
// (v1beta1 enable: false is no fair sharing), pkg/config/validation.go validateFairSharing.
#include "load/decode.h"

#include "kpreempt/model/kueue.h"

#include <fmt/format.h>

#include <array>

namespace kpreempt::load {
namespace {

constexpr std::string_view k_namespace = "kueue-system";
constexpr std::string_view k_name = "kueue-manager-config";
constexpr std::string_view k_key = "controller_manager_config.yaml";
constexpr std::string_view k_final = model::k_final_share_strategy;
constexpr std::string_view k_initial = model::k_initial_share_strategy;

std::vector<std::string> strategies(const Field& fs, bool v1beta1) {
  Field list = fs["preemptionStrategies"];
  std::vector<std::string> out;
  list.each_item([&](const Field& item) {
    std::string s = item.str();
    if (s != k_final && s != k_initial) {
      item.fail(fmt::format("unknown preemption strategy \"{}\"; Kueue accepts {} and {}", s,
                            k_final, k_initial));
    }
    out.push_back(std::move(s));
  });
  if (out.empty() && v1beta1) {
    return {std::string(k_final), std::string(k_initial)};
  }
  if (out.empty()) {
    fs.fail("preemptionStrategies must be specified; Kueue refuses to start without them");
  }
  if (!model::valid_strategy_set(out)) {
    list.fail(fmt::format("Kueue accepts only [{0}], [{1}] or [{0}, {1}]", k_final, k_initial));
  }
  return out;
}

}  // namespace

void decode_kueue_config(const Field& root, DecodeContext& ctx) {
  const std::string api = root["apiVersion"].str();
  const bool v1beta1 = api == "config.kueue.x-k8s.io/v1beta1";
  if (!v1beta1 && api != "config.kueue.x-k8s.io/v1beta2") {
    root["apiVersion"].fail("unsupported Kueue Configuration version \"" + api +
                            "\"; kpreempt reads v1beta1 and v1beta2");
  }
  model::KueueConfiguration c;
  c.api_version = api;
  c.source = "Configuration";
  c.loc = root.loc();
  Field fs = root["fairSharing"];
  if (fs.present() && !fs.is_map()) {
    fs.fail("expected a map");
  }
  c.fair_sharing = fs.present() && (!v1beta1 || fs["enable"].boolean(false));
  if (c.fair_sharing) {
    c.preemption_strategies = strategies(fs, v1beta1);
  }
  ctx.out.kueue().config = std::move(c);
}

bool decode_kueue_config_map(const Field& root, const std::string& ns, const std::string& name,
                             DecodeContext& ctx) {
  if (ns != k_namespace || name != k_name) {
    return false;
  }
  Field value = root["data"][k_key];
  if (!value.present()) {
    ctx.warn(root["data"], fmt::format("ConfigMap {}/{} has no data.{}; the Kueue Configuration "
                                       "defaults apply (fair sharing off)",
                                       ns, name, k_key));
    return true;
  }
  const std::string what = fmt::format("ConfigMap {}/{}: {}", ns, name, value.path());
  model::SnapshotBuilder part = read_embedded(value, what, ctx);
  if (std::optional<model::KueueConfiguration>& found = part.kueue().config) {
    found->source = fmt::format("ConfigMap {}/{}", ns, name);
    ctx.out.kueue().config = std::move(found);
  } else {
    ctx.warn(value, what + " holds no kind: Configuration document; fair sharing is off");
  }
  return true;
}

}  // namespace kpreempt::load
