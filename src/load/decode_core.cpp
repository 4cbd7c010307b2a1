// SPDX-License-Identifier: Apache-2.0
// Decoders for the cluster-wide core kinds: Node (v1), PriorityClass (scheduling.k8s.io/v1)
// and PodDisruptionBudget (policy/v1 and policy/v1beta1, which share the fields read here).
#include "load/decode.h"

namespace kpreempt::load {

void decode_node(const Field& root, DecodeContext& ctx) {
  model::Node n;
  n.name = object_name(root);
  n.labels = root["metadata"]["labels"].string_map();
  Field spec = root["spec"];
  n.unschedulable = spec["unschedulable"].boolean();
  spec["taints"].each_item([&](const Field& t) {
    n.taints.push_back(model::Taint{t["key"].str(), t["value"].str(), t["effect"].str()});
  });
  Field allocatable = root["status"]["allocatable"];
  n.allocatable = allocatable.non_negative_resource_list();
  n.has_allocatable_pods = allocatable["pods"].present();
  n.loc = root.loc();
  ctx.out.add(std::move(n));
}

void decode_priority_class(const Field& root, DecodeContext& ctx) {
  model::PriorityClass c;
  c.name = object_name(root);
  c.value = root["value"].int32();
  c.global_default = root["globalDefault"].boolean();
  c.preemption_policy = root["preemptionPolicy"].str();
  c.annotations = root["metadata"]["annotations"].string_map();
  c.loc = root.loc();
  ctx.out.add(std::move(c));
}

void decode_pdb(const Field& root, DecodeContext& ctx) {
  model::PodDisruptionBudget b;
  b.namespace_ = object_namespace(root);
  b.name = object_name(root);
  Field selector = root["spec"]["selector"];
  b.selector = decode_label_selector(selector);
  if (SelectorProblem p = check_label_selector(selector); p.at) {
    // The scheduler skips a PDB whose selector does not convert (preemption.go,
    // filterPodsWithPDBViolation), so the budget protects nothing.
    b.selector_valid = false;
    ctx.warn(*p.at, "PodDisruptionBudget " + b.namespace_ + "/" + b.name + ": " + p.at->path() +
                        ": " + p.message + "; the budget is ignored");
  }
  Field status = root["status"];
  b.has_status = status.is_map();
  b.disruptions_allowed = status["disruptionsAllowed"].int32();
  b.disrupted_pods = status["disruptedPods"].map_keys();
  b.loc = root.loc();
  ctx.out.add(std::move(b));
}

}  // namespace kpreempt::load
