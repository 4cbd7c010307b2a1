// SPDX-License-Identifier: Apache-2.0
// The fields no policy reads, which the loader skips: TreeBuilder while parsing, and
// PrunedFieldsBlanker before parsing where kubectl's List layout makes them easy to find.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace kpreempt::load::pruned {

// Keys of a container, init container or ephemeral container.
inline constexpr std::array<std::string_view, 11> k_container = {
    "env",          "envFrom", "volumeMounts", "volumeDevices",   "livenessProbe", "readinessProbe",
    "startupProbe", "command", "args",         "securityContext", "lifecycle"};
// Keys of an object's status. containerStatuses and initContainerStatuses stay: since v1.33
// the scheduler reads a bound pod's resize state from them.
inline constexpr std::array<std::string_view, 4> k_status = {"images", "ephemeralContainerStatuses",
                                                             "volumesInUse", "volumesAttached"};
// Keys of a container status (containerStatuses, initContainerStatuses): only its name,
// resources and allocatedResources are read, for in-place resize.
inline constexpr std::array<std::string_view, 12> k_container_status = {
    "containerID", "image",        "imageID",      "lastState",
    "state",       "volumeMounts", "user",         "allocatedResourcesStatus",
    "ready",       "started",      "restartCount", "stopSignal"};
inline constexpr std::array<std::string_view, 2> k_container_status_lists = {
    "containerStatuses", "initContainerStatuses"};
// The keys whose list items are containers.
inline constexpr std::array<std::string_view, 3> k_container_lists = {
    "containers", "initContainers", "ephemeralContainers"};

template <std::size_t N>
bool in(std::string_view key, const std::array<std::string_view, N>& keys) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace kpreempt::load::pruned
