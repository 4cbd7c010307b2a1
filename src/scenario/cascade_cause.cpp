// SPDX-License-Identifier: Apache-2.0
// Why one preempting decision of a cascade may evict its victims, from what the snapshot holds:
// the priorities and their classes, the YuniKorn queue over its guarantee, the ElasticQuotas of
// CapacityScheduling, the Kueue ClusterQueue's preemption policy, and the two schedulers when
// two share a node. A loop is only fixed by changing one of these, so the loop says them.
#include "kpreempt/model/kueue.h"
#include "kpreempt/scenario/cascade.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace kpreempt::scenario {
namespace {

std::string priority_text(const std::string& class_name, std::int32_t value) {
  return class_name.empty() ? fmt::format("priority {}", value)
                            : fmt::format("PriorityClass {}, {}", class_name, value);
}

// The ClusterQueue of a Workload: the one that admitted it, else its LocalQueue's.
std::string cluster_queue_of(const model::KueueObjects& k, const model::Workload& w) {
  if (!w.admission_cluster_queue.empty()) {
    return w.admission_cluster_queue;
  }
  const model::LocalQueue* lq = model::find_local_queue(k, w.namespace_, w.queue_name);
  return lq == nullptr ? std::string() : lq->cluster_queue;
}

std::string pod_text(const model::Snapshot& snap, model::PodId id) {
  const model::Pod& p = snap.pods()[id];
  return fmt::format("{}/{} ({})", p.namespace_, p.name,
                     priority_text(p.priority_class_name, snap.facts(id).priority));
}

std::string workload_text(const model::Snapshot& snap, std::uint32_t id) {
  const model::Workload& w = snap.kueue().workloads[id];
  const std::string cq = cluster_queue_of(snap.kueue(), w);
  return fmt::format(
      "Workload {}/{} (ClusterQueue {}, {})", w.namespace_, w.name, cq.empty() ? "none" : cq,
      w.priority_class_name.empty()
          ? fmt::format("priority {}", w.priority)
          : fmt::format("WorkloadPriorityClass {}, {}", w.priority_class_name, w.priority));
}

std::string victim_text(const model::Snapshot& snap, const policy::Victim& v) {
  if (v.ref.kind == "Workload") {
    const auto id = model::find_workload(snap.kueue(), v.ref.namespace_, v.ref.name);
    const std::string text = id ? workload_text(snap, *id) : "Workload " + v.ref.name;
    return fmt::format("{} by {}", text, policy::name(v.reason.code));
  }
  const auto id = snap.find_pod(v.ref.namespace_, v.ref.name);
  return id ? pod_text(snap, *id) : v.ref.namespace_ + "/" + v.ref.name;
}

std::string scheduler_of(const model::Pod& p) {
  return p.scheduler_name.empty() ? "default-scheduler" : p.scheduler_name;
}

// The victims of another scheduler than the preemptor's, each with both names: the two
// schedulers see the node's pods but not each other's queue.
std::string schedulers_text(const model::Snapshot& snap, model::PodId pod,
                            const policy::Decision& d) {
  const std::string mine = scheduler_of(snap.pods()[pod]);
  std::vector<std::string> others;
  for (const policy::Victim& v : d.victims) {
    const auto id = snap.find_pod(v.ref.namespace_, v.ref.name);
    if (id && scheduler_of(snap.pods()[*id]) != mine) {
      others.push_back(fmt::format("{}/{} spec.schedulerName {}", v.ref.namespace_, v.ref.name,
                                   scheduler_of(snap.pods()[*id])));
    }
  }
  if (others.empty()) {
    return {};
  }
  return fmt::format("; node {} is shared by two schedulers: {}/{} spec.schedulerName {}, {}",
                     d.node, snap.pods()[pod].namespace_, snap.pods()[pod].name, mine,
                     fmt::join(others, ", "));
}

std::string amount_text(const std::string& resource, std::int64_t v) {
  if (resource == "vcore") {
    return v % 1000 == 0 ? std::to_string(v / 1000) : std::to_string(v) + "m";
  }
  if (resource == "memory" && v != 0 && v % (1LL << 30) == 0) {
    return std::to_string(v >> 30) + "Gi";
  }
  if (resource == "memory" && v != 0 && v % (1LL << 20) == 0) {
    return std::to_string(v >> 20) + "Mi";
  }
  return std::to_string(v);
}

// The resources `queue` (a row of the yunikorn policy's details) uses beyond its guarantee.
std::vector<std::string> over_guarantee(const nlohmann::ordered_json& queue,
                                        const nlohmann::ordered_json& guaranteed) {
  std::vector<std::string> over;
  const auto used = queue.find("usedBefore");
  if (used == queue.end() || !used->is_object()) {
    return over;
  }
  // A resource the guarantee leaves out is not compared with it.
  for (const auto& [resource, amount] : used->items()) {
    const auto g = guaranteed.find(resource);
    if (g != guaranteed.end() && amount.get<std::int64_t>() > g->get<std::int64_t>()) {
      over.push_back(fmt::format("{} {} (uses {})", resource,
                                 amount_text(resource, g->get<std::int64_t>()),
                                 amount_text(resource, amount.get<std::int64_t>())));
    }
  }
  return over;
}

// What the yunikorn policy's details say of the queue at `path`.
std::string queue_text(const nlohmann::ordered_json& details, const std::string& path) {
  const auto queues = details.is_object() ? details.find("queues") : details.end();
  if (!details.is_object() || queues == details.end() || !queues->is_array()) {
    return {};
  }
  for (const auto& q : *queues) {
    if (!q.is_object() || q.value("path", "") != path) {
      continue;
    }
    const auto g = q.find("guaranteed");
    if (g == q.end() || !g->is_object()) {
      return fmt::format("queue {} has no guaranteed resources", path);
    }
    const std::vector<std::string> over = over_guarantee(q, *g);
    return over.empty()
               ? fmt::format("queue {} is within its guaranteed resources", path)
               : fmt::format("queue {} is over its guaranteed {}", path, fmt::join(over, ", "));
  }
  return {};
}

std::string yunikorn_text(const policy::Decision& d) {
  std::vector<std::string> queues;
  for (const policy::Victim& v : d.victims) {
    const std::string text = v.queue.empty() ? std::string() : queue_text(d.details, v.queue);
    if (!text.empty() && std::find(queues.begin(), queues.end(), text) == queues.end()) {
      queues.push_back(text);
    }
  }
  return queues.empty() ? std::string() : fmt::format(": {}", fmt::join(queues, "; "));
}

std::string capacity_amount(const std::string& key, std::int64_t v) {
  if (key == "cpu_milli") {
    return amount_text("vcore", v);
  }
  return amount_text(key, v);
}

// The resources an ElasticQuota row (the capacity policy's details) uses beyond its min.
std::string over_min(const nlohmann::ordered_json& q) {
  std::vector<std::string> over;
  const auto used = q.find("used_before");
  const auto min = q.find("min");
  if (used == q.end() || min == q.end() || !used->is_object() || !min->is_object()) {
    return {};
  }
  for (const auto& [key, amount] : used->items()) {
    const auto m = min->find(key);
    const std::int64_t floor = m == min->end() ? 0 : m->get<std::int64_t>();
    if (amount.get<std::int64_t>() > floor) {
      const std::string resource = key == "cpu_milli" ? "cpu" : key;
      over.push_back(fmt::format("{} {} (uses {})", resource, capacity_amount(key, floor),
                                 capacity_amount(key, amount.get<std::int64_t>())));
    }
  }
  return fmt::format("{}", fmt::join(over, ", "));
}

// CapacityScheduling takes victims of other quotas, whatever their priority, while the
// preemptor's quota stays within its min and theirs is over its own.
std::string capacity_text(const policy::Decision& d) {
  const auto quotas = d.details.is_object() ? d.details.find("quotas") : d.details.end();
  if (!d.details.is_object() || quotas == d.details.end() || !quotas->is_array()) {
    return {};
  }
  std::vector<std::string> parts;
  for (const auto& q : *quotas) {
    const std::string name =
        fmt::format("ElasticQuota {}/{}", q.value("namespace", ""), q.value("name", ""));
    if (q.value("preemptor", false)) {
      parts.push_back(name + (q.value("over_min_after", false)
                                  ? " (the preemptor's) goes over its min"
                                  : " (the preemptor's) stays within its min"));
    } else if (q.value("over_min_before", false)) {
      parts.push_back(name + " is over its min " + over_min(q));
    }
  }
  return parts.empty() ? std::string() : fmt::format(": {}", fmt::join(parts, "; "));
}

std::string kueue_text(const model::Snapshot& snap, std::uint32_t workload) {
  const model::Workload& w = snap.kueue().workloads[workload];
  const model::ClusterQueue* cq =
      model::find_cluster_queue(snap.kueue(), cluster_queue_of(snap.kueue(), w));
  if (cq == nullptr) {
    return {};
  }
  return fmt::format(
      ": ClusterQueue {}{} preempts withinClusterQueue {}, reclaimWithinCohort {}, "
      "borrowWithinCohort {}",
      cq->name, cq->cohort.empty() ? "" : " (cohort " + cq->cohort + ")", cq->within_cluster_queue,
      cq->reclaim_within_cohort, cq->borrow_within_cohort);
}

}  // namespace

std::string eviction_cause(const model::Snapshot& snap, model::PodId pod, std::uint32_t workload,
                           const policy::Decision& d) {
  std::vector<std::string> victims;
  for (const policy::Victim& v : d.victims) {
    victims.push_back(victim_text(snap, v));
  }
  const std::string who =
      pod == model::k_none ? workload_text(snap, workload) : pod_text(snap, pod);
  std::string out =
      fmt::format("{} may evict {} under {}", who, fmt::join(victims, ", "), d.policy);
  if (pod == model::k_none) {
    return out + kueue_text(snap, workload);
  }
  if (d.policy == "yunikorn") {
    out += yunikorn_text(d);
  } else if (d.policy == "capacity") {
    out += capacity_text(d);
  }
  return out + schedulers_text(snap, pod, d);
}

}  // namespace kpreempt::scenario
