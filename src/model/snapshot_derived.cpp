// SPDX-License-Identifier: Apache-2.0
// Tables derived from a snapshot's objects once, for the policies that would otherwise
// recompute them for every preemptor: per-node sums, the node-name order, the pods with
// required anti-affinity, and which budgets select which pod.
#include "kpreempt/model/match.h"
#include "kpreempt/model/snapshot.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string_view>
#include <thread>
#include <unordered_map>

namespace kpreempt::model {
namespace {

bool has_negative(const Resources& r) {
  return r.cpu_milli < 0 || r.memory < 0 || r.ephemeral_storage < 0 ||
         std::any_of(r.scalar.begin(), r.scalar.end(),
                     [](const auto& kv) { return kv.second < 0; });
}

// A saturated sum stops at the int64 maximum; one that merely reaches it is treated alike.
bool has_saturated(const Resources& r) {
  constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
  return r.cpu_milli == max || r.memory == max || r.ephemeral_storage == max ||
         std::any_of(r.scalar.begin(), r.scalar.end(),
                     [](const auto& kv) { return kv.second == max; });
}

NodeFacts sum_node(const Node& node, std::span<const PodId> pods,
                   const std::vector<PodFacts>& facts) {
  NodeFacts out;
  out.allocatable = to_resources(node.allocatable);
  if (!node.has_allocatable_pods) {
    out.allocatable.pods = 0;
  }
  for (PodId p : pods) {
    out.requested.add(facts[p].requests);
    out.requested_exact = out.requested_exact && !has_negative(facts[p].requests);
  }
  out.requested_exact = out.requested_exact && !has_saturated(out.requested);
  return out;
}

bool selects_pods(const PodDisruptionBudget& b) {
  return b.selector_valid && b.selector.present && !empty(b.selector);
}

// The budgets that can select each pod, found from the pod's labels rather than tried one by
// one (a namespace can hold hundreds). A selector with matchLabels selects only pods that carry
// its first label, key and value: the budget is filed under that pair of atoms, and a pod looks
// up its own labels. Budgets with matchExpressions alone are tried on every pod.
class BudgetIndex {
 public:
  explicit BudgetIndex(const std::vector<PodDisruptionBudget>& pdbs) : m_pdbs(pdbs) {
    for (std::uint32_t i = 0; i < pdbs.size(); ++i) {
      if (!selects_pods(pdbs[i])) {
        continue;
      }
      Namespace& ns = m_namespaces[pdbs[i].namespace_];
      const StringMap& labels = pdbs[i].selector.match_labels;
      if (labels.empty()) {
        ns.always.push_back(i);
      } else {
        ns.by_label[Label{labels.front().first, labels.front().second}].push_back(i);
      }
    }
  }

  // Appends the budgets selecting `pod` to `ids`, in input order, then the new end to `offsets`.
  void add_budgets_of(const Pod& pod, std::vector<std::uint32_t>& ids,
                      std::vector<std::uint32_t>& offsets) const {
    const auto it = m_namespaces.find(pod.namespace_.view());
    // A pod without labels matches no selector that is not empty.
    if (!pod.labels.empty() && it != m_namespaces.end()) {
      const std::size_t first = ids.size();
      const Namespace& ns = it->second;
      add_matching(ns.always, pod, ids);
      for (const auto& [key, value] : pod.labels) {
        if (const auto b = ns.by_label.find(Label{key, value}); b != ns.by_label.end()) {
          add_matching(b->second, pod, ids);
        }
      }
      std::sort(ids.begin() + static_cast<std::ptrdiff_t>(first), ids.end());
    }
    offsets.push_back(static_cast<std::uint32_t>(ids.size()));
  }

 private:
  struct Label {
    Atom key, value;
    friend bool operator==(const Label&, const Label&) = default;
  };
  struct LabelHash {
    std::size_t operator()(const Label& l) const noexcept {
      const auto k = reinterpret_cast<std::uintptr_t>(l.key.identity());
      const auto v = reinterpret_cast<std::uintptr_t>(l.value.identity());
      return std::hash<std::uintptr_t>{}(k * 31 + v);
    }
  };
  struct Namespace {
    std::vector<std::uint32_t> always;
    std::unordered_map<Label, std::vector<std::uint32_t>, LabelHash> by_label;
  };

  void add_matching(const std::vector<std::uint32_t>& budgets, const Pod& pod,
                    std::vector<std::uint32_t>& ids) const {
    for (std::uint32_t b : budgets) {
      if (matches(m_pdbs[b].selector, pod.labels)) {
        ids.push_back(b);
      }
    }
  }

  const std::vector<PodDisruptionBudget>& m_pdbs;
  std::unordered_map<std::string_view, Namespace> m_namespaces;
};

}  // namespace

std::span<const std::uint32_t> Snapshot::pdbs_of(PodId id) const {
  const std::vector<std::uint32_t>& at = m_derived.pdb_offsets;
  return std::span<const std::uint32_t>(m_derived.pdb_ids).subspan(at[id], at[id + 1] - at[id]);
}

void Snapshot::derive() {
  Derived d;
  d.node_facts.reserve(m_nodes.size());
  for (NodeId id = 0; id < m_nodes.size(); ++id) {
    d.node_facts.push_back(sum_node(m_nodes[id], m_pods_on[id], m_facts));
    for (PodId p : m_pods_on[id]) {
      if (!m_pods[p].required_pod_anti_affinity.empty()) {
        d.anti_affinity_pods.push_back(p);
      }
    }
  }
  d.nodes_by_name.resize(m_nodes.size());
  std::iota(d.nodes_by_name.begin(), d.nodes_by_name.end(), NodeId{0});
  std::sort(d.nodes_by_name.begin(), d.nodes_by_name.end(),
            [&](NodeId a, NodeId b) { return m_nodes[a].name < m_nodes[b].name; });

  const BudgetIndex budgets(m_pdbs);
  d.pdb_offsets.reserve(m_pods.size() + 1);
  d.pdb_offsets.push_back(0);
  for (const Pod& pod : m_pods) {
    budgets.add_budgets_of(pod, d.pdb_ids, d.pdb_offsets);
  }
  m_derived = std::move(d);
}

void Snapshot::derive_added(PodId first) {
  const BudgetIndex budgets(m_pdbs);
  std::vector<NodeId> touched;
  for (PodId p = first; p < m_pods.size(); ++p) {
    budgets.add_budgets_of(m_pods[p], m_derived.pdb_ids, m_derived.pdb_offsets);
    // On its node's list (index_pod): bound to a node of the dump, and not finished.
    if (m_facts[p].node != k_none && !m_pods[p].terminal()) {
      touched.push_back(m_facts[p].node);
    }
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (NodeId n : touched) {
    rederive_node(n);
  }
  m_derived.requests.forget();
}

std::shared_ptr<const ResizedRequests> Snapshot::RequestsMemo::get(
    const RequestRules& rules, const std::function<std::shared_ptr<ResizedRequests>()>& make) {
  const std::lock_guard lock(m_mutex);
  for (const auto& [r, value] : m_entries) {
    if (r == rules) {
      return value;
    }
  }
  std::shared_ptr<const ResizedRequests> value = make();
  m_entries.emplace_back(rules, value);
  return value;
}

void Snapshot::RequestsMemo::forget() {
  const std::lock_guard lock(m_mutex);
  m_entries.clear();
}

std::shared_ptr<const ResizedRequests> Snapshot::resized_requests(const RequestRules& rules) const {
  return m_derived.requests.get(rules, [&] {
    // The pods in two halves, one on another core; each half's list stays in pod order.
    const PodId middle = static_cast<PodId>(m_pods.size() / 2);
    ResizedRequests second;
    std::jthread other([&] { second = differing_requests(middle, m_pods.size(), rules); });
    auto out = std::make_shared<ResizedRequests>(differing_requests(0, middle, rules));
    other.join();
    out->insert(out->end(), std::make_move_iterator(second.begin()),
                std::make_move_iterator(second.end()));
    return out;
  });
}

// The bound pods in [from, to) whose requests read by `rules` differ from their facts.
ResizedRequests Snapshot::differing_requests(PodId from, std::size_t to,
                                             const RequestRules& rules) const {
  ResizedRequests out;
  for (PodId p = from; p < to; ++p) {
    if (m_facts[p].node == k_none || reads_as_spec(m_pods[p], rules)) {
      continue;
    }
    Resources r = pod_requests(m_pods[p], rules);
    if (!(r == m_facts[p].requests)) {
      out.emplace_back(p, std::move(r));
    }
  }
  return out;
}

void Snapshot::rederive_node(NodeId id) {
  m_derived.node_facts[id] = sum_node(m_nodes[id], m_pods_on[id], m_facts);
  // The list is ordered node by node: the node's entries are replaced where they belong.
  std::vector<PodId>& list = m_derived.anti_affinity_pods;
  std::erase_if(list, [&](PodId p) { return m_facts[p].node == id || m_facts[p].node == k_none; });
  auto at = std::find_if(list.begin(), list.end(), [&](PodId p) { return m_facts[p].node > id; });
  std::vector<PodId> here;
  for (PodId p : m_pods_on[id]) {
    if (!m_pods[p].required_pod_anti_affinity.empty()) {
      here.push_back(p);
    }
  }
  list.insert(at, here.begin(), here.end());
}

}  // namespace kpreempt::model
