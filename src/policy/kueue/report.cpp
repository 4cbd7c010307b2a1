// SPDX-License-Identifier: Apache-2.0
// Decision fields for the kueue policy: victims in eviction order, a verdict for every
// admitted Workload of the ClusterQueue and its cohort tree, the quota table and JSON details.
#include "policy/kueue/report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace kpreempt::policy::kueue {
namespace {

using Json = nlohmann::ordered_json;

const model::Workload& wl(const Report& r, const Admitted& a) {
  return r.ctx.k.workloads[a.workload];
}

std::string flavors_text(const Assignment& a) {
  std::vector<std::string> parts;
  for (const auto& ps : a.pod_sets) {
    std::vector<std::string> res;
    for (const auto& c : ps.resources) {
      res.push_back(fmt::format("{}={}", c.resource, c.flavor));
    }
    std::string text = fmt::format("{}", fmt::join(res, ", "));
    parts.push_back(a.pod_sets.size() > 1 ? ps.name + ": " + text : text);
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string borrow_text(const Report& r) {
  const model::ClusterQueue& cq = r.ctx.quota.cq(r.ctx.p.cq);
  if (!r.borrows) {
    return "within its nominal quota";
  }
  return fmt::format("borrowing from cohort {}", cq.cohort);
}

// The victims as the summary counts them: of the preemptor's scope ("ClusterQueue c1 and
// cohort x") when all are in its ClusterQueue, else each in its own ClusterQueue, as reclaiming
// from the cohort evicts workloads of other queues.
std::string victims_text(const Report& r, const Decision& d, const std::string& scope) {
  const std::string& own = r.ctx.quota.cq(r.ctx.p.cq).name;
  std::vector<std::pair<std::string, std::size_t>> per_queue;
  for (const Victim& v : d.victims) {
    auto it = std::find_if(per_queue.begin(), per_queue.end(),
                           [&](const auto& q) { return q.first == v.queue; });
    if (it == per_queue.end()) {
      per_queue.emplace_back(v.queue, 1);
    } else {
      ++it->second;
    }
  }
  if (per_queue.empty() || (per_queue.size() == 1 && per_queue.front().first == own)) {
    return fmt::format("{} workload(s) of {}", d.victims.size(), scope);
  }
  std::vector<std::string> parts;
  for (const auto& [queue, n] : per_queue) {
    parts.push_back(
        fmt::format("{}{} of ClusterQueue {}", n, parts.empty() ? " workload(s)" : "", queue));
  }
  const std::size_t comma = scope.find(" and ");
  const std::string within = comma == std::string::npos ? "" : ", in" + scope.substr(comma + 4);
  return fmt::format("{}{}{}", fmt::join(parts, " and "), within, within.empty() ? "" : ",");
}

std::string summary(const Report& r, const Decision& d) {
  std::string who = model::to_string(r.ctx.p.ref);
  if (r.ctx.p.derived_from) {
    who += " (from " + model::to_string(*r.ctx.p.derived_from) + ")";
  }
  who += fmt::format(" (priority {})", r.ctx.p.priority);
  const model::ClusterQueue& q = r.ctx.quota.cq(r.ctx.p.cq);
  std::string scope = "ClusterQueue " + q.name;
  if (r.ctx.quota.hierarchical(r.ctx.p.cq)) {
    scope += " and cohort tree " + r.ctx.quota.name(r.ctx.quota.ancestors(r.ctx.p.cq).back());
  } else if (!q.cohort.empty()) {
    scope += " and cohort " + q.cohort;
  }
  std::string flavors = flavors_text(r.a);
  switch (d.outcome) {
    case Outcome::fits:
      return fmt::format("{} fits in ClusterQueue {} without preemption, flavors {}, {}", who,
                         q.name, flavors, borrow_text(r));
    case Outcome::preempt:
      return fmt::format(
          "{} is admitted to ClusterQueue {} with flavors {}, {}, once {} are evicted", who, q.name,
          flavors, borrow_text(r), victims_text(r, d, scope));
    case Outcome::unschedulable:
      break;
  }
  if (r.a.no_fit) {
    return fmt::format("{} has no flavor in ClusterQueue {}: {}", who, q.name, r.a.detail);
  }
  return fmt::format(
      "{} needs preemption in ClusterQueue {} (flavors {}), but no set of "
      "workloads of {} the preemption policy allows makes room",
      who, q.name, flavors, scope);
}

std::string verdict_detail(const Report& r, const Verdict& v) {
  const model::Workload& w = wl(r, *v.a);
  std::string prio = fmt::format("priority {} vs preemptor {}", w.priority, r.ctx.p.priority);
  std::string evicted = model::condition_true(w, "Evicted") ? "; already-evicted" : "";
  return prio + evicted + (v.detail.empty() ? "" : "; " + v.detail);
}

void add_victims(const Report& r, Decision& d) {
  for (const Target& t : r.s.targets) {
    const model::Workload& w = wl(r, *t.a);
    d.victims.push_back(Victim{model::ObjectRef{"Workload", w.namespace_, w.name}, "", w.priority,
                               upstream_reason(t.variant), r.ctx.quota.cq(t.a->cq).name, ""});
  }
}

// One NodeVerdict per ClusterQueue holding a judged workload, the preemptor's queue first.
void add_queue_verdicts(const Report& r, Decision& d) {
  std::vector<std::size_t> order = r.ctx.quota.tree_cqs(r.ctx.p.cq);
  std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return i == r.ctx.p.cq; });
  for (std::size_t cq : order) {
    NodeVerdict n;
    n.node = r.ctx.quota.cq(cq).name;
    n.code = cq == r.ctx.p.cq ? Code::preemptor_queue : Code::cohort_member;
    std::size_t victims = 0;
    for (const Verdict& v : r.s.verdicts) {
      if (v.a->cq != cq) {
        continue;
      }
      const model::Workload& w = wl(r, *v.a);
      victims += v.victim ? 1 : 0;
      n.pods.push_back(PodVerdict{model::ObjectRef{"Workload", w.namespace_, w.name}, w.priority,
                                  v.victim, v.code, verdict_detail(r, v)});
    }
    n.detail = fmt::format("{} admitted workload(s) judged, {} victim(s)", n.pods.size(), victims);
    if (!n.pods.empty()) {
      d.verdict_unit = VerdictUnit::cluster_queue;
      d.nodes.push_back(std::move(n));
    }
  }
}

// The pairs the table shows: what the workload was assigned, else what its queue lists
// for the resources it requests.
std::vector<FR> pairs_involved(const Report& r) {
  std::vector<FR> out;
  for (const auto& [fr, v] : r.a.totals) {
    out.push_back(fr);
  }
  if (!out.empty()) {
    return out;
  }
  for (const FR& fr : r.ctx.quota.listed_pairs(r.ctx.p.cq)) {
    for (const auto& req : r.ctx.p.requests) {
      if (req.count(fr.resource) && std::find(out.begin(), out.end(), fr) == out.end()) {
        out.push_back(fr);
      }
    }
  }
  return out;
}

// One table row: a ClusterQueue, or a cohort of a hierarchical tree.
struct Row {
  std::size_t node;
  FR fr;
  Quota q;
  std::int64_t subtree, local, before, after;
};

// The usage of every node for the pairs, as the dump has it and once the victims are gone and
// the preemptor admitted (unless it stays pending): the quota model adds and removes usage up
// the tree exactly, so the simulation is undone in reverse.
std::vector<Row> quota_rows(const Report& r, const Decision& d) {
  QuotaModel& quota = r.ctx.quota;
  std::vector<FR> pairs = pairs_involved(r);
  std::vector<std::size_t> nodes = quota.tree_cqs(r.ctx.p.cq);
  std::stable_partition(nodes.begin(), nodes.end(), [&](std::size_t i) { return i == r.ctx.p.cq; });
  if (quota.hierarchical(r.ctx.p.cq)) {
    std::vector<std::size_t> cohorts = quota.tree_cohorts(r.ctx.p.cq);
    nodes.insert(nodes.end(), cohorts.begin(), cohorts.end());
  }
  std::vector<Row> rows;
  for (std::size_t n : nodes) {
    for (const FR& fr : pairs) {
      std::int64_t use = quota.usage(n, fr);
      rows.push_back(Row{n, fr, quota.quota(n, fr), quota.subtree_quota(n, fr),
                         quota.local_quota(n, fr), use, use});
    }
  }
  Admitted incoming{0, r.ctx.p.cq, r.a.totals, {}};
  bool admits = d.outcome != Outcome::unschedulable;
  for (const Target& t : r.s.targets) {
    quota.remove(*t.a);
  }
  if (admits) {
    quota.add(incoming);
  }
  for (Row& row : rows) {
    row.after = quota.usage(row.node, row.fr);
  }
  if (admits) {
    quota.remove(incoming);
  }
  for (auto it = r.s.targets.rbegin(); it != r.s.targets.rend(); ++it) {
    quota.add(*it->a);
  }
  return rows;
}

std::string arrow(const std::string& res, std::int64_t before, std::int64_t after) {
  if (before == after) {
    return format_amount(res, before);
  }
  return format_amount(res, before) + " -> " + format_amount(res, after);
}

std::string borrowed(const Row& row) {
  const std::string& res = row.fr.resource;
  return arrow(res, std::max<std::int64_t>(0, row.before - row.subtree),
               std::max<std::int64_t>(0, row.after - row.subtree));
}

// A flat cohort lists its ClusterQueues; a tree adds its cohorts, with the subtree quota each
// holds (its own nominal plus what its children lend it).
void add_quota_table(const Report& r, const std::vector<Row>& rows, Decision& d) {
  const QuotaModel& quota = r.ctx.quota;
  const model::ClusterQueue& q = quota.cq(r.ctx.p.cq);
  bool tree = quota.hierarchical(r.ctx.p.cq);
  Table t;
  t.title = q.cohort.empty() ? fmt::format("quota of ClusterQueue {} (no cohort)", q.name)
            : tree           ? fmt::format("quota in cohort tree {}",
                                           quota.name(quota.ancestors(r.ctx.p.cq).back()))
                             : fmt::format("quota in cohort {}", q.cohort);
  t.columns = {"CLUSTERQUEUE", "FLAVOR", "RESOURCE", "NOMINAL", "LENDABLE", "BORROWED", "USAGE"};
  if (tree) {
    t.columns = {"NODE",    "FLAVOR",   "RESOURCE", "NOMINAL",
                 "SUBTREE", "LENDABLE", "BORROWED", "USAGE"};
  }
  for (const Row& row : rows) {
    const std::string& res = row.fr.resource;
    std::vector<std::string> cells{quota.name(row.node), row.fr.flavor, res,
                                   format_amount(res, row.q.nominal)};
    if (tree) {
      cells[0] = (quota.is_cq(row.node) ? "ClusterQueue/" : "Cohort/") + cells[0];
      cells.push_back(format_amount(res, row.subtree));
    }
    cells.push_back(format_amount(res, row.subtree - row.local));
    cells.push_back(borrowed(row));
    cells.push_back(arrow(res, row.before, row.after));
    t.rows.push_back(std::move(cells));
  }
  d.tables.push_back(std::move(t));
}

Json assignment_json(const Assignment& a) {
  Json pod_sets = Json::array();
  for (const auto& ps : a.pod_sets) {
    Json flavors = Json::array();
    for (const auto& c : ps.resources) {
      flavors.push_back({{"resource", c.resource},
                         {"flavor", c.flavor},
                         {"mode", to_string(c.mode)},
                         {"borrow", c.borrow},
                         {"request", format_amount(c.resource, c.amount)}});
    }
    Json tried = Json::array();
    for (const auto& t : ps.tries) {
      tried.push_back({{"flavor", t.flavor},
                       {"mode", to_string(t.mode)},
                       {"borrow", t.borrow},
                       {"code", std::string(name(t.code))},
                       {"detail", t.detail}});
    }
    pod_sets.push_back({{"name", ps.name}, {"flavors", flavors}, {"tried", tried}});
  }
  return pod_sets;
}

Json limits(Json j, const Quota& q) {
  j["borrowingLimit"] = q.borrowing_limit ? Json(*q.borrowing_limit) : Json(nullptr);
  j["lendingLimit"] = q.lending_limit ? Json(*q.lending_limit) : Json(nullptr);
  return j;
}

Json cohort_json(const QuotaModel& quota, const Row& row) {
  std::optional<std::size_t> up = quota.parent(row.node);
  return limits({{"cohort", quota.name(row.node)},
                 {"parent", up ? Json(quota.name(*up)) : Json(nullptr)},
                 {"flavor", row.fr.flavor},
                 {"resource", row.fr.resource},
                 {"nominal", row.q.nominal},
                 {"subtreeQuota", row.subtree},
                 {"lendable", row.subtree - row.local},
                 {"usageBefore", row.before},
                 {"usageAfter", row.after}},
                row.q);
}

void add_details(const Report& r, const std::vector<Row>& rows, Decision& d) {
  const QuotaModel& model = r.ctx.quota;
  const model::ClusterQueue& q = model.cq(r.ctx.p.cq);
  Json quota = Json::array();
  Json cohorts = Json::array();
  for (const Row& row : rows) {
    if (!model.is_cq(row.node)) {
      cohorts.push_back(cohort_json(model, row));
      continue;
    }
    quota.push_back(limits({{"clusterQueue", model.name(row.node)},
                            {"flavor", row.fr.flavor},
                            {"resource", row.fr.resource},
                            {"nominal", row.q.nominal},
                            {"lendable", row.q.nominal - row.local},
                            {"usageBefore", row.before},
                            {"usageAfter", row.after}},
                           row.q));
  }
  Json needs = Json::array();
  for (const FR& fr : r.a.needs_preemption()) {
    needs.push_back(fr.flavor + "/" + fr.resource);
  }
  Json j = {{"clusterQueue", q.name},
            {"cohort", q.cohort},
            {"priority", r.ctx.p.priority},
            {"podSets", assignment_json(r.a)},
            {"needsPreemption", needs},
            {"borrows", r.borrows},
            {"quota", quota}};
  if (model.hierarchical(r.ctx.p.cq)) {
    Json path = Json::array();
    for (std::size_t a : model.ancestors(r.ctx.p.cq)) {
      path.push_back(model.name(a));
    }
    j["cohortPath"] = std::move(path);
    j["cohorts"] = std::move(cohorts);
  }
  j["units"] = "cpu in millicores, other resources in base units";
  d.details = std::move(j);
}

}  // namespace

std::string format_amount(const std::string& resource, std::int64_t v) {
  if (resource == "cpu") {
    return model::to_string(model::Quantity::from_milli(v));
  }
  bool bytes =
      resource == "memory" || resource == "ephemeral-storage" || resource.starts_with("hugepages-");
  return model::to_string(model::Quantity::from_units(v), bytes);
}

void write_report(const Report& r, Decision& d) {
  add_victims(r, d);
  d.summary = summary(r, d);
  if (r.searched) {
    add_queue_verdicts(r, d);
  }
  std::vector<Row> rows = quota_rows(r, d);
  add_quota_table(r, rows, d);
  add_details(r, rows, d);
  add_fair_report(r, d);
}

}  // namespace kpreempt::policy::kueue
