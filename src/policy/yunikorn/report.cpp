// SPDX-License-Identifier: Apache-2.0
// Queue tree table and details for YuniKorn decisions. The markers follow the terms of
// apache/yunikorn-core v1.7.0 pkg/scheduler/objects/queue.go (fence root, priority fence).
#include "policy/yunikorn/report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kpreempt::policy::yunikorn {
namespace {

nlohmann::json res_json(const ORes& r) {
  if (!r) {
    return nullptr;
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : *r) {
    out[k] = v;
  }
  return out;
}

// Usage after the decision: victims leave, the ask arrives.
std::vector<Res> usage_after(const Cluster& c, const Trace& t, model::PodId ask) {
  std::vector<Res> out;
  for (const QueueInfo& q : c.queues) {
    out.push_back(q.allocated);
  }
  auto roll = [&](std::uint32_t q, const Res& r, bool plus) {
    for (; q != k_no_queue; q = c.queues[q].q.parent) {
      plus ? add_to(out[q], r) : sub_from(out[q], r);
    }
  };
  if (t.outcome == Outcome::unschedulable) {
    return out;
  }
  for (model::PodId v : t.selected) {
    roll(c.pods[v].queue, c.pods[v].res, false);
  }
  roll(t.ask_queue, c.pods[ask].res, true);
  return out;
}

std::vector<std::string> markers(const Cluster& c, const Trace& t, std::uint32_t q) {
  std::vector<std::string> out;
  const model::YkQueue& yq = c.queues[q].q;
  if (q == t.fence) {
    out.push_back("fence root: " + t.fence_why);
  } else if (preemption_policy(yq) == PreemptionPolicy::fence) {
    out.push_back("fence");
  }
  if (q == t.ask_queue) {
    out.push_back("ask");
  }
  if (preemption_policy(yq) == PreemptionPolicy::disabled) {
    out.push_back("preemption disabled");
  }
  if (priority_fence(yq)) {
    out.push_back("priority fence");
  }
  if (t.queues.size() > q && t.queues[q].skipped) {
    out.push_back("priority-fenced");
  }
  if (yq.dynamic) {
    out.push_back("dynamic");
  }
  return out;
}

void walk(const Cluster& c, std::uint32_t q, int depth,
          std::vector<std::pair<std::uint32_t, int>>& out) {
  out.emplace_back(q, depth);
  for (std::uint32_t child : c.queues[q].q.children) {
    walk(c, child, depth + 1, out);
  }
}

// The ask's effective priority against the pods of a leaf below the fence root.
std::string ask_priority(const Cluster& c, const Trace& t, std::uint32_t q) {
  if (q >= t.queues.size() || !t.queues[q].visited || !c.queues[q].q.leaf || q == t.ask_queue) {
    return "-";
  }
  return t.queues[q].fenced ? "any" : std::to_string(t.queues[q].ask_priority);
}

std::string with_markers(const std::string& name, const std::vector<std::string>& m) {
  std::string out = name;
  for (const std::string& s : m) {
    out += " [" + s + "]";
  }
  return out;
}

}  // namespace

void add_report(const Cluster& c, const Trace& t, model::PodId ask, Decision& d) {
  std::vector<std::pair<std::uint32_t, int>> order;
  walk(c, 0, 0, order);
  const std::vector<Res> after = usage_after(c, t, ask);
  Table table{.title = "YuniKorn queues",
              .columns = {"QUEUE", "GUARANTEED", "MAX", "USED", "USED AFTER", "ASK PRIORITY"},
              .rows = {}};
  nlohmann::json queues = nlohmann::json::array();
  for (const auto& [q, depth] : order) {
    const model::YkQueue& yq = c.queues[q].q;
    const ORes max = q == 0 ? c.root_max : yq.max;
    const std::vector<std::string> m = markers(c, t, q);
    table.rows.push_back({std::string(static_cast<std::size_t>(depth) * 2, ' ') +
                              with_markers(depth == 0 ? yq.path : yq.name, m),
                          to_string(yq.guaranteed), to_string(max),
                          to_string(c.queues[q].allocated), to_string(after[q]),
                          ask_priority(c, t, q)});
    queues.push_back({{"path", yq.path},
                      {"depth", depth},
                      {"leaf", yq.leaf},
                      {"markers", m},
                      {"guaranteed", res_json(yq.guaranteed)},
                      {"max", res_json(max)},
                      {"usedBefore", res_json(c.queues[q].allocated)},
                      {"usedAfter", res_json(after[q])},
                      {"askPriority", ask_priority(c, t, q)}});
  }
  d.tables.push_back(std::move(table));
  nlohmann::json details = {
      {"askQueue", t.ask_queue == k_no_queue ? nlohmann::json(nullptr)
                                             : nlohmann::json(c.queues[t.ask_queue].q.path)},
      {"application", c.pods[ask].app},
      {"ask", res_json(c.pods[ask].res)},
      {"path", t.required_path ? "required-node" : "general"},
      {"queueLimited", t.attempted && !t.nodes_tried},
      {"headroom", res_json(t.headroom)},
      {"fenceRoot",
       t.fence == k_no_queue ? nlohmann::json(nullptr) : nlohmann::json(c.queues[t.fence].q.path)},
      {"fenceReason", t.fence_why},
      {"originator", c.pods[ask].originator},
      {"queues", queues},
      {"notModelled",
       {"user and group limits", "maxapplications", "existing reservations", "the 15s retry timer",
        "other pending asks in the same cycle"}}};
  d.details = std::move(details);
}

}  // namespace kpreempt::policy::yunikorn
