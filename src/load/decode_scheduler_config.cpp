// SPDX-License-Identifier: Apache-2.0
// KubeSchedulerConfiguration (kubescheduler.config.k8s.io): the plugin args of every profile,
// flattened to "Plugin.arg" -> value strings.
#include "load/decode.h"

#include <algorithm>

namespace kpreempt::load {
namespace {

// Nested maps become dotted keys ("NodeResourcesFit.scoringStrategy.type"); lists have no
// key=value form and are left out.
void flatten(const Field& f, const std::string& prefix, model::StringMap& out) {
  if (f.is_map()) {
    f.each_member([&](const Field& m) {
      // Typed args repeat their own apiVersion and kind, which are not args.
      if (prefix.find('.') != std::string::npos || (m.key() != "apiVersion" && m.key() != "kind")) {
        flatten(m, prefix + "." + std::string(m.key()), out);
      }
    });
    return;
  }
  if (f.is_seq() || f.is_null()) {
    return;
  }
  // A profile listed earlier wins, as for the first profile the scheduler builds.
  auto it =
      std::find_if(out.begin(), out.end(), [&](const auto& kv) { return kv.first == prefix; });
  if (it == out.end()) {
    out.emplace_back(prefix, f.str());
  }
}

}  // namespace

void decode_scheduler_config(const Field& root, DecodeContext& ctx) {
  model::SchedulerConfig config;
  root["profiles"].each_item([&](const Field& profile) {
    profile["pluginConfig"].each_item([&](const Field& plugin) {
      Field name = plugin["name"];
      if (!name.present()) {
        name.fail("required field is missing");
      }
      flatten(plugin["args"], name.str(), config.plugin_args);
    });
  });
  std::sort(config.plugin_args.begin(), config.plugin_args.end());
  config.loc = root.loc();
  ctx.out.set(std::move(config));
}

}  // namespace kpreempt::load
