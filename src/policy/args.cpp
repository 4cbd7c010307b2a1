// SPDX-License-Identifier: Apache-2.0
// Policy arguments (--set and a scenario's args:): parsing, checking keys, and the names of
// outcomes.
#include "kpreempt/policy/args.h"

#include "kpreempt/diag.h"
#include "kpreempt/model/go_parse.h"
#include "kpreempt/policy/policy.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy {

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::fits:
      return "fits";
    case Outcome::preempt:
      return "preempt";
    case Outcome::unschedulable:
      return "unschedulable";
  }
  return "unschedulable";
}

std::int64_t Args::get_int(std::string_view key, std::int64_t fallback) const {
  const std::string* text = find(key);
  if (text == nullptr) {
    return fallback;
  }
  // What Go's strconv.Atoi accepts: an optional sign, then decimal digits only.
  const auto parsed = model::go::parse_int(*text);
  if (!parsed) {
    throw UsageError(fmt::format("--set {}: \"{}\" is not an integer", key, *text));
  }
  return parsed.value;
}

std::string qualify(std::string_view key, std::string_view plugin) {
  if (key.find('.') != std::string_view::npos) {
    return std::string(key);
  }
  return fmt::format("{}.{}", plugin, key);
}

namespace {

bool matches(std::string_view pattern, std::string_view key) {
  if (pattern.ends_with(".*")) {
    std::string_view prefix = pattern.substr(0, pattern.size() - 1);
    return key.size() > prefix.size() && key.starts_with(prefix);
  }
  return pattern == key;
}

std::string policy_list(std::span<const Entry* const> policies) {
  std::string names;
  for (const Entry* e : policies) {
    names += names.empty() ? "" : ", ";
    names += e->name;
  }
  return names;
}

}  // namespace

bool takes_key(const Entry& entry, std::string_view key) {
  const std::string qualified = qualify(key, entry.plugin);
  return std::any_of(entry.arg_keys.begin(), entry.arg_keys.end(),
                     [&](std::string_view pattern) { return matches(pattern, qualified); });
}

std::string unknown_key_problem(std::string_view key, std::span<const Entry* const> policies) {
  if (std::any_of(policies.begin(), policies.end(),
                  [&](const Entry* e) { return takes_key(*e, key); })) {
    return {};
  }
  std::string_view best;
  std::size_t best_distance = std::max<std::size_t>(3, key.size() / 3) + 1;
  for (const Entry* e : policies) {
    const std::string qualified = qualify(key, e->plugin);
    for (std::string_view known : e->arg_keys) {
      std::size_t d = edit_distance(qualified, known);
      if (d < best_distance) {
        best_distance = d;
        best = known;
      }
    }
  }
  std::string problem =
      fmt::format("unknown key \"{}\" for {} {}", key, policies.size() == 1 ? "policy" : "policies",
                  policy_list(policies));
  if (!best.empty()) {
    problem += fmt::format("; did you mean {}?", best);
  }
  return problem;
}

std::pair<std::string, std::string> split_setting(const std::string& setting) {
  auto eq = setting.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw UsageError(fmt::format("--set: expected KEY=VALUE, got \"{}\"", setting));
  }
  return {setting.substr(0, eq), setting.substr(eq + 1)};
}

Args args_for(std::string_view plugin, const model::StringMap& settings) {
  model::StringMap values;
  for (const auto& [key, value] : settings) {
    values.emplace_back(qualify(key, plugin), value);
  }
  std::stable_sort(values.begin(), values.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  model::StringMap unique;
  for (auto& kv : values) {
    if (!unique.empty() && unique.back().first == kv.first) {
      unique.back().second = std::move(kv.second);
    } else {
      unique.push_back(std::move(kv));
    }
  }
  return Args(std::move(unique));
}

}  // namespace kpreempt::policy
