// SPDX-License-Identifier: Apache-2.0
// Release lines and feature gates: parsing a version, resolving a line a policy models, and the
// value of a gate at a line.
#include "kpreempt/policy/upstream.h"

#include "kpreempt/diag.h"
#include "kpreempt/model/go_parse.h"
#include "kpreempt/policy/policy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace kpreempt::policy {
namespace {

// A run of decimal digits at the front of `text`, consumed; nullopt when there is none or it
// does not fit a release number.
std::optional<std::uint16_t> take_number(std::string_view& text) {
  std::size_t n = 0;
  while (n < text.size() && text[n] >= '0' && text[n] <= '9') {
    ++n;
  }
  if (n == 0 || n > 4) {
    return std::nullopt;
  }
  const auto value = static_cast<std::uint16_t>(model::go::parse_uint(text.substr(0, n)).value);
  text.remove_prefix(n);
  return value;
}

}  // namespace

std::string to_string(ReleaseLine line) {
  return fmt::format("v{}.{}", line.major, line.minor);
}

std::optional<ReleaseLine> parse_release_line(std::string_view text) {
  if (text.starts_with('v')) {
    text.remove_prefix(1);
  }
  const auto major = take_number(text);
  if (!major || !text.starts_with('.')) {
    return std::nullopt;
  }
  text.remove_prefix(1);
  const auto minor = take_number(text);
  if (!minor || (*major == 0 && *minor == 0)) {
    return std::nullopt;
  }
  if (text.starts_with('.')) {  // a patch release
    text.remove_prefix(1);
    if (!take_number(text)) {
      return std::nullopt;
    }
  }
  // A pre-release or build suffix: "-rc.1", "-beta.0", "-1", "+build".
  if (!text.empty() && ((text.front() != '-' && text.front() != '+') || text.size() == 1)) {
    return std::nullopt;
  }
  return ReleaseLine{*major, *minor};
}

bool gate_known(const GateInfo& gate, ReleaseLine line) {
  return line >= gate.since && (gate.removed_in.unset() || line < gate.removed_in);
}

bool gate_default(const GateInfo& gate, ReleaseLine line) {
  return gate_known(gate, line) && !gate.on_since.unset() && line >= gate.on_since;
}

bool gate_enabled(std::span<const GateInfo> gates, ReleaseLine line, const Args& args,
                  std::string_view name) {
  const auto it =
      std::find_if(gates.begin(), gates.end(), [&](const GateInfo& g) { return g.name == name; });
  if (it == gates.end()) {
    return false;
  }
  const bool fallback = gate_default(*it, line);
  const std::string key = fmt::format("{}{}", k_gate_prefix, name);
  const std::string* text = args.find(key);
  if (text == nullptr) {
    return fallback;
  }
  if (*text != "true" && *text != "false") {
    throw UsageError(fmt::format("--set {}: \"{}\" is not true or false", key, *text));
  }
  const bool value = *text == "true";
  if (!gate_known(*it, line)) {
    return false;  // run() says it was ignored
  }
  if (!it->locked_since.unset() && line >= it->locked_since && value != fallback) {
    throw UsageError(fmt::format("--set {}: {} is locked to {} since {}", key, name,
                                 fallback ? "true" : "false", to_string(it->locked_since)));
  }
  return value;
}

const LineInfo& Entry::nearest(ReleaseLine wanted) const {
  if (wanted.unset()) {
    return newest();
  }
  // Distance in minor releases within a major; another major is farther than any minor.
  auto distance = [&](const LineInfo& l) {
    const int majors = std::abs(int(l.line.major) - int(wanted.major));
    return majors * 10000 + std::abs(int(l.line.minor) - int(wanted.minor));
  };
  const LineInfo* best = &lines.front();
  for (const LineInfo& l : lines) {
    if (distance(l) <= distance(*best)) {
      best = &l;
    }
  }
  return *best;
}

Decision run(const Entry& entry, const Input& input) {
  const LineInfo& line = entry.nearest(input.line);
  Input in = input;
  in.line = line.line;
  Decision d = decide(entry, in);
  d.line = to_string(line.line);
  const ReleaseLine gates_at = line.gates_line.unset() ? line.line : line.gates_line;
  for (const GateInfo& g : entry.gates) {
    const std::string key = fmt::format("{}{}", k_gate_prefix, g.name);
    if (input.args.find(key) == nullptr) {
      continue;
    }
    const bool value = gate_enabled(entry.gates, gates_at, input.args, g.name);
    if (!gate_known(g, gates_at)) {
      d.warnings.push_back(fmt::format("feature gate {} does not exist in kubernetes {}: ignored",
                                       g.name, to_string(gates_at)));
      continue;
    }
    if (value == gate_default(g, gates_at)) {
      continue;
    }
    d.feature_gates.emplace_back(std::string(g.name), value ? "true" : "false");
    if (!g.modelled) {
      d.warnings.push_back(
          fmt::format("feature gate {}={} is not modelled: the answer is the one with its default",
                      g.name, value ? "true" : "false"));
    }
  }
  return d;
}

}  // namespace kpreempt::policy
