// SPDX-License-Identifier: Apache-2.0
// Upstream release lines and feature gates: which release of the scheduler a policy mirrors
// (--upstream POLICY=VERSION) and the gates it reads (--set featureGates.NAME=BOOL).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kpreempt::policy {

class Args;

// major.minor of an upstream release; {0, 0} stands for "the newest line the policy models".
struct ReleaseLine {
  std::uint16_t major = 0;
  std::uint16_t minor = 0;

  bool unset() const { return major == 0 && minor == 0; }
  friend constexpr auto operator<=>(const ReleaseLine&, const ReleaseLine&) = default;
};

std::string to_string(ReleaseLine line);  // "v1.37"

// "v1.37", "1.37", "v1.37.2", "v0.19.0-rc.1", "v1.8.0-1": the line, or nullopt when the text
// is not a version. A patch or pre-release suffix names a release of that line.
std::optional<ReleaseLine> parse_release_line(std::string_view text);

// One release line a policy models, and what it mirrors there.
struct LineInfo {
  ReleaseLine line;
  std::string_view upstream;  // "kubernetes v1.37 pkg/scheduler/framework/plugins/..."
  // The Kubernetes line whose feature gates apply ({} = `line` itself): scheduler-plugins
  // vendors one Kubernetes release.
  ReleaseLine gates_line{};
};

// A feature gate as the upstream feature list declares it, by release line.
struct GateInfo {
  std::string_view name;
  ReleaseLine since;           // first line that knows the gate
  ReleaseLine on_since{};      // first line where it is on by default; {} = off everywhere
  ReleaseLine locked_since{};  // first line where it is locked to its default; {} = never
  ReleaseLine removed_in{};    // first line that no longer knows it; {} = still there
  bool modelled = true;        // false: turning it on changes nothing kpreempt computes
};

// The prefix of the --set keys that name feature gates.
inline constexpr std::string_view k_gate_prefix = "featureGates.";

// The gate's value at `line`: its default there, or the "true"/"false" given with
// --set featureGates.NAME (false for a gate the line does not know). Throws UsageError for a
// value that is not a boolean, or a locked gate set against its default.
bool gate_enabled(std::span<const GateInfo> gates, ReleaseLine line, const Args& args,
                  std::string_view name);

// Whether the feature list of `line` has the gate.
bool gate_known(const GateInfo& gate, ReleaseLine line);

// The gate's default at `line` (false when the line does not know it).
bool gate_default(const GateInfo& gate, ReleaseLine line);

}  // namespace kpreempt::policy
