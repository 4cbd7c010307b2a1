// SPDX-License-Identifier: Apache-2.0
// KubeSchedulerConfiguration (kubescheduler.config.k8s.io): the plugin args of every profile,
// flattened to "Plugin.arg" -> value strings, and each profile's scheduler name. It is read as
// a document of its own or from a ConfigMap's data, where deployments usually keep it.
#include "load/decode.h"
#include "load/queues_yaml.h"
#include "load/stream.h"

#include "kpreempt/load/events.h"

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

bool names_plugin(const Field& list, std::string_view name) {
  bool found = false;
  list.each_item([&](const Field& p) { found = found || p["name"].str() == name; });
  return found;
}

bool names_default_preemption(const Field& disabled) {
  return names_plugin(disabled, "DefaultPreemption") || names_plugin(disabled, "*");
}

bool enables_capacity_scheduling(const Field& plugins) {
  return names_plugin(plugins["multiPoint"]["enabled"], "CapacityScheduling") ||
         names_plugin(plugins["preFilter"]["enabled"], "CapacityScheduling") ||
         names_plugin(plugins["postFilter"]["enabled"], "CapacityScheduling");
}

// A profile without schedulerName is the default scheduler's; no profiles at all means the
// one default profile (SetDefaults_KubeSchedulerConfiguration).
std::vector<model::SchedulerProfile> decode_profiles(const Field& root) {
  std::vector<model::SchedulerProfile> out;
  root["profiles"].each_item([&](const Field& profile) {
    const Field plugins = profile["plugins"];
    out.push_back({profile["schedulerName"].str("default-scheduler"),
                   names_default_preemption(plugins["postFilter"]["disabled"]) ||
                       names_default_preemption(plugins["multiPoint"]["disabled"]),
                   enables_capacity_scheduling(plugins), profile.loc()});
  });
  if (out.empty()) {
    out.push_back({"default-scheduler", false, false, root.loc()});
  }
  return out;
}

// The later configuration's args win, as when each was read alone; every profile stays, for
// a second scheduler's configuration adds to the default one's.
void keep(model::SchedulerConfig config, DecodeContext& ctx) {
  model::SchedulerConfig& into = ctx.out.scheduler_config();
  into.plugin_args = std::move(config.plugin_args);
  into.loc = config.loc;
  into.profiles.insert(into.profiles.end(), config.profiles.begin(), config.profiles.end());
}

bool holds_scheduler_config(std::string_view text) {
  return text.find("KubeSchedulerConfiguration") != std::string_view::npos &&
         text.find("kind") != std::string_view::npos;
}

void decode_embedded(const Field& value, const std::string& what, DecodeContext& ctx) {
  model::SnapshotBuilder part = read_embedded(value, what, ctx);
  model::SchedulerConfig& found = part.scheduler_config();
  if (!found.loc.file.empty()) {
    keep(std::move(found), ctx);
  }
}

}  // namespace

model::SnapshotBuilder read_embedded(const Field& value, const std::string& what,
                                     DecodeContext& ctx) {
  const std::string text = value.str();
  const QueuesYamlOrigin o = origin_of(value, text, what);
  model::SnapshotBuilder part;
  std::vector<Diagnostic> diags;
  DecodeContext sub{part, diags};
  try {
    std::unique_ptr<EventSource> src = open_source(std::string_view(text), o.file);
    read_stream(*src, sub);
  } catch (const InputError& e) {
    diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
  const std::uint32_t delta = o.first_line - 1;
  part.shift_lines(o.file, delta);
  for (Diagnostic& d : diags) {
    d.loc.file = o.file;
    d.loc.line = d.loc.line == 0 ? value.loc().line : d.loc.line + delta;
    d.loc.column = 0;  // columns inside the value do not match the dump's
    d.message = what + ": " + d.message;
    ctx.diags.push_back(std::move(d));
  }
  return part;
}

bool decode_scheduler_config_map(const Field& root, const std::string& ns, const std::string& name,
                                 DecodeContext& ctx) {
  bool found = false;
  root["data"].each_member([&](const Field& value) {
    if (holds_scheduler_config(value.str())) {
      decode_embedded(value, "ConfigMap " + ns + "/" + name + ": " + value.path(), ctx);
      found = true;
    }
  });
  return found;
}

void decode_scheduler_config(const Field& root, DecodeContext& ctx) {
  model::SchedulerConfig config;
  config.profiles = decode_profiles(root);
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
  keep(std::move(config), ctx);
}

}  // namespace kpreempt::load
