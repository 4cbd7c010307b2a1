// SPDX-License-Identifier: Apache-2.0
// The quota tree, pod -> quota and the per-quota counters. Mirrors koordinator-sh/koordinator
// pkg/scheduler/plugins/elasticquota/plugin_helper.go (GetQuotaName,
// getPodAssociateQuotaName) and core/group_quota_manager.go
// (recursiveUpdateGroupTreeWithDeltaRequest), commit a7a1b76bbf81 (v1.8.0-61).
#include "policy/koordinator/quota.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::koordinator {
namespace {

bool is_builtin(std::string_view name) {
  return name == model::k_koord_root_quota || name == model::k_koord_default_quota ||
         name == model::k_koord_system_quota;
}

}  // namespace

QuotaModel::QuotaModel(const model::Snapshot& snap, const KoordArgs& args)
    : m_snap(snap), m_args(args) {
  build_nodes();
  count_pods();
  QuotaNode& root = m_nodes.at(std::string(model::k_koord_root_quota));
  sum_requests(root);
  // The root's children share the cluster minus what the built-in quotas use
  // (totalResourceExceptSystemAndDefaultUsed).
  ResVec total;
  for (const model::Node& n : snap.nodes()) {
    total = add(total, mask(to_vec(n.allocatable), m_keys));
  }
  for (std::string_view b : {model::k_koord_default_quota, model::k_koord_system_quota}) {
    for (const auto& [name, v] : m_nodes.at(std::string(b)).used) {
      if (m_keys.contains(name)) {
        total[name] -= v;
      }
    }
  }
  m_total = total;
  compute_runtime(root, total);
}

void QuotaModel::build_nodes() {
  auto builtin = [&](std::string_view name, std::string_view parent, const ResVec& max) {
    QuotaNode q;
    q.name = name;
    q.parent = parent;
    q.builtin = true;
    q.max = max;
    m_nodes.emplace(q.name, std::move(q));
  };
  builtin(model::k_koord_root_quota, "", {});
  builtin(model::k_koord_default_quota, model::k_koord_root_quota, m_args.default_quota_max);
  builtin(model::k_koord_system_quota, model::k_koord_root_quota, m_args.system_quota_max);
  for (const model::KoordElasticQuota& eq : m_snap.koordinator().quotas) {
    if (is_builtin(eq.name) || m_nodes.contains(eq.name)) {
      continue;  // built-ins keep the args' limits; duplicates: the first object wins
    }
    QuotaNode q;
    q.name = eq.name;
    q.parent = eq.parent.empty() ? std::string(model::k_koord_root_quota) : eq.parent;
    q.object = &eq;
    q.allow_lent = eq.allow_lent_resource;
    q.min = to_vec(eq.min);
    q.max = to_vec(eq.max);
    q.shared_weight = to_vec(eq.shared_weight);
    if (std::all_of(q.shared_weight.begin(), q.shared_weight.end(),
                    [](const auto& kv) { return kv.second == 0; })) {
      q.shared_weight = q.max;  // absent or all-zero weight: the max is the weight
    }
    for (const auto& kv : q.max) {
      m_keys[kv.first] = 0;
    }
    if (!eq.tree_id.empty()) {
      m_warnings.push_back(fmt::format(
          "ElasticQuota {}: tree-id {:?} is not modelled; the quota is placed in the default tree",
          eq.name, eq.tree_id));
    }
    m_nodes.emplace(q.name, std::move(q));
  }
  for (auto& [name, q] : m_nodes) {
    // The built-in quotas stay out of the root's redistribution.
    if (q.parent.empty() || q.builtin) {
      continue;
    }
    if (!m_nodes.contains(q.parent) || q.parent == model::k_koord_default_quota ||
        q.parent == model::k_koord_system_quota) {
      m_warnings.push_back(
          fmt::format("ElasticQuota {}: parent {:?} is not a quota; treated as a child of {}", name,
                      q.parent, model::k_koord_root_quota));
      q.parent = model::k_koord_root_quota;
    }
    m_nodes.at(q.parent).children.push_back(name);  // m_nodes is sorted: children by name
  }
}

std::string QuotaModel::resolve(const model::Pod& pod) const {
  std::string name;
  if (const std::string* l = model::find(pod.labels, "quota.scheduling.koordinator.sh/name")) {
    name = *l;
  }
  const auto& quotas = m_snap.koordinator().quotas;
  if (name.empty()) {
    // An ElasticQuota named after the namespace and living in it, then the first one whose
    // namespaces annotation lists the namespace.
    for (const model::KoordElasticQuota& q : quotas) {
      if (q.name == pod.namespace_ && q.namespace_ == pod.namespace_) {
        name = q.name;
        break;
      }
    }
  }
  if (name.empty()) {
    for (const model::KoordElasticQuota& q : quotas) {
      if (std::find(q.namespaces.begin(), q.namespaces.end(), pod.namespace_) !=
          q.namespaces.end()) {
        name = q.name;
        break;
      }
    }
  }
  if (name.empty() || !m_nodes.contains(name) || name == model::k_koord_root_quota) {
    return std::string(model::k_koord_default_quota);
  }
  return name;
}

void QuotaModel::count_pods() {
  const auto& pods = m_snap.pods();
  m_pod_quota.resize(pods.size());
  for (model::PodId id = 0; id < pods.size(); ++id) {
    const model::Pod& p = pods[id];
    m_pod_quota[id] = resolve(p);
    if (p.terminal()) {
      continue;  // terminating pods still count; finished ones do not
    }
    QuotaNode& q = m_nodes.at(m_pod_quota[id]);
    q.pods.push_back(id);
    const ResVec req = masked_request(id, q);
    q.request = add(q.request, req);
    if (!p.node_name.empty()) {
      q.used = add(q.used, req);
      if (non_preemptible(p)) {
        q.non_preemptible_used = add(q.non_preemptible_used, req);
      }
    }
  }
}

// Post-order: a parent's request is the sum of its children's limited requests. A quota that
// does not lend its min asks for at least its min.
void QuotaModel::sum_requests(QuotaNode& q) {
  for (const std::string& c : q.children) {
    QuotaNode& child = m_nodes.at(c);
    sum_requests(child);
    q.request = add(q.request, child.limited_request);
    q.used = add(q.used, child.used);
  }
  if (!q.allow_lent) {
    for (const auto& [name, v] : q.min) {
      q.request[name] = std::max(q.request[name], v);
    }
  }
  q.limited_request = q.request;
  for (auto& [name, v] : q.limited_request) {
    if (auto it = q.max.find(name); it != q.max.end()) {
      v = std::min(v, it->second);
    }
  }
}

const QuotaNode* QuotaModel::find(std::string_view name) const {
  auto it = m_nodes.find(std::string(name));
  return it == m_nodes.end() ? nullptr : &it->second;
}

ResVec QuotaModel::masked_request(model::PodId pod, const QuotaNode& q) const {
  return mask(to_vec(m_snap.facts(pod).requests), q.max);
}

std::optional<ResVec> QuotaModel::limit(const QuotaNode& q) const {
  if (m_args.enable_runtime_quota) {
    return q.runtime;
  }
  return q.max;
}

std::vector<const QuotaNode*> QuotaModel::path(std::string_view name) const {
  std::vector<const QuotaNode*> out;
  for (const QuotaNode* q = find(name); q != nullptr && q->name != model::k_koord_root_quota;
       q = find(q->parent)) {
    out.push_back(q);
    if (out.size() > m_nodes.size()) {
      break;  // a parent cycle in the input
    }
  }
  return out;
}

}  // namespace kpreempt::policy::koordinator
