// SPDX-License-Identifier: Apache-2.0
// Chained builders for small clusters in tests:
//   Cluster{}.add(node("n1").cpu("4")).add(pod("ns/p").on("n1").priority(10).cpu("2"))
// build a model::Snapshot through model::SnapshotBuilder and run a policy on it.
#pragma once

#include "support/reasons.h"

#include "kpreempt/model/objects.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/policy.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::testing {

model::Instant at(std::string_view rfc3339);  // throws std::invalid_argument on bad text

// {{"app", "web"}} as a present selector with matchLabels; {} is the empty (match-all) one.
model::LabelSelector selector(model::StringMap match_labels);
model::PodAffinityTerm term(model::LabelSelector sel, std::string topology_key,
                            std::vector<std::string> namespaces = {});

class NodeBuilder {
 public:
  explicit NodeBuilder(std::string name);
  // Allocatable. Defaults: no cpu or memory, 110 pods (the kubelet default).
  NodeBuilder& cpu(std::string_view q) { return resource("cpu", q); }
  NodeBuilder& memory(std::string_view q) { return resource("memory", q); }
  NodeBuilder& pods(std::int64_t n);
  NodeBuilder& no_pods_allocatable();
  NodeBuilder& resource(std::string_view name, std::string_view q);
  NodeBuilder& label(std::string key, std::string value);
  NodeBuilder& taint(std::string key, std::string value, std::string effect = "NoSchedule");
  NodeBuilder& unschedulable();
  const model::Node& build() const { return m_node; }

 private:
  model::Node m_node;
};

class PodBuilder {
 public:
  explicit PodBuilder(std::string_view ns_name);  // "ns/name"
  PodBuilder& on(std::string node);               // bound, Running
  PodBuilder& pending();                          // the default: Pending, no node
  PodBuilder& priority(std::int32_t p);
  PodBuilder& priority_class(std::string name);
  PodBuilder& preemption_policy(std::string policy);  // "Never", "PreemptLowerPriority"
  PodBuilder& scheduler(std::string name);            // spec.schedulerName
  PodBuilder& cpu(std::string_view q) { return request("cpu", q); }
  PodBuilder& memory(std::string_view q) { return request("memory", q); }
  PodBuilder& request(std::string_view name, std::string_view q);
  PodBuilder& label(std::string key, std::string value);
  PodBuilder& owner(std::string kind, std::string name);  // the controller ownerReference
  PodBuilder& started(std::string_view rfc3339);
  PodBuilder& created(std::string_view rfc3339);  // metadata.creationTimestamp
  PodBuilder& terminating(std::string_view since = "2025-12-31T23:00:00Z");
  PodBuilder& condition(std::string type, std::string status, std::string reason = "");
  // Terminating with DisruptionTarget=True/PreemptionByScheduler, as a preempted pod is.
  PodBuilder& preempted_by_scheduler();
  PodBuilder& nominated(std::string node);
  PodBuilder& phase(std::string phase);
  PodBuilder& host_port(std::int32_t port, std::string protocol = "TCP", std::string ip = "");
  PodBuilder& toleration(std::string key, std::string op, std::string value = "",
                         std::string effect = "");
  PodBuilder& node_selector(std::string key, std::string value);
  // One required node affinity term (terms are ORed).
  PodBuilder& node_affinity(model::NodeSelectorTerm t);
  PodBuilder& affinity(model::PodAffinityTerm t);
  PodBuilder& anti_affinity(model::PodAffinityTerm t);
  PodBuilder& spread(model::TopologySpreadConstraint c);
  model::Pod build() const;

 private:
  model::Pod m_pod;
};

class PdbBuilder {
 public:
  explicit PdbBuilder(std::string_view ns_name);
  PdbBuilder& match_label(std::string key, std::string value);
  PdbBuilder& selector(model::LabelSelector sel);
  PdbBuilder& allowed(std::int32_t n);
  PdbBuilder& disrupted(std::string pod_name);
  const model::PodDisruptionBudget& build() const { return m_pdb; }

 private:
  model::PodDisruptionBudget m_pdb;
};

NodeBuilder node(std::string name);
PodBuilder pod(std::string_view ns_name);
PdbBuilder pdb(std::string_view ns_name);
model::PriorityClass priority_class(std::string name, std::int32_t value,
                                    std::string preemption_policy = "");

using DecideFn = policy::Decision (*)(const policy::Input&);

class Cluster {
 public:
  Cluster& add(const NodeBuilder& n);
  Cluster& add(const PodBuilder& p);
  Cluster& add(const PdbBuilder& b);
  Cluster& add(model::PriorityClass c);
  // A DefaultPreemption-style plugin arg as a KubeSchedulerConfiguration in the dump would give.
  Cluster& config(std::string key, std::string value);

  // Built on first use; throws std::runtime_error when the builder reports an error.
  const model::Snapshot& snapshot() const;
  model::PodId pod_id(std::string_view ns_name) const;  // throws when absent
  policy::Decision decide(DecideFn fn, std::string_view preemptor,
                          std::string_view now = "2026-01-01T00:00:00Z",
                          model::StringMap args = {}) const;

 private:
  std::vector<model::Node> m_nodes;
  std::vector<model::Pod> m_pods;
  std::vector<model::PodDisruptionBudget> m_pdbs;
  std::vector<model::PriorityClass> m_classes;
  model::StringMap m_config;
  mutable std::shared_ptr<model::Snapshot> m_snapshot;
};

// Looking things up in a Decision.
std::vector<std::string> victim_names(const policy::Decision& d);  // "ns/name", eviction order
const policy::NodeVerdict* node_verdict(const policy::Decision& d, std::string_view node);
// The code of the verdict for pod "ns/name" on `node` as the JSON prints it; empty when there
// is none.
std::string pod_code(const policy::Decision& d, std::string_view node, std::string_view ns_name);

}  // namespace kpreempt::testing
