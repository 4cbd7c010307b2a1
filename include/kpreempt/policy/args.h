// SPDX-License-Identifier: Apache-2.0
// The one parser of policy args, for `--set KEY=VALUE` and a scenario's `args:` alike: keys are
// qualified with the policy's plugin and checked against the keys the policies read.
#pragma once

#include "kpreempt/model/objects.h"
#include "kpreempt/policy/policy.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::policy {

// "field" -> "Plugin.field"; a key with a dot is already qualified.
std::string qualify(std::string_view key, std::string_view plugin);

// Whether `entry` reads `key` (as written: bare keys belong to its plugin). Entry::arg_keys
// ending in ".*" stand for any further name ("ElasticQuota.defaultQuotaGroupMax.cpu").
bool takes_key(const Entry& entry, std::string_view key);

// Why no policy of `policies` reads `key`, with the closest known key when one is near;
// empty when some policy reads it.
std::string unknown_key_problem(std::string_view key, std::span<const Entry* const> policies);

// "KEY=VALUE" -> (KEY, VALUE); throws UsageError for a malformed one.
std::pair<std::string, std::string> split_setting(const std::string& setting);

// The args a policy of `plugin` runs with: keys qualified, sorted, the last value of a
// repeated key winning (as with kubectl).
Args args_for(std::string_view plugin, const model::StringMap& settings);

// One --upstream POLICY=VERSION (or a scenario's `upstream:`), resolved: the policy and the
// line it runs at, the nearest it models.
struct UpstreamChoice {
  const Entry* entry = nullptr;
  ReleaseLine line;
  std::string from;  // as written, for the explanation: "--upstream default=v1.35.4"
};

// Parses --upstream values. Throws UsageError for a malformed one or an unknown policy (with
// the closest name); appends a warning for a version whose line the policy does not model,
// naming both lines. A later value for the same policy wins.
std::vector<UpstreamChoice> parse_upstream(std::span<const std::string> specs,
                                           std::vector<std::string>* warnings);

// The line `entry` resolves to for a request of `wanted` ("v1.35.2"); the warning for one it
// does not model, else empty. Throws UsageError when `wanted` is not a version.
UpstreamChoice resolve_line(const Entry& entry, std::string_view wanted, std::string* warning);

// The line `entry` runs at under `choices`: the one chosen for it, else unset (its newest).
ReleaseLine line_for(std::span<const UpstreamChoice> choices, const Entry& entry);

// "v1.34, v1.35, v1.36, v1.37": the lines `entry` models.
std::string line_list(const Entry& entry);

}  // namespace kpreempt::policy
