// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity's required terms over a simulated node. Mirrors kubernetes/kubernetes
// pkg/scheduler/framework/plugins/interpodaffinity/filtering.go, release v1.34.
#include "policy/common/inter_pod_affinity.h"

#include "kpreempt/model/match.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::common {
namespace {

using Term = InterPodAffinity::Term;

bool term_matches(const Term& t, const model::Pod& pod) {
  const bool ns_ok =
      t.all_namespaces || (t.owner_namespace != nullptr && *t.owner_namespace == pod.namespace_) ||
      (t.namespaces != nullptr && std::find(t.namespaces->begin(), t.namespaces->end(),
                                            pod.namespace_) != t.namespaces->end());
  return ns_ok && model::matches(*t.selector, pod.labels);
}

bool has_namespace_selector(const model::PodAffinityTerm& t) {
  return t.namespace_selector && t.namespace_selector->present;
}

bool matches_all(const std::vector<Term>& terms, const model::Pod& pod) {
  return !terms.empty() && std::all_of(terms.begin(), terms.end(),
                                       [&](const Term& t) { return term_matches(t, pod); });
}

std::string pair_key(std::string_view key, std::string_view value) {
  std::string k(key);
  k += '\0';
  k += value;
  return k;
}

template <typename Map>
void bump(Map& m, const std::string& key, std::int64_t by) {
  auto [it, inserted] = m.try_emplace(key, 0);
  it->second += by;
  // Upstream deletes a pair whose count drops to zero; emptiness of the map matters below.
  if (it->second == 0) {
    m.erase(it);
  }
}

template <typename Map>
std::int64_t count(const Map& global, const Map& delta, const std::string& key) {
  auto g = global.find(key);
  auto d = delta.find(key);
  return (g == global.end() ? 0 : g->second) + (d == delta.end() ? 0 : d->second);
}

// Whether the map, after the simulated adds and removes, still holds an entry.
template <typename Map>
bool non_empty(const Map& global, const Map& delta) {
  std::int64_t size = static_cast<std::int64_t>(global.size());
  for (const auto& [key, by] : delta) {
    auto g = global.find(key);
    if (g == global.end()) {
      size += by != 0 ? 1 : 0;
    } else if (g->second + by == 0) {
      --size;
    }
  }
  return size > 0;
}

}  // namespace

// Namespaces of a term: the listed ones, plus those namespaceSelector selects. Without both,
// the owner's namespace. Namespace labels are not in a pod dump: `{}` selects every
// namespace, any other selector is taken to select none.
std::vector<Term> InterPodAffinity::terms_of(const model::Pod& owner,
                                             const std::vector<model::PodAffinityTerm>& terms) {
  std::vector<Term> out;
  out.reserve(terms.size());
  for (const model::PodAffinityTerm& t : terms) {
    Term r;
    r.selector = &t.label_selector;
    r.topology_key = t.topology_key;
    r.all_namespaces = has_namespace_selector(t) && model::empty(*t.namespace_selector);
    if (!t.namespaces.empty()) {
      r.namespaces = &t.namespaces;
    } else if (!has_namespace_selector(t)) {
      r.owner_namespace = &owner.namespace_.str();
    }
    out.push_back(r);
  }
  return out;
}

InterPodAffinity::InterPodAffinity(const model::Snapshot& snap, const model::Pod& preemptor,
                                   std::vector<std::string>& warnings)
    : m_snap(snap), m_pod(preemptor), m_warnings(warnings) {
  m_affinity_terms = terms_of(preemptor, preemptor.required_pod_affinity);
  m_anti_terms = terms_of(preemptor, preemptor.required_pod_anti_affinity);
  if (m_affinity_terms.empty() && m_anti_terms.empty()) {
    // Only existing pods' anti-affinity can count: the scheduler keeps those pods in a list.
    for (model::PodId p : snap.pods_with_required_anti_affinity()) {
      add_pod(snap.pods()[p], snap.nodes()[snap.facts(p).node], 1, m_existing, m_affinity, m_anti);
    }
  } else {
    for (model::NodeId id = 0; id < snap.nodes().size(); ++id) {
      for (model::PodId p : snap.pods_on(id)) {
        add_pod(snap.pods()[p], snap.nodes()[id], 1, m_existing, m_affinity, m_anti);
      }
    }
  }
  m_skipped = m_existing.empty() && m_affinity_terms.empty() && m_anti_terms.empty();
  warn_unknown_selectors();
}

void InterPodAffinity::warn_unknown_selectors() {
  auto warn = [&](const model::Pod& pod, const std::vector<model::PodAffinityTerm>& terms,
                  std::string_view what) {
    const bool unknown = std::any_of(terms.begin(), terms.end(), [](const auto& t) {
      return has_namespace_selector(t) && !model::empty(*t.namespace_selector);
    });
    if (unknown) {
      m_warnings.push_back(fmt::format(
          "Pod {}/{}: required pod {} uses a namespaceSelector; namespace labels are not "
          "loaded, so it is taken to select no namespace",
          pod.namespace_, pod.name, what));
    }
  };
  warn(m_pod, m_pod.required_pod_affinity, "affinity");
  warn(m_pod, m_pod.required_pod_anti_affinity, "anti-affinity");
  for (model::PodId p : m_snap.pods_with_required_anti_affinity()) {
    warn(m_snap.pods()[p], m_snap.pods()[p].required_pod_anti_affinity, "anti-affinity");
  }
}

// updateWithPod: one pod on `node` joins (by = 1) or leaves (by = -1) the counts.
void InterPodAffinity::add_pod(const model::Pod& pod, const model::Node& node, std::int64_t by,
                               Counts& existing, Counts& affinity, Counts& anti) const {
  if (!pod.required_pod_anti_affinity.empty()) {
    for (const Term& t : terms_of(pod, pod.required_pod_anti_affinity)) {
      const std::string* v = model::find(node.labels, t.topology_key);
      if (v != nullptr && term_matches(t, m_pod)) {
        bump(existing, pair_key(t.topology_key, *v), by);
      }
    }
  }
  if (matches_all(m_affinity_terms, pod)) {
    for (const Term& t : m_affinity_terms) {
      if (const std::string* v = model::find(node.labels, t.topology_key)) {
        bump(affinity, pair_key(t.topology_key, *v), by);
      }
    }
  }
  for (const Term& t : m_anti_terms) {
    const std::string* v = model::find(node.labels, t.topology_key);
    if (v != nullptr && term_matches(t, pod)) {
      bump(anti, pair_key(t.topology_key, *v), by);
    }
  }
}

bool InterPodAffinity::satisfies_affinity(const model::Node& node, const Counts& delta) const {
  bool pods_exist = true;
  for (const Term& t : m_affinity_terms) {
    const std::string* v = model::find(node.labels, t.topology_key);
    if (v == nullptr) {
      return false;  // every topology key must be on the node
    }
    if (count(m_affinity, delta, pair_key(t.topology_key, *v)) <= 0) {
      pods_exist = false;
    }
  }
  if (pods_exist) {
    return true;
  }
  // The first pod of a group with affinity to itself: allowed when no pod anywhere matches
  // the terms and the pod matches them itself.
  return !non_empty(m_affinity, delta) && matches_all(m_affinity_terms, m_pod);
}

bool InterPodAffinity::satisfies_anti_affinity(const model::Node& node, const Counts& delta) const {
  if (!non_empty(m_anti, delta)) {
    return true;
  }
  return std::none_of(m_anti_terms.begin(), m_anti_terms.end(), [&](const Term& t) {
    const std::string* v = model::find(node.labels, t.topology_key);
    return v != nullptr && count(m_anti, delta, pair_key(t.topology_key, *v)) > 0;
  });
}

bool InterPodAffinity::satisfies_existing(const model::Node& node, const Counts& delta) const {
  if (!non_empty(m_existing, delta)) {
    return true;
  }
  return std::none_of(node.labels.begin(), node.labels.end(), [&](const auto& kv) {
    return count(m_existing, delta, pair_key(kv.first, kv.second)) > 0;
  });
}

FilterStatus InterPodAffinity::filter(const NodeView& view) const {
  const model::Node& node = m_snap.nodes()[view.node];
  Counts existing, affinity, anti;
  for (model::PodId p : view.removed) {
    add_pod(m_snap.pods()[p], node, -1, existing, affinity, anti);
  }
  for (model::PodId p : view.added) {
    add_pod(m_snap.pods()[p], node, 1, existing, affinity, anti);
  }
  if (!m_affinity_terms.empty() && !satisfies_affinity(node, affinity)) {
    return {Code::unresolvable, "InterPodAffinity", "node(s) didn't match pod affinity rules"};
  }
  if (!satisfies_anti_affinity(node, anti)) {
    return {Code::unschedulable, "InterPodAffinity",
            "node(s) didn't match pod anti-affinity rules"};
  }
  if (!satisfies_existing(node, existing)) {
    return {Code::unschedulable, "InterPodAffinity",
            "node(s) didn't satisfy existing pods anti-affinity rules"};
  }
  return {};
}

}  // namespace kpreempt::policy::common
