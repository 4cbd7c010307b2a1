// SPDX-License-Identifier: Apache-2.0
// The koordinator policy's own output: the quota table (min, runtime, used before and after)
// and the structured details (admission, quotas, job placement).
#include "policy/koordinator/preempt.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kpreempt::policy::koordinator {
namespace {

nlohmann::json to_json(const ResVec& v) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, amount] : v) {
    out[name] = to_string(ResVec{{name, amount}}).substr(name.size() + 1);
  }
  return out;
}

// The quotas worth showing: the preemptor's and its ancestors, then the victims' quotas.
std::vector<const QuotaNode*> shown(const Context& ctx, const Decision& d) {
  std::vector<const QuotaNode*> out = ctx.quotas.path(ctx.quota.name);
  for (const Victim& v : d.victims) {
    const QuotaNode* q = ctx.quotas.find(v.queue);
    if (q != nullptr && std::find(out.begin(), out.end(), q) == out.end()) {
      out.push_back(q);
    }
  }
  return out;
}

ResVec used_after(const Context& ctx, const QuotaNode& q, const Decision& d) {
  ResVec used = q.used;
  for (const Victim& v : d.victims) {
    const std::optional<model::PodId> id = ctx.snap.find_pod(v.ref.namespace_, v.ref.name);
    if (!id) {
      continue;
    }
    // A victim counts against its own quota and every ancestor of it.
    for (const QuotaNode* a : ctx.quotas.path(ctx.quotas.quota_of(*id))) {
      if (a == &q) {
        used = subtract_floor0(used, ctx.quotas.masked_request(*id, q));
      }
    }
  }
  return used;
}

std::string limit_text(const Context& ctx, const QuotaNode& q) {
  const std::optional<ResVec> lim = ctx.quotas.limit(q);
  return lim ? to_string(*lim) : "unlimited";
}

}  // namespace

PodVerdict verdict(const model::Snapshot& snap, model::PodId id, Reason code, std::string detail) {
  const model::Pod& p = snap.pods()[id];
  return PodVerdict{model::ObjectRef{"Pod", p.namespace_, p.name}, snap.facts(id).priority, false,
                    std::move(code), std::move(detail)};
}

void add_quota_table(const Context& ctx, const Admission& adm, Decision& d) {
  Table t;
  t.title = fmt::format("ElasticQuota (limit = {}; admission: {})",
                        ctx.args.enable_runtime_quota ? "runtime" : "max",
                        adm.ok ? std::string_view("passes") : name(adm.code));
  t.columns = {"QUOTA",   "MIN",  "MAX",        "RUNTIME",
               "REQUEST", "USED", "USED AFTER", "NON-PREEMPTIBLE USED"};
  for (const QuotaNode* q : shown(ctx, d)) {
    std::string min = to_string(q->min);
    if (!q->scaled_min.empty() && mask(q->scaled_min, q->min) != q->min) {
      min += fmt::format(" (scaled {})", to_string(mask(q->scaled_min, q->min)));
    }
    t.rows.push_back({q->name, min, to_string(q->max), limit_text(ctx, *q), to_string(q->request),
                      to_string(q->used), to_string(used_after(ctx, *q, d)),
                      to_string(q->non_preemptible_used)});
  }
  d.tables.push_back(std::move(t));
}

nlohmann::json details(const Context& ctx, const Admission& adm, const std::optional<Gang>& gang,
                       const JobLevel* job, const Decision& d) {
  nlohmann::json j;
  j["quota"] = ctx.quota.name;
  j["admission"] = {{"ok", adm.ok}, {"code", std::string(name(adm.code))}, {"detail", adm.detail}};
  j["preemptorRequest"] = to_json(ctx.request);
  j["clusterTotal"] = to_json(ctx.quotas.cluster_total());
  nlohmann::json quotas = nlohmann::json::array();
  for (const QuotaNode* q : shown(ctx, d)) {
    const std::optional<ResVec> lim = ctx.quotas.limit(*q);
    quotas.push_back({{"name", q->name},
                      {"parent", q->parent},
                      {"min", to_json(q->min)},
                      {"scaledMin", to_json(q->scaled_min)},
                      {"max", to_json(q->max)},
                      {"runtime", q->runtime ? to_json(*q->runtime) : nlohmann::json(nullptr)},
                      {"limit", lim ? to_json(*lim) : nlohmann::json(nullptr)},
                      {"request", to_json(q->request)},
                      {"used", to_json(q->used)},
                      {"usedAfter", to_json(used_after(ctx, *q, d))},
                      {"nonPreemptibleUsed", to_json(q->non_preemptible_used)}});
  }
  j["quotas"] = quotas;
  if (gang) {
    j["gang"] = {{"id", gang->id},
                 {"minMember", gang->min_member},
                 {"initialised", gang->initialised},
                 {"members", gang->members.size()},
                 {"bound", gang->bound}};
  }
  if (job != nullptr) {
    nlohmann::json placements = nlohmann::json::array();
    for (const Placement& p : job->placements) {
      placements.push_back({{"pod", ctx.snap.pods()[p.pod].name},
                            {"node", ctx.snap.nodes()[p.node].name},
                            {"cost", job->cost.empty() ? 0 : job->cost[p.node]}});
    }
    j["job"] = {{"ok", job->ok},
                {"code", std::string(name(job->code))},
                {"detail", job->detail},
                {"placements", placements}};
  }
  return j;
}

}  // namespace kpreempt::policy::koordinator
