// SPDX-License-Identifier: Apache-2.0
#include "policy/common/kube_line.h"

#include "kpreempt/model/quantity.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

namespace kpreempt::policy::common {
namespace {

// The one place the Kubernetes lines differ for preemption: how status enters requests.
struct KubeLine {
  ReleaseLine line;
  model::StatusRequests status;  // with InPlacePodVerticalScaling on
};

constexpr std::array k_lines{
    KubeLine{k8s(34), model::StatusRequests::container_max},
    KubeLine{k8s(35), model::StatusRequests::container_max},
    KubeLine{k8s(36), model::StatusRequests::container_max},
    // k/k 9d1c3c22 "compute aggregate requests from max of sums".
    KubeLine{k8s(37), model::StatusRequests::max_of_sums},
};

}  // namespace

model::RequestRules kube_request_rules(ReleaseLine kube, const Args& args) {
  const auto it = std::find_if(k_lines.rbegin(), k_lines.rend(),
                               [&](const KubeLine& l) { return l.line <= kube; });
  const KubeLine& line = it == k_lines.rend() ? k_lines.front() : *it;
  model::RequestRules rules;
  rules.status = gate_enabled(k_kube_gates, kube, args, "InPlacePodVerticalScaling")
                     ? line.status
                     : model::StatusRequests::ignored;
  rules.pod_level = gate_enabled(k_kube_gates, kube, args, "PodLevelResources");
  rules.pod_level_status =
      gate_enabled(k_kube_gates, kube, args, "InPlacePodLevelResourcesVerticalScaling");
  return rules;
}

model::RequestRules request_rules(const Input& in, std::string_view policy) {
  const Entry* entry = find(policy);
  if (entry == nullptr) {
    return {};
  }
  const LineInfo& line = entry->nearest(in.line);
  return kube_request_rules(line.gates_line.unset() ? line.line : line.gates_line, in.args);
}

std::string resized_note(const model::Snapshot& snap,
                         std::span<const std::pair<model::PodId, model::Resources>> resized) {
  if (resized.empty()) {
    return {};
  }
  std::vector<std::string> pods;
  for (const auto& [id, effective] : resized) {
    const model::Pod& pod = snap.pods()[id];
    const model::Resources& spec = snap.facts(id).requests;
    std::vector<std::string> diffs;
    auto diff = [&](std::string_view name, std::int64_t now, std::int64_t was, bool milli) {
      if (now != was) {
        const auto q = [&](std::int64_t v) {
          return model::to_string(milli ? model::Quantity::from_milli(v)
                                        : model::Quantity::from_units(v));
        };
        diffs.push_back(fmt::format("{} {} (spec {})", name, q(now), q(was)));
      }
    };
    diff("cpu", effective.cpu_milli, spec.cpu_milli, true);
    diff("memory", effective.memory, spec.memory, false);
    diff("ephemeral-storage", effective.ephemeral_storage, spec.ephemeral_storage, false);
    for (const auto& [name, v] : effective.scalar) {
      diff(name, v, spec.get(name), false);
    }
    for (const auto& [name, v] : spec.scalar) {
      if (effective.get(name) == 0 && v != 0) {
        diff(name, 0, v, false);
      }
    }
    pods.push_back(fmt::format("{}/{} {}", pod.namespace_, pod.name, fmt::join(diffs, ", ")));
  }
  return fmt::format("{}: {} bound pod(s) count their in-place resize status: {}",
                     name(Code::resize_effective_requests), resized.size(), fmt::join(pods, "; "));
}

}  // namespace kpreempt::policy::common
