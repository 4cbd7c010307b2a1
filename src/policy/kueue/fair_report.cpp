// SPDX-License-Identifier: Apache-2.0
// The fair-sharing part of a kueue decision: the dominant resource share of every node of the
// cohort tree before, with the preemptor and after the victims go, and every comparison the
// strategies made, as tables and typed JSON.
#include "policy/kueue/report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace kpreempt::policy::kueue {
namespace {

using Json = nlohmann::ordered_json;

std::string node_name(const QuotaModel& q, std::size_t n) {
  return (q.is_cq(n) ? "ClusterQueue/" : "Cohort/") + q.name(n);
}

Json share_json(const Share& s) {
  double v = s.value();
  return {{"share", std::isinf(v) ? Json("+Inf") : Json(v)},
          {"unweightedRatio", s.ratio},
          {"weight", s.weight},
          {"dominantResource", s.resource},
          {"borrowing", s.borrowing}};
}

std::vector<std::size_t> tree_nodes(const QuotaModel& q, std::size_t cq) {
  std::vector<std::size_t> out = q.tree_cqs(cq);
  std::vector<std::size_t> cohorts = q.tree_cohorts(cq);
  out.insert(out.end(), cohorts.begin(), cohorts.end());
  return out;
}

struct ShareRow {
  std::size_t node;
  Share before, with, after;
};

std::vector<ShareRow> share_rows(const Report& r, bool admits) {
  QuotaModel& q = r.ctx.quota;
  FairShares shares(q, r.ctx.k);
  std::vector<ShareRow> rows;
  for (std::size_t n : tree_nodes(q, r.ctx.p.cq)) {
    rows.push_back(ShareRow{n, shares.share(n), {}, {}});
  }
  Admitted incoming{0, r.ctx.p.cq, r.a.totals, {}};
  q.add(incoming);
  for (ShareRow& row : rows) {
    row.with = shares.share(row.node);
  }
  for (const Target& t : r.s.targets) {
    q.remove(*t.a);
  }
  for (ShareRow& row : rows) {
    row.after = admits ? shares.share(row.node) : row.with;
  }
  for (auto it = r.s.targets.rbegin(); it != r.s.targets.rend(); ++it) {
    q.add(*it->a);
  }
  q.remove(incoming);
  return rows;
}

void add_share_table(const Report& r, const std::vector<ShareRow>& rows, Decision& d) {
  const QuotaModel& q = r.ctx.quota;
  Table t;
  t.title =
      "fair sharing: dominant resource shares (per mille of what the parent could lend, / weight)";
  t.columns = {"NODE", "PARENT", "WEIGHT", "BEFORE", "WITH PREEMPTOR", "AFTER"};
  for (const ShareRow& row : rows) {
    std::optional<std::size_t> up = q.parent(row.node);
    t.rows.push_back({node_name(q, row.node), up ? q.name(*up) : "-",
                      fmt::format("{}", row.before.weight), to_string(row.before),
                      to_string(row.with), to_string(row.after)});
  }
  d.tables.push_back(std::move(t));
}

std::string workload_name(const Report& r, const Admitted& a) {
  const model::Workload& w = r.ctx.k.workloads[a.workload];
  return w.namespace_ + "/" + w.name;
}

void add_step_table(const Report& r, Decision& d) {
  const QuotaModel& q = r.ctx.quota;
  Table t;
  t.title = "fair sharing: strategy comparisons, in search order";
  t.columns = {
      "#",           "STRATEGY", "CANDIDATE",         "BELOW", "PREEMPTOR SIDE", "WITH PREEMPTOR",
      "TARGET SIDE", "BEFORE",   "WITHOUT CANDIDATE", "RESULT"};
  std::size_t n = 0;
  for (const FairStep& s : r.s.fair_steps) {
    t.rows.push_back(
        {fmt::format("{}{}", ++n, s.round == 2 ? " (2nd)" : ""), std::string(to_string(s.strategy)),
         workload_name(r, *s.a), node_name(q, s.lca), node_name(q, s.preemptor_side),
         to_string(s.preemptor_new), node_name(q, s.target_side), to_string(s.target_old),
         s.target_new ? to_string(*s.target_new) : "-", s.passed ? "pass" : "fail"});
  }
  if (!t.rows.empty()) {
    d.tables.push_back(std::move(t));
  }
}

Json steps_json(const Report& r) {
  const QuotaModel& q = r.ctx.quota;
  Json out = Json::array();
  for (const FairStep& s : r.s.fair_steps) {
    const model::Workload& w = r.ctx.k.workloads[s.a->workload];
    out.push_back(
        {{"round", s.round},
         {"strategy", to_string(s.strategy)},
         {"workload", {{"namespace", w.namespace_}, {"name", w.name}}},
         {"clusterQueue", q.name(s.a->cq)},
         {"leastCommonAncestor", q.name(s.lca)},
         {"preemptorSide", node_name(q, s.preemptor_side)},
         {"targetSide", node_name(q, s.target_side)},
         {"preemptorShareWithWorkload", share_json(s.preemptor_new)},
         {"targetShareBefore", share_json(s.target_old)},
         {"targetShareWithoutCandidate", s.target_new ? share_json(*s.target_new) : Json(nullptr)},
         {"passed", s.passed}});
  }
  return out;
}

}  // namespace

void add_fair_report(const Report& r, Decision& d) {
  if (!r.ctx.fair.on) {
    return;
  }
  bool admits = d.outcome != Outcome::unschedulable;
  std::vector<ShareRow> rows = share_rows(r, admits);
  if (r.ctx.quota.has_parent(r.ctx.p.cq)) {
    add_share_table(r, rows, d);
  }
  add_step_table(r, d);
  Json strategies = Json::array();
  for (Strategy s : r.ctx.fair.strategies) {
    strategies.push_back(to_string(s));
  }
  Json shares = Json::array();
  for (const ShareRow& row : rows) {
    std::optional<std::size_t> up = r.ctx.quota.parent(row.node);
    shares.push_back({{"node", node_name(r.ctx.quota, row.node)},
                      {"parent", up ? Json(r.ctx.quota.name(*up)) : Json(nullptr)},
                      {"before", share_json(row.before)},
                      {"withPreemptor", share_json(row.with)},
                      {"after", share_json(row.after)}});
  }
  if (d.details.is_object()) {
    d.details["fairSharing"] = {{"source", r.ctx.fair.source},
                                {"preemptionStrategies", strategies},
                                {"preemptWithinNominal", r.s.within_nominal},
                                {"shares", shares},
                                {"comparisons", steps_json(r)}};
  }
}

}  // namespace kpreempt::policy::kueue
