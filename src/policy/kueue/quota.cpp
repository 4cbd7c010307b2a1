// SPDX-License-Identifier: Apache-2.0
// Quota arithmetic of Kueue v0.14.8 and v0.19.2 over cohort trees
// (pkg/cache/scheduler/resource_node.go, cohort.go, snapshot.go; pkg/workload/workload.go:
// usage of admitted workloads). Sums saturate at the int64 limits as v0.19's amounts do.
#include "policy/kueue/quota.h"

#include <algorithm>
#include <limits>

namespace kpreempt::policy::kueue {
namespace {

constexpr std::int64_t k_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t k_min = std::numeric_limits<std::int64_t>::min();

std::int64_t add_sat(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  return __builtin_add_overflow(a, b, &out) ? (b > 0 ? k_max : k_min) : out;
}

std::int64_t sub_sat(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  return __builtin_sub_overflow(a, b, &out) ? (b < 0 ? k_max : k_min) : out;
}

std::int64_t get(const FRAmounts& m, const FR& fr) {
  auto it = m.find(fr);
  return it == m.end() ? 0 : it->second;
}

std::map<FR, Quota> quotas_of(const std::vector<model::KueueResourceGroup>& groups) {
  std::map<FR, Quota> out;
  for (const auto& group : groups) {
    for (const auto& flavor : group.flavors) {
      for (const auto& q : flavor.resources) {
        auto amount = [&](const std::optional<model::Quantity>& v) {
          return v ? std::optional(model::kueue_amount(q.resource, *v)) : std::nullopt;
        };
        Quota& quota = out[FR{flavor.name, q.resource}];
        quota.nominal = model::kueue_amount(q.resource, q.nominal);
        quota.borrowing_limit = amount(q.borrowing_limit);
        quota.lending_limit = amount(q.lending_limit);
      }
    }
  }
  return out;
}

std::string missing_flavor(const model::KueueObjects& k, const model::ClusterQueue& cq) {
  for (const auto& group : cq.resource_groups) {
    for (const auto& flavor : group.flavors) {
      if (model::find_flavor(k, flavor.name) == nullptr) {
        return "ResourceFlavor " + flavor.name + " does not exist";
      }
    }
  }
  return "";
}

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

model::Instant quota_reserved_time(const model::Workload& w, model::Instant now) {
  const model::KueueCondition* c = model::find_condition(w, "QuotaReserved");
  if (c == nullptr || c->status != "True" || !c->last_transition_time) {
    return now;
  }
  return *c->last_transition_time;
}

QuotaModel::QuotaModel(const model::KueueObjects& k) {
  add_cluster_queues(k);
  add_cohorts(k);
  cut_cycles();
  link_children();
  sum_subtrees();
  find_roots();
  for (std::uint32_t i = 0; i < k.workloads.size(); ++i) {
    add_admitted(k, i);
  }
}

void QuotaModel::add_cluster_queues(const model::KueueObjects& k) {
  for (const model::ClusterQueue& cq : k.cluster_queues) {
    m_cqs.push_back(&cq);
    m_nodes.push_back(
        Node{cq.name, std::nullopt, {}, {}, quotas_of(cq.resource_groups), {}, {}, 0});
    std::string missing = missing_flavor(k, cq);
    bool stopped = cq.stop_policy != "None" && !cq.stop_policy.empty();
    m_active.push_back(!stopped && missing.empty());
    m_inactive_reason.push_back(stopped ? "stopPolicy is " + cq.stop_policy : missing);
  }
}

std::size_t QuotaModel::cohort_node(const std::string& name) {
  auto [it, added] = m_cohort_index.try_emplace(name, m_nodes.size());
  if (added) {
    m_nodes.push_back(Node{name, std::nullopt, {}, {}, {}, {}, {}, 0});
  }
  return it->second;
}

// Cohort objects first, in input order, then the cohorts only named by a parentName or a
// ClusterQueue: those are roots without quota. The first object of a name wins.
void QuotaModel::add_cohorts(const model::KueueObjects& k) {
  std::vector<const model::KueueCohort*> objects;
  for (const model::KueueCohort& c : k.cohorts) {
    std::size_t before = m_nodes.size();
    if (std::size_t n = cohort_node(c.name); n == before) {
      m_nodes[n].quotas = quotas_of(c.resource_groups);
      objects.push_back(&c);
    }
  }
  for (const model::KueueCohort* c : objects) {
    if (!c->parent.empty()) {
      std::size_t parent = cohort_node(c->parent);
      m_nodes[cohort_node(c->name)].parent = parent;
    }
  }
  for (std::size_t i = 0; i < m_cqs.size(); ++i) {
    if (!m_cqs[i]->cohort.empty()) {
      m_nodes[i].parent = cohort_node(m_cqs[i]->cohort);
    }
  }
}

// hierarchy.HasCycle: a cohort whose parents lead into a loop. Upstream's snapshot leaves such
// cohorts out and holds every ClusterQueue below one inactive. Each chain of parents is walked
// once: every cohort on it shares the answer of where the chain ends.
void QuotaModel::cut_cycles() {
  enum class State : std::uint8_t { unknown, on_path, acyclic, cyclic };
  std::vector<State> state(m_nodes.size(), State::unknown);
  std::vector<std::size_t> path;
  for (std::size_t c = m_cqs.size(); c < m_nodes.size(); ++c) {
    std::optional<std::size_t> n = c;
    while (n && state[*n] == State::unknown) {
      state[*n] = State::on_path;
      path.push_back(*n);
      n = m_nodes[*n].parent;
    }
    State end = !n || state[*n] == State::acyclic ? State::acyclic : State::cyclic;
    for (std::size_t p : path) {
      state[p] = end;
    }
    path.clear();
  }
  for (std::size_t n = 0; n < m_nodes.size(); ++n) {
    std::optional<std::size_t> parent = m_nodes[n].parent;
    if (parent && state[*parent] == State::cyclic) {
      if (is_cq(n)) {
        m_active[n] = false;
        m_inactive_reason[n] = "the parents of cohort " + m_nodes[*parent].name + " form a cycle";
      }
      m_nodes[n].parent.reset();
    }
  }
}

// Only what upstream's snapshot holds is a child: inactive ClusterQueues still lend their
// quota and count their usage, but are neither candidates nor part of a cohort's height.
void QuotaModel::link_children() {
  for (std::size_t n = 0; n < m_nodes.size(); ++n) {
    if (std::optional<std::size_t> parent = m_nodes[n].parent) {
      if (!is_cq(n)) {
        m_nodes[*parent].child_cohorts.push_back(n);
      } else if (m_active[n]) {
        m_nodes[*parent].child_cqs.push_back(n);
      }
    }
  }
}

// updateCohortResourceNode, children before parents (deepest first) so that deep trees need
// no recursion: a node's subtree quota is its nominal plus what each child lends it.
void QuotaModel::sum_subtrees() {
  std::vector<std::optional<std::size_t>> depth(m_nodes.size());
  std::vector<std::size_t> path;
  for (std::size_t n = 0; n < m_nodes.size(); ++n) {
    std::optional<std::size_t> p = n;
    for (; p && !depth[*p]; p = m_nodes[*p].parent) {
      path.push_back(*p);
    }
    std::size_t d = p ? *depth[*p] + 1 : 0;  // below a node already measured, or a root
    for (auto it = path.rbegin(); it != path.rend(); ++it, ++d) {
      depth[*it] = d;
    }
    path.clear();
  }
  std::vector<std::size_t> order(m_nodes.size());
  for (std::size_t n = 0; n < order.size(); ++n) {
    order[n] = n;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return *depth[a] > *depth[b]; });
  for (std::size_t n : order) {
    Node& node = m_nodes[n];
    for (const auto& [fr, q] : node.quotas) {
      node.subtree[fr] = add_sat(node.subtree[fr], q.nominal);
    }
    if (!is_cq(n) && (!node.child_cqs.empty() || !node.child_cohorts.empty())) {
      node.height = std::max(node.height, 1);  // its child cohorts have raised it already
    }
    if (!node.parent) {
      continue;
    }
    Node& parent = m_nodes[*node.parent];
    for (const auto& [fr, v] : node.subtree) {
      parent.subtree[fr] = add_sat(parent.subtree[fr], sub_sat(v, local_quota(n, fr)));
    }
    if (!is_cq(n)) {
      parent.height = std::max(parent.height, node.height + 1);
    }
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

std::vector<std::size_t> QuotaModel::ancestors(std::size_t node) const {
  std::vector<std::size_t> out;
  for (std::optional<std::size_t> p = m_nodes[node].parent; p; p = m_nodes[*p].parent) {
    out.push_back(*p);
  }
  return out;
}

// Once per node, each chain of parents walked once, so that the tree questions below stay
// linear in the tree's size however deep it is.
void QuotaModel::find_roots() {
  constexpr std::size_t k_unknown = std::numeric_limits<std::size_t>::max();
  m_root.assign(m_nodes.size(), k_unknown);
  std::vector<std::size_t> path;
  for (std::size_t n = 0; n < m_nodes.size(); ++n) {
    std::size_t at = n;
    while (m_root[at] == k_unknown && m_nodes[at].parent) {
      path.push_back(at);
      at = *m_nodes[at].parent;
    }
    const std::size_t top = m_root[at] == k_unknown ? at : m_root[at];
    m_root[at] = top;
    for (std::size_t p : path) {
      m_root[p] = top;
    }
    path.clear();
  }
}

std::vector<std::size_t> QuotaModel::tree_cqs(std::size_t i) const {
  std::vector<std::size_t> out;
  std::size_t r = root(i);
  for (std::size_t j = 0; j < m_cqs.size(); ++j) {
    if (j == i || (has_parent(j) && root(j) == r)) {
      out.push_back(j);
    }
  }
  return out;
}

std::vector<std::size_t> QuotaModel::tree_cohorts(std::size_t i) const {
  std::vector<std::size_t> out = ancestors(i);
  if (out.empty()) {
    return out;
  }
  std::vector<bool> listed(m_nodes.size(), false);
  for (std::size_t a : out) {
    listed[a] = true;
  }
  for (std::size_t c = m_cqs.size(); c < m_nodes.size(); ++c) {
    if (root(c) == out.back() && !listed[c]) {
      out.push_back(c);
    }
  }
  return out;
}

bool QuotaModel::hierarchical(std::size_t i) const {
  std::vector<std::size_t> cohorts = tree_cohorts(i);
  return cohorts.size() > 1 || std::any_of(cohorts.begin(), cohorts.end(), [&](std::size_t c) {
           return !m_nodes[c].quotas.empty();
         });
}

Quota QuotaModel::quota(std::size_t node, const FR& fr) const {
  auto it = m_nodes[node].quotas.find(fr);
  return it == m_nodes[node].quotas.end() ? Quota{} : it->second;
}

std::int64_t QuotaModel::subtree_quota(std::size_t node, const FR& fr) const {
  return get(m_nodes[node].subtree, fr);
}

std::int64_t QuotaModel::local_quota(std::size_t node, const FR& fr) const {
  std::optional<std::int64_t> ll = quota(node, fr).lending_limit;
  return ll ? std::max<std::int64_t>(0, sub_sat(subtree_quota(node, fr), *ll)) : 0;
}

std::int64_t QuotaModel::usage(std::size_t node, const FR& fr) const {
  return get(m_nodes[node].usage, fr);
}

std::int64_t QuotaModel::local_available(std::size_t node, const FR& fr) const {
  return std::max<std::int64_t>(0, sub_sat(local_quota(node, fr), usage(node, fr)));
}

// available: the root's unused subtree quota, then down the path each node adds its unused
// local quota and caps what it takes from above by its borrowing limit.
std::int64_t QuotaModel::available(std::size_t i, const FR& fr) const {
  std::vector<std::size_t> path = ancestors(i);
  path.insert(path.begin(), i);
  std::size_t top = path.back();
  std::int64_t avail = sub_sat(subtree_quota(top, fr), usage(top, fr));
  for (std::size_t k = path.size() - 1; k-- > 0;) {
    std::size_t n = path[k];
    if (std::optional<std::int64_t> bl = quota(n, fr).borrowing_limit) {
      std::int64_t lq = local_quota(n, fr);
      std::int64_t stored = sub_sat(subtree_quota(n, fr), lq);
      std::int64_t used = std::max<std::int64_t>(0, sub_sat(usage(n, fr), lq));
      avail = std::min(avail, add_sat(sub_sat(stored, used), *bl));
    }
    avail = add_sat(local_available(n, fr), avail);
  }
  return std::max<std::int64_t>(0, avail);
}

std::int64_t QuotaModel::potential_max(std::size_t i, const FR& fr) const {
  std::vector<std::size_t> path = ancestors(i);
  path.insert(path.begin(), i);
  std::int64_t avail = subtree_quota(path.back(), fr);
  for (std::size_t k = path.size() - 1; k-- > 0;) {
    std::size_t n = path[k];
    avail = add_sat(local_quota(n, fr), avail);
    if (std::optional<std::int64_t> bl = quota(n, fr).borrowing_limit) {
      avail = std::min(avail, add_sat(subtree_quota(n, fr), *bl));
    }
  }
  return avail;
}

bool QuotaModel::borrows_with(std::size_t node, const FR& fr, std::int64_t v) const {
  return add_sat(usage(node, fr), v) > subtree_quota(node, fr);
}

bool QuotaModel::within_nominal(std::size_t node, const FRSet& frs) const {
  return std::none_of(frs.begin(), frs.end(),
                      [&](const FR& fr) { return borrows_with(node, fr, 0); });
}

bool QuotaModel::fits_in_quota(std::size_t node, const FRAmounts& requests,
                               FRAmounts& remaining) const {
  bool fits = true;
  FRAmounts rest;
  for (const auto& [fr, v] : requests) {
    fits = fits && !borrows_with(node, fr, v);
    rest[fr] = std::max<std::int64_t>(0, sub_sat(v, local_available(node, fr)));
  }
  remaining = std::move(rest);
  return fits;
}

// FindHeightOfLowestSubtreeThatFits: what the queue's own unused quota leaves of the request
// goes up, each cohort taking what its own local quota has free, until a subtree holds it.
SubtreeFit QuotaModel::lowest_subtree_that_fits(std::size_t i, const FR& fr, std::int64_t v) const {
  if (!has_parent(i) || !borrows_with(i, fr, v)) {
    return {0, has_parent(i)};
  }
  std::int64_t rest = sub_sat(v, local_available(i, fr));
  std::vector<std::size_t> up = ancestors(i);
  for (std::size_t a : up) {
    if (!borrows_with(a, fr, rest)) {
      return {m_nodes[a].height, has_parent(a)};
    }
    rest = sub_sat(rest, local_available(a, fr));
  }
  return {m_nodes[up.back()].height, false};
}

// addUsage: a node passes up the part of the usage its unused local quota cannot hold.
void QuotaModel::add_usage(std::size_t node, const FR& fr, std::int64_t v) {
  for (std::optional<std::size_t> n = node; n; n = m_nodes[*n].parent) {
    std::int64_t free = local_available(*n, fr);
    m_nodes[*n].usage[fr] = add_sat(usage(*n, fr), v);
    if (v <= free) {
      return;
    }
    v = sub_sat(v, free);
  }
}

// removeUsage: a node gives back to its parent at most what it had stored there.
void QuotaModel::remove_usage(std::size_t node, const FR& fr, std::int64_t v) {
  for (std::optional<std::size_t> n = node; n; n = m_nodes[*n].parent) {
    std::int64_t stored = sub_sat(usage(*n, fr), local_quota(*n, fr));
    m_nodes[*n].usage[fr] = sub_sat(usage(*n, fr), v);
    if (stored <= 0) {
      return;
    }
    v = std::min(v, stored);
  }
}

void QuotaModel::remove(const Admitted& a) {
  for (const auto& [fr, v] : a.usage) {
    remove_usage(a.cq, fr, v);
  }
}

void QuotaModel::add(const Admitted& a) {
  for (const auto& [fr, v] : a.usage) {
    add_usage(a.cq, fr, v);
  }
}

std::vector<FR> QuotaModel::subtree_pairs(std::size_t node) const {
  std::vector<FR> out;
  for (const auto& [fr, v] : m_nodes[node].subtree) {
    out.push_back(fr);
  }
  return out;
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
