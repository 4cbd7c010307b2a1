// SPDX-License-Identifier: Apache-2.0
// Whether Kueue runs fair sharing: the Configuration read from the dump (ConfigMap
// kueue-system/kueue-manager-config or a bare Configuration), overridden by --set
// fairSharing.enable and fairSharing.preemptionStrategies. Upstream: preemption.go New,
// parseStrategies; fairsharing/strategy.go Enabled; pkg/config/validation.go validateFairSharing.
#include "policy/kueue/internal.h"

#include "kpreempt/diag.h"

#include <fmt/format.h>

namespace kpreempt::policy::kueue {
namespace {

constexpr std::string_view k_enable = "fairSharing.enable";
constexpr std::string_view k_strategies = "fairSharing.preemptionStrategies";

bool parse_bool(std::string_view key, const std::string& v) {
  if (v == "true" || v == "True" || v == "TRUE") {
    return true;
  }
  if (v == "false" || v == "False" || v == "FALSE") {
    return false;
  }
  throw UsageError(fmt::format("--set {}: \"{}\" is not a boolean", key, v));
}

std::vector<Strategy> parse_strategies(const std::vector<std::string>& names, std::string_view at) {
  std::vector<Strategy> out;
  for (const std::string& n : names) {
    if (n == to_string(Strategy::final_share)) {
      out.push_back(Strategy::final_share);
    } else if (n == to_string(Strategy::initial_share)) {
      out.push_back(Strategy::initial_share);
    } else {
      throw UsageError(
          fmt::format("{}: unknown preemption strategy \"{}\"; Kueue accepts {} and {}", at, n,
                      to_string(Strategy::final_share), to_string(Strategy::initial_share)));
    }
  }
  if (!model::valid_strategy_set(names)) {
    throw UsageError(
        fmt::format("{}: Kueue accepts only {}, {} or {},{}", at, to_string(Strategy::final_share),
                    to_string(Strategy::initial_share), to_string(Strategy::final_share),
                    to_string(Strategy::initial_share)));
  }
  return out;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty()) {
      out.push_back(part);
    }
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return out;
}

std::string strategy_list(const std::vector<Strategy>& s) {
  std::string out;
  for (Strategy x : s) {
    out += (out.empty() ? "" : ", ") + std::string(to_string(x));
  }
  return out;
}

}  // namespace

FairConfig fair_config(const Input& in, const model::KueueObjects& k, Decision& d) {
  FairConfig out;
  if (k.config && k.config->fair_sharing) {
    out.on = true;
    out.strategies = parse_strategies(k.config->preemption_strategies, k.config->source);
    out.source = fmt::format("{} ({})", k.config->source, k.config->api_version);
  }
  if (const std::string* v = in.args.find(k_enable)) {
    bool on = parse_bool(k_enable, *v);
    if (on != out.on) {
      out.source = fmt::format("--set {}={}", k_enable, *v);
    }
    out.on = on;
  }
  if (const std::string* v = in.args.find(k_strategies)) {
    out.strategies = parse_strategies(split(*v), fmt::format("--set {}", k_strategies));
    if (!out.on) {
      d.warnings.push_back(
          fmt::format("--set {} has no effect while fair sharing is off; add --set {}=true",
                      k_strategies, k_enable));
    }
  }
  if (out.on && out.strategies.empty()) {
    out.strategies = {Strategy::final_share, Strategy::initial_share};  // parseStrategies
  }
  if (out.on) {
    d.warnings.push_back(fmt::format(
        "fair sharing is on ({}); preemption strategies {}: the victims are chosen by dominant "
        "resource share, not by the classical search",
        out.source, strategy_list(out.strategies)));
  }
  return out;
}

}  // namespace kpreempt::policy::kueue
