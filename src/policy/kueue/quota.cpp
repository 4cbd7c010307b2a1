// SPDX-License-Identifier: Apache-2.0
// Quota arithmetic of Kueue v0.14.8 for flat cohorts (pkg/cache/scheduler/resource_node.go:
// available, potentialAvailable; pkg/workload/workload.go: usage of admitted workloads).
#include "policy/kueue/quota.h"

#include <algorithm>

namespace kpreempt::policy::kueue {
namespace {

std::int32_t spec_count(const model::Workload& w, const std::string& pod_set) {
  for (const auto& ps : w.pod_sets) {
    if (ps.name == pod_set) {
      return ps.count;
    }
  }
  return 0;
}

std::int32_t reclaimable(const model::Workload& w, const std::string& pod_set) {
  for (const auto& [name, count] : w.reclaimable_pods) {
    if (name == pod_set) {
      return count;
    }
  }
  return 0;
}

// Usage of one pod set assignment. Reclaimable pods shrink it: Kueue scales the recorded
// total down by integer division, per resource.
void add_assignment_usage(const model::Workload& w, const model::KueuePodSetAssignment& a,
                          Admitted& out) {
  std::int64_t spec = spec_count(w, a.name);
  std::int64_t c = a.count.value_or(static_cast<std::int32_t>(spec));
  std::int64_t r = spec - reclaimable(w, a.name);
  for (const auto& [res, q] : a.resource_usage) {
    std::int64_t v = model::kueue_amount(res, q);
    if (r < c && c > 0) {
      v = v / c * std::max<std::int64_t>(r, 0);
    }
    const std::string* flavor = model::find(a.flavors, res);
    out.usage[FR{flavor != nullptr ? *flavor : "", res}] += v;
  }
  for (const auto& [res, flavor] : a.flavors) {
    out.uses.insert(FR{flavor, res});
  }
}

}  // namespace

bool holds_quota(const model::Workload& w) {
  return model::condition_true(w, "QuotaReserved") && !model::condition_true(w, "Finished") &&
         w.admitted && !w.admission_cluster_queue.empty();
}

model::Instant queue_order_time(const model::Workload& w) {
  const model::KueueCondition* evicted = model::find_condition(w, "Evicted");
  if (evicted != nullptr && evicted->status == "True" &&
      (evicted->reason == "AdmissionCheck" || evicted->reason == "PodsReadyTimeout") &&
      evicted->last_transition_time) {
    return *evicted->last_transition_time;
  }
  return w.creation_timestamp.value_or(model::Instant{});
}

model::Instant quota_reserved_time(const model::Workload& w, model::Instant now) {
  const model::KueueCondition* c = model::find_condition(w, "QuotaReserved");
  if (c == nullptr || c->status != "True" || !c->last_transition_time) {
    return now;
  }
  return *c->last_transition_time;
}

QuotaModel::QuotaModel(const model::KueueObjects& k) {
  for (const model::ClusterQueue& cq : k.cluster_queues) {
    m_cqs.push_back(&cq);
    std::map<FR, Quota> quotas;
    std::string missing;
    for (const auto& group : cq.resource_groups) {
      for (const auto& flavor : group.flavors) {
        if (missing.empty() && model::find_flavor(k, flavor.name) == nullptr) {
          missing = "ResourceFlavor " + flavor.name + " does not exist";
        }
        for (const auto& q : flavor.resources) {
          auto amount = [&](const std::optional<model::Quantity>& v) {
            return v ? std::optional(model::kueue_amount(q.resource, *v)) : std::nullopt;
          };
          Quota& out = quotas[FR{flavor.name, q.resource}];
          out.nominal = model::kueue_amount(q.resource, q.nominal);
          out.borrowing_limit = amount(q.borrowing_limit);
          out.lending_limit = amount(q.lending_limit);
        }
      }
    }
    m_quotas.push_back(std::move(quotas));
    bool stopped = cq.stop_policy != "None" && !cq.stop_policy.empty();
    m_active.push_back(!stopped && missing.empty());
    m_inactive_reason.push_back(stopped ? "stopPolicy is " + cq.stop_policy : missing);
  }
  m_usage.resize(m_cqs.size());
  for (std::uint32_t i = 0; i < k.workloads.size(); ++i) {
    add_admitted(k, i);
  }
}

void QuotaModel::add_admitted(const model::KueueObjects& k, std::uint32_t index) {
  const model::Workload& w = k.workloads[index];
  if (!holds_quota(w)) {
    return;
  }
  std::optional<std::size_t> cq = find_cq(w.admission_cluster_queue);
  if (!cq) {
    return;
  }
  Admitted a{index, *cq, {}, {}};
  for (const auto& assignment : w.assignments) {
    add_assignment_usage(w, assignment, a);
  }
  add(a);
  m_admitted.push_back(std::move(a));
}

std::optional<std::size_t> QuotaModel::find_cq(std::string_view name) const {
  for (std::size_t i = 0; i < m_cqs.size(); ++i) {
    if (m_cqs[i]->name == name) {
      return i;
    }
  }
  return std::nullopt;
}

std::vector<std::size_t> QuotaModel::cohort_members(std::size_t i) const {
  std::vector<std::size_t> out;
  for (std::size_t j = 0; j < m_cqs.size(); ++j) {
    if (j == i || (has_cohort(i) && m_cqs[j]->cohort == m_cqs[i]->cohort)) {
      out.push_back(j);
    }
  }
  return out;
}

Quota QuotaModel::quota(std::size_t i, const FR& fr) const {
  auto it = m_quotas[i].find(fr);
  return it == m_quotas[i].end() ? Quota{} : it->second;
}

std::int64_t QuotaModel::usage(std::size_t i, const FR& fr) const {
  auto it = m_usage[i].find(fr);
  return it == m_usage[i].end() ? 0 : it->second;
}

std::int64_t QuotaModel::guaranteed(std::size_t i, const FR& fr) const {
  Quota q = quota(i, fr);
  return q.lending_limit ? std::max<std::int64_t>(0, q.nominal - *q.lending_limit) : 0;
}

std::int64_t QuotaModel::cohort_capacity(std::size_t i, const FR& fr) const {
  std::int64_t total = 0;
  for (std::size_t j : cohort_members(i)) {
    total += quota(j, fr).nominal - guaranteed(j, fr);
  }
  return total;
}

std::int64_t QuotaModel::cohort_used(std::size_t i, const FR& fr) const {
  std::int64_t total = 0;
  for (std::size_t j : cohort_members(i)) {
    total += std::max<std::int64_t>(0, usage(j, fr) - guaranteed(j, fr));
  }
  return total;
}

std::int64_t QuotaModel::available(std::size_t i, const FR& fr) const {
  Quota q = quota(i, fr);
  std::int64_t use = usage(i, fr);
  if (!has_cohort(i)) {
    return std::max<std::int64_t>(0, q.nominal - use);
  }
  std::int64_t g = guaranteed(i, fr);
  std::int64_t local_free = std::max<std::int64_t>(0, g - use);
  std::int64_t from_cohort = cohort_capacity(i, fr) - cohort_used(i, fr);
  if (q.borrowing_limit) {
    // What this queue stored in the cohort, minus what it already took, plus its limit.
    std::int64_t cap = (q.nominal - g) - std::max<std::int64_t>(0, use - g) + *q.borrowing_limit;
    from_cohort = std::min(from_cohort, cap);
  }
  return std::max<std::int64_t>(0, local_free + from_cohort);
}

std::int64_t QuotaModel::potential_max(std::size_t i, const FR& fr) const {
  Quota q = quota(i, fr);
  if (!has_cohort(i)) {
    return q.nominal;
  }
  std::int64_t out = guaranteed(i, fr) + cohort_capacity(i, fr);
  if (q.borrowing_limit) {
    out = std::min(out, q.nominal + *q.borrowing_limit);
  }
  return out;
}

bool QuotaModel::over_nominal(std::size_t i, const FRSet& frs) const {
  return std::any_of(frs.begin(), frs.end(),
                     [&](const FR& fr) { return usage(i, fr) > quota(i, fr).nominal; });
}

void QuotaModel::remove(const Admitted& a) {
  for (const auto& [fr, v] : a.usage) {
    m_usage[a.cq][fr] -= v;
  }
}

void QuotaModel::add(const Admitted& a) {
  for (const auto& [fr, v] : a.usage) {
    m_usage[a.cq][fr] += v;
  }
}

std::vector<FR> QuotaModel::listed_pairs(std::size_t i) const {
  std::vector<FR> out;
  for (const auto& group : m_cqs[i]->resource_groups) {
    for (const auto& flavor : group.flavors) {
      for (const auto& q : flavor.resources) {
        out.push_back(FR{flavor.name, q.resource});
      }
    }
  }
  return out;
}

}  // namespace kpreempt::policy::kueue
