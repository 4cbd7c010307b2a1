// SPDX-License-Identifier: Apache-2.0
// Which gang a pod belongs to and whether the gang is ready. Mirrors koordinator-sh/koordinator
// apis/extension/coscheduling.go (GetGangName, GetGangMinNum) and
// pkg/scheduler/plugins/coscheduling/core/core.go (BeforePreFilter,
// basicGangRequirementsCheck), commit a7a1b76bbf81 (v1.8.0-61).
#include "policy/koordinator/preempt.h"

#include "kpreempt/model/go_parse.h"

#include <algorithm>

namespace kpreempt::policy::koordinator {
namespace {

constexpr std::string_view k_pod_group_label = "pod-group.scheduling.sigs.k8s.io";
constexpr std::string_view k_lightweight_name = "pod-group.scheduling.sigs.k8s.io/name";
constexpr std::string_view k_lightweight_min = "pod-group.scheduling.sigs.k8s.io/min-available";
constexpr std::string_view k_gang_name = "gang.scheduling.koordinator.sh/name";
constexpr std::string_view k_gang_min = "gang.scheduling.koordinator.sh/min-available";

std::string value(const model::StringMap& m, std::string_view key) {
  const std::string* v = model::find(m, key);
  return v == nullptr ? std::string() : *v;
}

// The label, then the deprecated lightweight label, then the annotation.
std::string gang_name(const model::Pod& p) {
  for (std::string v : {value(p.labels, k_pod_group_label), value(p.labels, k_lightweight_name),
                        value(p.annotations, k_gang_name)}) {
    if (!v.empty()) {
      return v;
    }
  }
  return "";
}

std::optional<std::int32_t> parse_int(const std::string& s) {
  const auto r = model::go::parse_int(s, 32);
  return r ? std::optional<std::int32_t>(static_cast<std::int32_t>(r.value)) : std::nullopt;
}

}  // namespace

std::optional<Gang> gang_of(const model::Snapshot& snap, model::PodId pod) {
  const model::Pod& p = snap.pods()[pod];
  Gang g;
  g.name = gang_name(p);
  if (g.name.empty()) {
    return std::nullopt;
  }
  g.id = p.namespace_ + "/" + g.name;
  // A PodGroup initialises the gang; without one, the min-available of the annotation (or of
  // the deprecated label) does.
  if (const model::KoordPodGroup* pg = snap.koordinator().find_pod_group(p.namespace_, g.name)) {
    g.initialised = true;
    g.min_member = pg->min_member;
  } else if (value(p.labels, k_pod_group_label).empty()) {
    std::optional<std::int32_t> min = parse_int(value(p.annotations, k_gang_min));
    if (!min && !value(p.labels, k_lightweight_name).empty()) {
      min = parse_int(value(p.labels, k_lightweight_min));
    }
    g.initialised = min.has_value();
    g.min_member = min.value_or(0);
  }
  const auto& pods = snap.pods();
  for (model::PodId id = 0; id < pods.size(); ++id) {
    if (pods[id].terminal() || pods[id].namespace_ != p.namespace_ ||
        gang_name(pods[id]) != g.name) {
      continue;
    }
    g.members.push_back(id);
    if (pods[id].node_name.empty()) {
      g.pending.push_back(id);
    } else {
      ++g.bound;
    }
  }
  // Upstream walks the gang's pending pods in map order; by name here, so that runs repeat.
  std::sort(g.pending.begin(), g.pending.end(),
            [&](model::PodId a, model::PodId b) { return pods[a].name < pods[b].name; });
  return g;
}

}  // namespace kpreempt::policy::koordinator
