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
  if (key.starts_with(k_gate_prefix)) {
    const std::string_view gate = key.substr(k_gate_prefix.size());
    return std::any_of(entry.gates.begin(), entry.gates.end(),
                       [&](const GateInfo& g) { return g.name == gate; });
  }
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
  std::string best_gate;  // owns `best` when it names a gate
  std::size_t best_distance = std::max<std::size_t>(3, key.size() / 3) + 1;
  for (const Entry* e : policies) {
    const std::string qualified = qualify(key, e->plugin);
    for (std::string_view known : e->arg_keys) {
      std::size_t d = edit_distance(qualified, known);
      if (d < best_distance) {
        best_distance = d;
        best = known;
        best_gate.clear();
      }
    }
    for (const GateInfo& g : e->gates) {
      std::string gate_key = fmt::format("{}{}", k_gate_prefix, g.name);
      std::size_t d = edit_distance(key, gate_key);
      if (d < best_distance) {
        best_distance = d;
        best_gate = std::move(gate_key);
        best = best_gate;
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

std::string line_list(const Entry& entry) {
  std::string out;
  for (const LineInfo& l : entry.lines) {
    out += (out.empty() ? "" : ", ") + to_string(l.line);
  }
  return out;
}

UpstreamChoice resolve_line(const Entry& entry, std::string_view wanted, std::string* warning) {
  const std::optional<ReleaseLine> line = parse_release_line(wanted);
  if (!line) {
    throw UsageError(
        fmt::format("--upstream {}={}: \"{}\" is not a release such as {} (major.minor, a patch or "
                    "pre-release suffix may follow)",
                    entry.name, wanted, wanted, to_string(entry.newest().line)));
  }
  const LineInfo& chosen = entry.nearest(*line);
  if (chosen.line != *line && warning != nullptr) {
    *warning = fmt::format(
        "--upstream {}={}: kpreempt does not model {} {}; using the nearest "
        "line it models, {} (it models {})",
        entry.name, wanted, entry.name, to_string(*line), to_string(chosen.line), line_list(entry));
  }
  return {&entry, chosen.line, {}};
}

std::vector<UpstreamChoice> parse_upstream(std::span<const std::string> specs,
                                           std::vector<std::string>* warnings) {
  std::vector<UpstreamChoice> out;
  for (const std::string& spec : specs) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      throw UsageError(fmt::format(
          "--upstream: expected POLICY=VERSION (e.g. default=v1.37), got \"{}\"", spec));
    }
    const std::string name = spec.substr(0, eq);
    const Entry* entry = find(name);
    if (entry == nullptr) {
      std::string_view best;
      std::size_t best_distance = std::max<std::size_t>(3, name.size() / 3) + 1;
      for (const Entry& e : all()) {
        if (std::size_t d = edit_distance(name, e.name); d < best_distance) {
          best_distance = d;
          best = e.name;
        }
      }
      throw UsageError(fmt::format("--upstream: unknown policy \"{}\"{}", name,
                                   best.empty() ? "" : fmt::format("; did you mean {}?", best)));
    }
    std::string warning;
    UpstreamChoice c = resolve_line(*entry, std::string_view(spec).substr(eq + 1), &warning);
    c.from = "--upstream " + spec;
    if (!warning.empty() && warnings != nullptr) {
      warnings->push_back(std::move(warning));
    }
    std::erase_if(out, [&](const UpstreamChoice& o) { return o.entry == entry; });
    out.push_back(c);
  }
  return out;
}

ReleaseLine line_for(std::span<const UpstreamChoice> choices, const Entry& entry) {
  for (const UpstreamChoice& c : choices) {
    if (c.entry == &entry) {
      return c.line;
    }
  }
  return {};
}

}  // namespace kpreempt::policy
