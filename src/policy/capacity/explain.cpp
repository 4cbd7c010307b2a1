// SPDX-License-Identifier: Apache-2.0
// What the capacity policy reports besides the node verdicts: warnings about the dump's
// ElasticQuotas, the victims with their quotas, and the per-quota usage before and after.
#include "policy/capacity/internal.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace kpreempt::policy::capacity {
namespace {

constexpr std::string_view k_koord_label_prefix = "quota.scheduling.koordinator.sh/";

std::string quota_name(const model::ElasticQuota& q) {
  return fmt::format("{}/{}", q.namespace_, q.name);
}

bool has_koordinator_label(const model::KoordElasticQuota& q) {
  return std::any_of(q.labels.begin(), q.labels.end(),
                     [](const auto& kv) { return kv.first.starts_with(k_koord_label_prefix); });
}

nlohmann::json resources_json(const model::Resources& r) {
  nlohmann::json out = nlohmann::json::object();
  auto put = [&](const char* name, std::int64_t v) {
    if (v != 0) {
      out[name] = v;
    }
  };
  put("cpu_milli", r.cpu_milli);
  put("memory", r.memory);
  put("ephemeral-storage", r.ephemeral_storage);
  put("pods", r.pods);
  for (const auto& [name, v] : r.scalar) {
    out[name] = v;
  }
  return out;
}

std::string yes_no(bool b) {
  return b ? "yes" : "no";
}

}  // namespace

void add_input_warnings(const model::Snapshot& snap, Decision& d) {
  // Koordinator reads the old group too, so labelled quotas there are expected; unlabelled
  // ones most likely are CapacityScheduling quotas written before the group rename.
  std::vector<std::string> legacy;
  for (const model::KoordElasticQuota& q : snap.koordinator().quotas) {
    if (!has_koordinator_label(q)) {
      legacy.push_back(fmt::format("{}/{}", q.namespace_, q.name));
    }
  }
  if (!legacy.empty()) {
    d.warnings.push_back(fmt::format(
        "ElasticQuota {} of group scheduling.sigs.k8s.io ignored: CapacityScheduling reads only "
        "scheduling.x-k8s.io since scheduler-plugins v0.25 (EQ005)",
        fmt::join(legacy, ", ")));
  }
  const auto& quotas = snap.capacity().quotas;
  for (const model::ElasticQuota& q : quotas) {
    const std::size_t n = snap.capacity().count_in(q.namespace_);
    if (n > 1 && snap.capacity().find(q.namespace_) == &q) {
      d.warnings.push_back(fmt::format(
          "namespace {} holds {} ElasticQuotas; only {} (first in the input) is used (EQ002)",
          q.namespace_, n, q.name));
    }
  }
}

void add_victims(const Input& in, model::NodeId winner, const common::DryRun& dry,
                 const QuotaState& quotas, Decision& d) {
  const model::Snapshot& snap = in.snapshot;
  for (model::PodId id : dry.victims) {
    const model::Pod& p = snap.pods()[id];
    Victim v;
    v.ref = model::ObjectRef{"Pod", p.namespace_, p.name};
    v.node = snap.nodes()[winner].name;
    v.priority = snap.facts(id).priority;
    const auto pv = std::find_if(dry.pods.begin(), dry.pods.end(),
                                 [&](const PodVerdict& x) { return x.pod == v.ref; });
    v.reason = pv != dry.pods.end() ? pv->code : policy::Code::victim;
    if (const QuotaInfo* q = quotas.find(p.namespace_)) {
      v.queue = quota_name(*q->source);
    }
    if (p.terminating()) {
      d.warnings.push_back(
          fmt::format("victim Pod {}/{} is already terminating: no delete call is sent for it",
                      p.namespace_, p.name));
    }
    if (!p.start_time) {
      d.warnings.push_back(
          fmt::format("Pod {}/{} has no status.startTime; it was compared as starting at --now",
                      p.namespace_, p.name));
    }
    d.victims.push_back(std::move(v));
  }
}

namespace {

// Issue #424: a max that lists some resources bounds every unlisted one of cpu, memory,
// ephemeral-storage and pods at 0, which users rarely mean.
void add_missing_max_hint(const QuotaState& quotas, const PreFilter& pre, Decision& d) {
  const QuotaInfo* own = pre.has_quota ? quotas.find(pre.namespace_) : nullptr;
  if (own == nullptr || !pre.over_max || !own->source->max) {
    return;
  }
  const model::ResourceList& max = *own->source->max;
  const std::pair<const char*, std::int64_t> dims[] = {
      {"cpu", pre.in_quota.cpu_milli},
      {"memory", pre.in_quota.memory},
      {"ephemeral-storage", pre.in_quota.ephemeral_storage},
      {"pods", pre.in_quota.pods}};
  for (const auto& [name, requested] : dims) {
    const bool listed =
        std::any_of(max.begin(), max.end(), [&](const auto& e) { return e.first == name; });
    if (requested > 0 && !listed) {
      d.warnings.push_back(fmt::format(
          "ElasticQuota {}: spec.max does not list {}, so its max for {} is 0 and any request "
          "of it exceeds max",
          quota_name(*own->source), name, name));
    }
  }
}

}  // namespace

namespace {

// The usage once the victims are gone and, when it is placed, the preemptor is counted.
QuotaState usage_after(const Input& in, const QuotaState& quotas, const PreFilter& pre, bool placed,
                       const Decision& d) {
  QuotaState after = quotas;
  for (const Victim& v : d.victims) {
    if (auto id = in.snapshot.find_pod(v.ref.namespace_, v.ref.name)) {
      after.remove(*id);
    }
  }
  if (placed && pre.has_quota) {
    after.add(in.preemptor);
  }
  return after;
}

Table quota_table(const QuotaState& quotas, const QuotaState& after, const PreFilter& pre) {
  Table t{"ElasticQuotas (scheduling.x-k8s.io)",
          {"QUOTA", "MIN", "MAX", "USED", "USED AFTER", "OVER MIN", "OVER MIN AFTER"},
          {}};
  for (std::size_t i = 0; i < quotas.quotas().size(); ++i) {
    const QuotaInfo& q = quotas.quotas()[i];
    const QuotaInfo& a = after.quotas()[i];
    const std::string name = quota_name(*q.source);
    const bool own = pre.has_quota && q.source->namespace_ == pre.namespace_;
    // An absent max defaults to the int64 maximum for cpu, memory and ephemeral-storage.
    const std::string max = q.source->max ? format_resources(q.max) : "unlimited (no max)";
    t.rows.push_back({own ? name + " (preemptor)" : name, format_resources(q.min), max,
                      format_resources(q.used), format_resources(a.used),
                      yes_no(quotas.over_min(q)), yes_no(after.over_min(a))});
  }
  t.rows.push_back({"(all quotas)", format_resources(quotas.total_min()), "-",
                    format_resources(quotas.total_used()), format_resources(after.total_used()),
                    yes_no(quotas.aggregated_over_min_with({})),
                    yes_no(after.aggregated_over_min_with({}))});
  return t;
}

nlohmann::json quota_rows(const QuotaState& quotas, const QuotaState& after, const PreFilter& pre) {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t i = 0; i < quotas.quotas().size(); ++i) {
    const QuotaInfo& q = quotas.quotas()[i];
    const QuotaInfo& a = after.quotas()[i];
    rows.push_back({{"namespace", q.source->namespace_},
                    {"name", q.source->name},
                    {"preemptor", pre.has_quota && q.source->namespace_ == pre.namespace_},
                    {"min", resources_json(q.min)},
                    {"max", resources_json(q.max)},
                    {"max_unlimited", !q.source->max.has_value()},
                    {"used_before", resources_json(q.used)},
                    {"used_after", resources_json(a.used)},
                    {"over_min_before", quotas.over_min(q)},
                    {"over_min_after", after.over_min(a)}});
  }
  return rows;
}

nlohmann::json prefilter_json(const QuotaState& quotas, const PreFilter& pre) {
  return {{"quota", pre.has_quota ? nlohmann::json(quota_name(*quotas.find(pre.namespace_)->source))
                                  : nlohmann::json(nullptr)},
          {"request", resources_json(pre.request)},
          {"request_with_nominated_in_quota", resources_json(pre.in_quota)},
          {"request_with_nominated_all", resources_json(pre.all)},
          {"over_max", pre.over_max},
          {"aggregated_over_min", pre.aggregated_over_min},
          {"above_min", pre.above_min},
          {"mode", !pre.has_quota  ? "no-quota"
                   : pre.above_min ? "same-namespace"
                                   : "reclaim-borrowed"}};
}

}  // namespace

void add_quota_report(const Input& in, const QuotaState& quotas, const PreFilter& pre, bool placed,
                      Decision& d) {
  add_missing_max_hint(quotas, pre, d);
  const QuotaState after = usage_after(in, quotas, pre, placed, d);
  if (!quotas.quotas().empty()) {
    d.tables.push_back(quota_table(quotas, after, pre));
  }
  // A sorted object, as the details of this policy have always printed.
  const nlohmann::json details = {{"prefilter", prefilter_json(quotas, pre)},
                                  {"quotas", quota_rows(quotas, after, pre)},
                                  {"total_min", resources_json(quotas.total_min())},
                                  {"total_used_before", resources_json(quotas.total_used())},
                                  {"total_used_after", resources_json(after.total_used())}};
  d.details = details;
}

}  // namespace kpreempt::policy::capacity
