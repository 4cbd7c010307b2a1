// SPDX-License-Identifier: Apache-2.0
// Chained test builders: model objects filled the way the loader would fill them.
#include "support/builders.h"

#include "kpreempt/diag.h"
#include "kpreempt/model/quantity.h"
#include "kpreempt/model/time.h"
#include "kpreempt/render/render.h"

#include <algorithm>
#include <stdexcept>

namespace kpreempt::testing {
namespace {

// StringMap and ResourceList stay sorted by key with unique keys.
template <typename Value, typename Given>
void put(std::vector<std::pair<model::Atom, Value>>& m, const std::string& key, Given v) {
  auto it = std::lower_bound(m.begin(), m.end(), key,
                             [](const auto& kv, const std::string& k) { return kv.first < k; });
  if (it != m.end() && it->first == key) {
    it->second = Value(std::move(v));
  } else {
    m.emplace(it, model::Atom(key), Value(std::move(v)));
  }
}

model::Quantity quantity(std::string_view text) {
  model::QuantityParse q = model::parse_quantity(text);
  if (!q.value) {
    throw std::invalid_argument("bad quantity \"" + std::string(text) + "\": " + q.error);
  }
  return *q.value;
}

std::pair<std::string, std::string> split_ref(std::string_view ns_name) {
  const auto slash = ns_name.find('/');
  if (slash == std::string_view::npos) {
    throw std::invalid_argument("expected ns/name, got \"" + std::string(ns_name) + "\"");
  }
  return {std::string(ns_name.substr(0, slash)), std::string(ns_name.substr(slash + 1))};
}

}  // namespace

model::Instant at(std::string_view rfc3339) {
  std::string err;
  auto t = model::parse_time(rfc3339, &err);
  if (!t) {
    throw std::invalid_argument("bad time \"" + std::string(rfc3339) + "\": " + err);
  }
  return *t;
}

model::LabelSelector selector(model::StringMap match_labels) {
  model::LabelSelector s;
  s.present = true;
  for (auto& [k, v] : match_labels) {
    put(s.match_labels, k, v);
  }
  return s;
}

model::PodAffinityTerm term(model::LabelSelector sel, std::string topology_key,
                            std::vector<std::string> namespaces) {
  model::PodAffinityTerm t;
  t.label_selector = std::move(sel);
  t.topology_key = std::move(topology_key);
  t.namespaces = std::move(namespaces);
  return t;
}

NodeBuilder::NodeBuilder(std::string name) {
  m_node.name = std::move(name);
  put(m_node.labels, std::string("kubernetes.io/hostname"), m_node.name);
  pods(110);
}

NodeBuilder& NodeBuilder::pods(std::int64_t n) {
  m_node.has_allocatable_pods = true;
  put(m_node.allocatable, std::string("pods"), model::Quantity::from_units(n));
  return *this;
}

NodeBuilder& NodeBuilder::no_pods_allocatable() {
  m_node.has_allocatable_pods = false;
  std::erase_if(m_node.allocatable, [](const auto& kv) { return kv.first == "pods"; });
  return *this;
}

NodeBuilder& NodeBuilder::resource(std::string_view name, std::string_view q) {
  put(m_node.allocatable, std::string(name), quantity(q));
  return *this;
}

NodeBuilder& NodeBuilder::label(std::string key, std::string value) {
  put(m_node.labels, std::move(key), std::move(value));
  return *this;
}

NodeBuilder& NodeBuilder::taint(std::string key, std::string value, std::string effect) {
  m_node.taints.push_back(model::Taint{std::move(key), std::move(value), std::move(effect)});
  return *this;
}

NodeBuilder& NodeBuilder::unschedulable() {
  m_node.unschedulable = true;
  return *this;
}

PodBuilder::PodBuilder(std::string_view ns_name) {
  std::tie(m_pod.namespace_, m_pod.name) = split_ref(ns_name);
  m_pod.uid = std::string(ns_name);
  m_pod.containers.push_back(model::Container{"app", {}, {}, false});
  m_pod.scheduler_name = "default-scheduler";
  pending();
}

PodBuilder& PodBuilder::on(std::string node) {
  m_pod.node_name = std::move(node);
  m_pod.phase = "Running";
  return *this;
}

PodBuilder& PodBuilder::pending() {
  m_pod.node_name.clear();
  m_pod.phase = "Pending";
  return *this;
}

PodBuilder& PodBuilder::priority(std::int32_t p) {
  m_pod.priority = p;
  return *this;
}

PodBuilder& PodBuilder::priority_class(std::string name) {
  m_pod.priority_class_name = std::move(name);
  return *this;
}

PodBuilder& PodBuilder::scheduler(std::string name) {
  m_pod.scheduler_name = std::move(name);
  return *this;
}

PodBuilder& PodBuilder::preemption_policy(std::string policy) {
  m_pod.preemption_policy = std::move(policy);
  return *this;
}

PodBuilder& PodBuilder::request(std::string_view name, std::string_view q) {
  put(m_pod.containers.front().requests, std::string(name), quantity(q));
  return *this;
}

PodBuilder& PodBuilder::label(std::string key, std::string value) {
  put(m_pod.labels, std::move(key), std::move(value));
  return *this;
}

PodBuilder& PodBuilder::owner(std::string kind, std::string name) {
  m_pod.owners.push_back({std::move(kind), std::move(name), "", true});
  return *this;
}

PodBuilder& PodBuilder::started(std::string_view rfc3339) {
  m_pod.start_time = at(rfc3339);
  return *this;
}

PodBuilder& PodBuilder::created(std::string_view rfc3339) {
  m_pod.creation_timestamp = at(rfc3339);
  return *this;
}

PodBuilder& PodBuilder::terminating(std::string_view since) {
  m_pod.deletion_timestamp = at(since);
  return *this;
}

PodBuilder& PodBuilder::condition(std::string type, std::string status, std::string reason) {
  m_pod.conditions.push_back(
      model::PodCondition{std::move(type), std::move(status), std::move(reason), std::nullopt});
  return *this;
}

PodBuilder& PodBuilder::preempted_by_scheduler() {
  terminating();
  return condition("DisruptionTarget", "True", "PreemptionByScheduler");
}

PodBuilder& PodBuilder::nominated(std::string node) {
  m_pod.nominated_node_name = std::move(node);
  return *this;
}

PodBuilder& PodBuilder::phase(std::string phase) {
  m_pod.phase = std::move(phase);
  return *this;
}

PodBuilder& PodBuilder::host_port(std::int32_t port, std::string protocol, std::string ip) {
  m_pod.containers.front().host_ports.push_back(
      model::HostPort{port, std::move(protocol), std::move(ip)});
  return *this;
}

PodBuilder& PodBuilder::toleration(std::string key, std::string op, std::string value,
                                   std::string effect) {
  m_pod.tolerations.push_back(
      model::Toleration{std::move(key), std::move(op), std::move(value), std::move(effect)});
  return *this;
}

PodBuilder& PodBuilder::node_selector(std::string key, std::string value) {
  put(m_pod.node_selector, std::move(key), std::move(value));
  return *this;
}

PodBuilder& PodBuilder::node_affinity(model::NodeSelectorTerm t) {
  m_pod.has_required_node_affinity = true;
  m_pod.required_node_affinity.push_back(std::move(t));
  return *this;
}

PodBuilder& PodBuilder::affinity(model::PodAffinityTerm t) {
  m_pod.required_pod_affinity.push_back(std::move(t));
  return *this;
}

PodBuilder& PodBuilder::anti_affinity(model::PodAffinityTerm t) {
  m_pod.required_pod_anti_affinity.push_back(std::move(t));
  return *this;
}

PodBuilder& PodBuilder::spread(model::TopologySpreadConstraint c) {
  m_pod.topology_spread.push_back(std::move(c));
  return *this;
}

model::Pod PodBuilder::build() const {
  return m_pod;
}

PdbBuilder::PdbBuilder(std::string_view ns_name) {
  std::tie(m_pdb.namespace_, m_pdb.name) = split_ref(ns_name);
  m_pdb.has_status = true;
}

PdbBuilder& PdbBuilder::match_label(std::string key, std::string value) {
  m_pdb.selector.present = true;
  put(m_pdb.selector.match_labels, std::move(key), std::move(value));
  return *this;
}

PdbBuilder& PdbBuilder::selector(model::LabelSelector sel) {
  m_pdb.selector = std::move(sel);
  return *this;
}

PdbBuilder& PdbBuilder::allowed(std::int32_t n) {
  m_pdb.disruptions_allowed = n;
  return *this;
}

PdbBuilder& PdbBuilder::disrupted(std::string pod_name) {
  auto& d = m_pdb.disrupted_pods;
  d.insert(std::upper_bound(d.begin(), d.end(), pod_name), std::move(pod_name));
  return *this;
}

NodeBuilder node(std::string name) {
  return NodeBuilder(std::move(name));
}
PodBuilder pod(std::string_view ns_name) {
  return PodBuilder(ns_name);
}
PdbBuilder pdb(std::string_view ns_name) {
  return PdbBuilder(ns_name);
}

model::PriorityClass priority_class(std::string name, std::int32_t value,
                                    std::string preemption_policy) {
  model::PriorityClass c;
  c.name = std::move(name);
  c.value = value;
  c.preemption_policy = std::move(preemption_policy);
  return c;
}

Cluster& Cluster::add(const NodeBuilder& n) {
  m_nodes.push_back(n.build());
  m_snapshot.reset();
  return *this;
}

Cluster& Cluster::add(const PodBuilder& p) {
  m_pods.push_back(p.build());
  m_snapshot.reset();
  return *this;
}

Cluster& Cluster::add(const PdbBuilder& b) {
  m_pdbs.push_back(b.build());
  m_snapshot.reset();
  return *this;
}

Cluster& Cluster::add(model::PriorityClass c) {
  m_classes.push_back(std::move(c));
  m_snapshot.reset();
  return *this;
}

Cluster& Cluster::config(std::string key, std::string value) {
  put(m_config, std::move(key), std::move(value));
  m_snapshot.reset();
  return *this;
}

const model::Snapshot& Cluster::snapshot() const {
  if (m_snapshot) {
    return *m_snapshot;
  }
  model::SnapshotBuilder b;
  for (const auto& c : m_classes) {
    b.add(c);
  }
  for (const auto& n : m_nodes) {
    b.add(n);
  }
  for (const auto& p : m_pods) {
    b.add(p);
  }
  for (const auto& d : m_pdbs) {
    b.add(d);
  }
  b.set(model::SchedulerConfig{m_config, {}, {}});
  std::vector<Diagnostic> diags;
  model::Snapshot snap = std::move(b).build(diags);
  for (const Diagnostic& d : diags) {
    if (d.severity == Severity::error) {
      throw std::runtime_error("snapshot: " + d.message);
    }
  }
  m_snapshot = std::make_shared<model::Snapshot>(std::move(snap));
  return *m_snapshot;
}

model::PodId Cluster::pod_id(std::string_view ns_name) const {
  const auto [ns, name] = split_ref(ns_name);
  auto id = snapshot().find_pod(ns, name);
  if (!id) {
    throw std::invalid_argument("no pod " + std::string(ns_name));
  }
  return *id;
}

policy::Decision Cluster::decide(DecideFn fn, std::string_view preemptor, std::string_view now,
                                 model::StringMap args) const {
  const policy::Args a(std::move(args));
  const policy::Input in{snapshot(), pod_id(preemptor), at(now), a};
  return fn(in);
}

std::vector<std::string> victim_names(const policy::Decision& d) {
  std::vector<std::string> out;
  for (const policy::Victim& v : d.victims) {
    out.push_back(v.ref.namespace_ + "/" + v.ref.name);
  }
  return out;
}

const policy::NodeVerdict* node_verdict(const policy::Decision& d, std::string_view node) {
  for (const policy::NodeVerdict& n : d.nodes) {
    if (n.node == node) {
      return &n;
    }
  }
  return nullptr;
}

std::string pod_code(const policy::Decision& d, std::string_view node, std::string_view ns_name) {
  const policy::NodeVerdict* n = node_verdict(d, node);
  if (n == nullptr) {
    return "";
  }
  for (const policy::PodVerdict& v : n->pods) {
    if (v.pod.namespace_ + "/" + v.pod.name == ns_name) {
      return render::reason_text(v.code);
    }
  }
  return "";
}

}  // namespace kpreempt::testing
