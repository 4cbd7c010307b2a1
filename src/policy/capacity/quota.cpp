// SPDX-License-Identifier: Apache-2.0
// ElasticQuotaInfo arithmetic and PreFilter of CapacityScheduling. Mirrors kubernetes-sigs/
// scheduler-plugins pkg/capacityscheduling/elasticquota.go (newElasticQuotaInfo, cmp, cmp2,
// usedOverMinWith, usedOverMaxWith, usedOverMin, aggregatedUsedOverMinWith) and
// capacity_scheduling.go PreFilter, v0.35 (commit 903da7df82cb).
#include "policy/capacity/internal.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::capacity {
namespace {

// makeResourceListForBound: only cpu, memory and ephemeral-storage get the bound. The pod
// count and every scalar resource stay unset, so an absent max still caps "pods" at 0.
model::Resources bound_resources(std::int64_t bound) {
  model::Resources r;
  r.cpu_milli = bound;
  r.memory = bound;
  r.ephemeral_storage = bound;
  return r;
}

model::Resources bounds(const std::optional<model::ResourceList>& list, std::int64_t bound) {
  return list ? model::to_resources(*list) : bound_resources(bound);
}

}  // namespace

bool exceeds(const model::Resources& x1, const model::Resources& x2, const model::Resources& y,
             std::int64_t bound) {
  if (x1.cpu_milli + x2.cpu_milli > y.cpu_milli || x1.memory + x2.memory > y.memory ||
      x1.ephemeral_storage + x2.ephemeral_storage > y.ephemeral_storage ||
      x1.pods + x2.pods > y.pods) {
    return true;
  }
  for (const auto& [name, v] : x1.scalar) {
    const auto it = std::find_if(y.scalar.begin(), y.scalar.end(),
                                 [&](const auto& e) { return e.first == name; });
    const std::int64_t limit = it == y.scalar.end() ? bound : it->second;
    if (v + x2.get(name) > limit) {
      return true;
    }
  }
  return false;
}

QuotaState::QuotaState(const model::Snapshot& snap) : m_snap(&snap) {
  auto requests = std::make_shared<std::vector<model::Resources>>();
  requests->reserve(snap.pods().size());
  for (const model::Pod& p : snap.pods()) {
    requests->push_back(model::capacity_pod_request(p));
  }
  m_requests = std::move(requests);
  for (const model::ElasticQuota& q : snap.capacity().quotas) {
    if (find(q.namespace_) != nullptr) {
      continue;  // only the first quota of a namespace is used
    }
    m_quotas.push_back(QuotaInfo{&q, bounds(q.min, k_lower_bound_of_min),
                                 bounds(q.max, k_upper_bound_of_max), model::Resources{}});
  }
  m_counted.assign(snap.pods().size(), false);
  for (model::PodId id = 0; id < snap.pods().size(); ++id) {
    const model::Pod& p = snap.pods()[id];
    // The plugin's informer sees assigned pods only, and the scheduler's factory drops
    // terminal ones; terminating pods still count.
    if (!p.node_name.empty() && !p.terminal()) {
      add(id);
    }
  }
}

const QuotaInfo* QuotaState::find(std::string_view ns) const {
  const auto it = std::find_if(m_quotas.begin(), m_quotas.end(),
                               [&](const QuotaInfo& q) { return q.source->namespace_ == ns; });
  return it == m_quotas.end() ? nullptr : &*it;
}

QuotaInfo* QuotaState::find_mut(std::string_view ns) {
  return const_cast<QuotaInfo*>(std::as_const(*this).find(ns));
}

bool QuotaState::over_max_with(const QuotaInfo& q, const model::Resources& r) const {
  return exceeds(r, q.used, q.max, k_upper_bound_of_max);
}

bool QuotaState::over_min_with(const QuotaInfo& q, const model::Resources& r) const {
  return exceeds(r, q.used, q.min, k_lower_bound_of_min);
}

bool QuotaState::over_min(const QuotaInfo& q) const {
  return exceeds(q.used, model::Resources{}, q.min, k_lower_bound_of_min);
}

model::Resources QuotaState::total_used() const {
  model::Resources sum;
  for (const QuotaInfo& q : m_quotas) {
    sum.add(q.used);
  }
  return sum;
}

model::Resources QuotaState::total_min() const {
  model::Resources sum;
  for (const QuotaInfo& q : m_quotas) {
    sum.add(q.min);
  }
  return sum;
}

bool QuotaState::aggregated_over_min_with(const model::Resources& r) const {
  model::Resources used = total_used();
  used.add(r);
  return exceeds(used, model::Resources{}, total_min(), k_lower_bound_of_min);
}

void QuotaState::remove(model::PodId id) {
  QuotaInfo* q = find_mut(m_snap->pods()[id].namespace_);
  if (q != nullptr && m_counted[id]) {
    m_counted[id] = false;
    q->used.subtract(request(id));
  }
}

void QuotaState::add(model::PodId id) {
  QuotaInfo* q = find_mut(m_snap->pods()[id].namespace_);
  if (q != nullptr && !m_counted[id]) {
    m_counted[id] = true;
    q->used.add(request(id));
  }
}

PreFilter run_prefilter(const QuotaState& quotas, const model::Snapshot& snap,
                        model::PodId preemptor) {
  PreFilter out;
  const model::Pod& pod = snap.pods()[preemptor];
  out.namespace_ = pod.namespace_;
  out.request = quotas.request(preemptor);
  const QuotaInfo* own = quotas.find(pod.namespace_);
  if (own == nullptr) {
    return out;  // no quota: PreFilter succeeds without looking at anything
  }
  out.has_quota = true;
  const std::int32_t prio = snap.facts(preemptor).priority;
  for (model::NodeId n = 0; n < snap.nodes().size(); ++n) {
    for (model::PodId id : snap.nominated_to(n)) {
      const QuotaInfo* q = quotas.find(snap.pods()[id].namespace_);
      if (id == preemptor || q == nullptr) {
        continue;
      }
      if (q == own && snap.facts(id).priority >= prio) {
        out.in_quota.add(quotas.request(id));
        out.all.add(quotas.request(id));
      } else if (q != own && !quotas.over_min(*q)) {
        out.all.add(quotas.request(id));
      }
    }
  }
  out.in_quota.add(out.request);
  out.all.add(out.request);
  out.over_max = quotas.over_max_with(*own, out.in_quota);
  out.aggregated_over_min = quotas.aggregated_over_min_with(out.all);
  out.above_min = quotas.over_min_with(*own, out.in_quota);
  return out;
}

std::string format_resources(const model::Resources& r) {
  // Quantity holds milli-units, so values beyond int64/1000 are printed as plain numbers.
  auto dim = [](std::int64_t v, bool milli) {
    if (v == k_upper_bound_of_max) {
      return std::string("unlimited");
    }
    if (milli) {
      return model::to_string(model::Quantity::from_milli(v));
    }
    if (v > INT64_MAX / 1000 || v < INT64_MIN / 1000) {
      return std::to_string(v);
    }
    return model::to_string(model::Quantity::from_units(v), true);
  };
  std::vector<std::string> parts;
  if (r.cpu_milli != 0) {
    parts.push_back("cpu=" + dim(r.cpu_milli, true));
  }
  if (r.memory != 0) {
    parts.push_back("memory=" + dim(r.memory, false));
  }
  if (r.ephemeral_storage != 0) {
    parts.push_back("ephemeral-storage=" + dim(r.ephemeral_storage, false));
  }
  if (r.pods != 0) {
    parts.push_back(fmt::format("pods={}", r.pods));
  }
  for (const auto& [name, v] : r.scalar) {
    parts.push_back(fmt::format("{}={}", name, v));
  }
  return parts.empty() ? "0" : fmt::format("{}", fmt::join(parts, " "));
}

}  // namespace kpreempt::policy::capacity
