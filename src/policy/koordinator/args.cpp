// SPDX-License-Identifier: Apache-2.0
// Resource vectors in the quota plugin's arithmetic (k8s.io/apiserver/pkg/quota/v1) and the
// ElasticQuota / Coscheduling args. Defaults mirror koordinator-sh/koordinator
// pkg/scheduler/apis/config/v1/defaults.go, commit a7a1b76bbf81 (v1.8.0-61).
#include "policy/koordinator/quota.h"

#include "kpreempt/diag.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace kpreempt::policy::koordinator {
namespace {

std::int64_t units(std::string_view name, model::Quantity q) {
  return name == "cpu" ? q.milli() : q.value_ceil();
}

std::string amount(std::string_view name, std::int64_t v) {
  constexpr std::int64_t k_printable = std::numeric_limits<std::int64_t>::max() / 1000;
  if (v > k_printable || v < -k_printable) {
    return fmt::format("{}", v);
  }
  if (name == "cpu") {
    return model::to_string(model::Quantity::from_milli(v));
  }
  return model::to_string(model::Quantity::from_units(v), name == "memory" ||
                                                              name == "ephemeral-storage" ||
                                                              name.starts_with("hugepages-"));
}

bool parse_bool(const std::string& key, const std::string& v) {
  if (v == "true" || v == "True" || v == "TRUE") {
    return true;
  }
  if (v == "false" || v == "False" || v == "FALSE") {
    return false;
  }
  throw UsageError(fmt::format("{}: \"{}\" is not a boolean", key, v));
}

// (2^63-1)/5 in the quantity's own unit, the default limit of the built-in quotas.
ResVec builtin_max() {
  constexpr std::int64_t k_huge = std::numeric_limits<std::int64_t>::max() / 5;
  return ResVec{{"cpu", k_huge}, {"memory", k_huge}};
}

const std::string* lookup(const Input& in, const Args& config, const std::string& key) {
  if (const std::string* v = in.args.find(key)) {
    return v;
  }
  return config.find(key);
}

// "ElasticQuota.defaultQuotaGroupMax.cpu" style keys, from --set or the flattened config.
void read_max(const Input& in, const Args& config, std::string_view field, ResVec& out) {
  const std::string prefix = fmt::format("ElasticQuota.{}.", field);
  ResVec found;
  for (const model::StringMap* m : {&config.values(), &in.args.values()}) {
    for (const auto& [key, value] : *m) {
      if (!key.starts_with(prefix)) {
        continue;
      }
      const std::string name(key.substr(prefix.size()));
      model::QuantityParse q = model::parse_quantity(value);
      if (!q.value) {
        throw UsageError(fmt::format("{}: \"{}\" is not a quantity", key, value));
      }
      found[name] = units(name, *q.value);
    }
  }
  if (!found.empty()) {
    out = found;
  }
}

}  // namespace

ResVec to_vec(const model::ResourceList& list) {
  ResVec out;
  for (const auto& [name, q] : list) {
    out[name] = units(name, q);
  }
  return out;
}

ResVec to_vec(const model::Resources& r) {
  ResVec out;
  for (auto [name, v] : {std::pair<std::string, std::int64_t>{"cpu", r.cpu_milli},
                         {"memory", r.memory},
                         {"ephemeral-storage", r.ephemeral_storage}}) {
    if (v != 0) {
      out[name] = v;
    }
  }
  for (const auto& [name, v] : r.scalar) {
    if (v != 0) {
      out[name] = v;
    }
  }
  return out;
}

ResVec mask(const ResVec& v, const ResVec& keys) {
  ResVec out;
  for (const auto& [name, amount_] : v) {
    if (keys.contains(name)) {
      out[name] = amount_;
    }
  }
  return out;
}

ResVec add(ResVec a, const ResVec& b) {
  for (const auto& [name, v] : b) {
    a[name] += v;
  }
  return a;
}

ResVec subtract_floor0(ResVec a, const ResVec& b) {
  for (const auto& [name, v] : b) {
    auto it = a.find(name);
    if (it != a.end()) {
      it->second = std::max<std::int64_t>(0, it->second - v);
    }
  }
  return a;
}

bool less_equal(const ResVec& a, const ResVec& limit, std::vector<std::string>* exceeded) {
  bool ok = true;
  for (const auto& [name, max] : limit) {
    auto it = a.find(name);
    if (it != a.end() && it->second > max) {
      ok = false;
      if (exceeded != nullptr) {
        exceeded->push_back(name);
      }
    }
  }
  return ok;
}

std::string to_string(const ResVec& v) {
  if (v.empty()) {
    return "-";
  }
  std::vector<std::string> parts;
  for (const auto& [name, a] : v) {
    parts.push_back(fmt::format("{}={}", name, amount(name, a)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

KoordArgs read_args(const Input& in) {
  const Args config(in.snapshot.scheduler_config().plugin_args);
  KoordArgs a;
  a.default_quota_max = builtin_max();
  a.system_quota_max = builtin_max();
  auto flag = [&](const char* key, bool& out) {
    if (const std::string* v = lookup(in, config, key)) {
      out = parse_bool(key, *v);
    }
  };
  flag("ElasticQuota.enableRuntimeQuota", a.enable_runtime_quota);
  flag("ElasticQuota.disableDefaultQuotaPreemption", a.disable_default_quota_preemption);
  flag("ElasticQuota.enableCheckParentQuota", a.enable_check_parent_quota);
  flag("ElasticQuota.enableMinQuotaScale", a.enable_min_quota_scale);
  flag("Coscheduling.enablePreemption", a.enable_preemption);
  read_max(in, config, "defaultQuotaGroupMax", a.default_quota_max);
  read_max(in, config, "systemQuotaGroupMax", a.system_quota_max);
  return a;
}

bool non_preemptible(const model::Pod& pod) {
  const std::string* v = model::find(pod.labels, "quota.scheduling.koordinator.sh/preemptible");
  return v != nullptr && *v == "false";
}

}  // namespace kpreempt::policy::koordinator
