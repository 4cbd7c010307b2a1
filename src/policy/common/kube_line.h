// SPDX-License-Identifier: Apache-2.0
// What differs between the Kubernetes release lines kpreempt models, in one table, and the
// kube-scheduler feature gates that matter to a preemption decision. default, toleration and
// capacity (which run NodeResourcesFit) read requests of bound pods through it.
#pragma once

#include "kpreempt/model/resources.h"
#include "kpreempt/policy/policy.h"

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace kpreempt::policy::common {

// Kubernetes line 1.<minor>.
constexpr ReleaseLine k8s(std::uint16_t minor) {
  return ReleaseLine{1, minor};
}

// kube-scheduler's gates that matter to preemption, with their defaults by line:
// defaultVersionedKubernetesFeatureGates, v1.34 to v1.37 (default.md "Feature gates").
inline constexpr std::array k_kube_gates{
    GateInfo{"InPlacePodVerticalScaling", k8s(27), k8s(33), k8s(35)},
    GateInfo{"InPlacePodLevelResourcesVerticalScaling", k8s(35), k8s(36)},
    GateInfo{"PodLevelResources", k8s(32), k8s(34)},
    GateInfo{"SchedulerAsyncPreemption", k8s(32), k8s(33), {}, {}, false},
    GateInfo{"NominatedNodeNameForExpectation", k8s(34), k8s(35), {}, {}, false},
    GateInfo{"GenericWorkload", k8s(35), {}, {}, {}, false},
    GateInfo{"WorkloadAwarePreemption", k8s(36), {}, {}, k8s(37), false},
    GateInfo{"PodGroupPreemptionPolicy", k8s(37), {}, {}, {}, false},
    GateInfo{"CompositePodGroup", k8s(37), {}, {}, {}, false},
    GateInfo{"TopologyAwareWorkloadScheduling", k8s(36), {}, {}, {}, false},
    GateInfo{"InPlacePodVerticalScalingSchedulerPreemption", k8s(37), {}, {}, {}, false},
    GateInfo{"DRANodeAllocatableResources", k8s(36), {}, {}, {}, false},
    GateInfo{"DRAExtendedResource", k8s(34), k8s(36), {}, {}, false},
    GateInfo{"NodeDeclaredFeatures", k8s(35), k8s(36), {}, {}, false},
    GateInfo{"TaintTolerationComparisonOperators", k8s(35), {}, {}, {}, false},
};

// How the scheduler of the Kubernetes line `kube` reads a bound pod's resize status, with the
// gates of `args` applied (PodRequests options of PodInfo.CalculateResource).
model::RequestRules kube_request_rules(ReleaseLine kube, const Args& args);

// kube_request_rules for the Kubernetes line `policy` runs on at in.line (its own line, or the
// one scheduler-plugins vendors).
model::RequestRules request_rules(const Input& in, std::string_view policy);

// "N bound pod(s) count their in-place resize: ns/a cpu 2 (spec 1), ..." or empty.
std::string resized_note(const model::Snapshot& snap,
                         std::span<const std::pair<model::PodId, model::Resources>> resized);

}  // namespace kpreempt::policy::common
