// SPDX-License-Identifier: Apache-2.0
// The Pod (v1) decoder: the metadata, spec and status fields the scheduler's preemption and
// kpreempt's lint rules read.
#include "load/decode.h"

#include "kpreempt/model/resources.h"

#include <algorithm>
#include <optional>
#include <string_view>

namespace kpreempt::load {
namespace {

model::Container decode_container(const Field& c) {
  model::Container out;
  out.name = c["name"].str();
  out.requests = c["resources"]["requests"].non_negative_resource_list();
  c["ports"].each_item([&](const Field& p) {
    std::int32_t host_port = p["hostPort"].int32();
    if (host_port > 0) {
      out.host_ports.push_back(
          model::HostPort{host_port, p["protocol"].str("TCP"), p["hostIP"].str()});
    }
  });
  out.restart_always = c["restartPolicy"].str() == "Always";
  return out;
}

model::PodAffinityTerm decode_affinity_term(const Field& t) {
  model::PodAffinityTerm out;
  out.label_selector = decode_label_selector(t["labelSelector"]);
  out.namespaces = t["namespaces"].strings();
  if (t["namespaceSelector"].present()) {
    out.namespace_selector = decode_label_selector(t["namespaceSelector"]);
  }
  out.topology_key = t["topologyKey"].str();
  return out;
}

std::vector<model::PodAffinityTerm> decode_affinity_terms(const Field& f) {
  std::vector<model::PodAffinityTerm> out;
  f["requiredDuringSchedulingIgnoredDuringExecution"].each_item(
      [&](const Field& t) { out.push_back(decode_affinity_term(t)); });
  return out;
}

model::TopologySpreadConstraint decode_spread(const Field& c) {
  model::TopologySpreadConstraint out;
  out.max_skew = c["maxSkew"].int32(1);
  out.topology_key = c["topologyKey"].str();
  out.when_unsatisfiable = c["whenUnsatisfiable"].str();
  out.label_selector = decode_label_selector(c["labelSelector"]);
  out.min_domains = c["minDomains"].opt_int32();
  // The API server fills in these defaults; the model keeps them explicit.
  out.node_affinity_policy = c["nodeAffinityPolicy"].str("Honor");
  out.node_taints_policy = c["nodeTaintsPolicy"].str("Ignore");
  out.match_label_keys = c["matchLabelKeys"].strings();
  return out;
}

void decode_metadata(const Field& meta, model::Pod& p) {
  p.namespace_ = meta["namespace"].str("default");
  if (!dns1123_label(p.namespace_)) {
    meta["namespace"].fail("not a valid namespace (lowercase letters, digits and '-', at most 63)");
  }
  p.uid = meta["uid"].str();
  p.labels = meta["labels"].string_map();
  p.annotations = meta["annotations"].string_map();
  std::erase_if(p.annotations,
                [](const auto& kv) { return !model::kept_pod_annotation(kv.first); });
  p.annotations.shrink_to_fit();
  meta["ownerReferences"].each_item([&](const Field& o) {
    p.owners.push_back(model::OwnerReference{o["kind"].str(), o["name"].str(), o["uid"].str(),
                                             o["controller"].boolean()});
  });
  p.creation_timestamp = meta["creationTimestamp"].time();
  p.deletion_timestamp = meta["deletionTimestamp"].time();
}

// The object a spec.resourceClaims entry names, in the pod's namespace (left empty here);
// before Kubernetes 1.31 the name sat under `source`.
model::ObjectRef claim_ref(const Field& entry) {
  for (const Field& at : {entry, entry["source"]}) {
    if (at["resourceClaimName"].present()) {
      return {"ResourceClaim", "", at["resourceClaimName"].str()};
    }
    if (at["resourceClaimTemplateName"].present()) {
      return {"ResourceClaimTemplate", "", at["resourceClaimTemplateName"].str()};
    }
  }
  return {"ResourceClaim", "", entry["name"].str()};
}

void decode_scheduling(const Field& spec, model::Pod& p) {
  p.node_name = spec["nodeName"].str();
  p.priority = spec["priority"].opt_int32();
  p.priority_class_name = spec["priorityClassName"].str();
  p.preemption_policy = spec["preemptionPolicy"].str();
  p.scheduler_name = spec["schedulerName"].str();
  spec["schedulingGates"].each_item(
      [&](const Field& g) { p.scheduling_gates.push_back(g["name"].str()); });
  spec["resourceClaims"].each_item(
      [&](const Field& c) { p.resource_claims.push_back(claim_ref(c)); });
  p.node_selector = spec["nodeSelector"].string_map();
  Field affinity = spec["affinity"];
  Field required = affinity["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"];
  if (required.present()) {
    p.has_required_node_affinity = true;
    p.required_node_affinity = decode_node_selector_terms(required["nodeSelectorTerms"]);
  }
  p.required_pod_affinity = decode_affinity_terms(affinity["podAffinity"]);
  p.required_pod_anti_affinity = decode_affinity_terms(affinity["podAntiAffinity"]);
  spec["tolerations"].each_item([&](const Field& t) {
    p.tolerations.push_back(model::Toleration{t["key"].str(), t["operator"].str(), t["value"].str(),
                                              t["effect"].str()});
  });
  spec["topologySpreadConstraints"].each_item(
      [&](const Field& c) { p.topology_spread.push_back(decode_spread(c)); });
}

std::optional<model::ResourceList> opt_resource_list(const Field& f) {
  if (!f.present()) {
    return std::nullopt;
  }
  return f.non_negative_resource_list();
}

// status.resources and status.allocatedResources of a pod or a container status.
model::ResourceStatus decode_resource_status(const Field& f) {
  model::ResourceStatus out;
  out.has_resources = f["resources"].present();
  out.requests = opt_resource_list(f["resources"]["requests"]);
  out.allocated = opt_resource_list(f["allocatedResources"]);
  return out;
}

// Only statuses that carry resources are kept: the rest change no request.
void decode_container_statuses(const Field& status, model::Pod& p) {
  for (const char* key : {"containerStatuses", "initContainerStatuses"}) {
    const bool init = std::string_view(key) == "initContainerStatuses";
    status[key].each_item([&](const Field& c) {
      model::ResourceStatus r = decode_resource_status(c);
      if (r.any()) {
        p.container_statuses.push_back(model::ContainerStatus{c["name"].str(), init, std::move(r)});
      }
    });
  }
  p.pod_status_resources = decode_resource_status(status);
}

void decode_status(const Field& status, model::Pod& p) {
  p.phase = status["phase"].str();
  p.start_time = status["startTime"].time();
  p.nominated_node_name = status["nominatedNodeName"].str();
  // Every condition is checked, but only the first DisruptionTarget and PodScheduled ones are
  // kept: no policy reads another, and a big cluster holds five per pod.
  bool resize_pending_seen = false;
  p.resize_infeasible_any = status["resize"].str() == "Infeasible";
  status["conditions"].each_item([&](const Field& c) {
    model::PodCondition cond{c["type"].str(), c["status"].str(), c["reason"].str(),
                             c["lastTransitionTime"].time()};
    if (cond.type == "PodResizePending") {
      const bool infeasible = cond.reason == "Infeasible";
      p.resize_infeasible = resize_pending_seen ? p.resize_infeasible : infeasible;
      p.resize_infeasible_any = p.resize_infeasible_any || infeasible;
      resize_pending_seen = true;
    }
    bool read = cond.type == "DisruptionTarget" || cond.type == "PodScheduled";
    if (read && std::none_of(p.conditions.begin(), p.conditions.end(),
                             [&](const model::PodCondition& k) { return k.type == cond.type; })) {
      p.conditions.push_back(std::move(cond));
    }
  });
  decode_container_statuses(status, p);
}

}  // namespace

model::Pod decode_pod_fields(const Field& root) {
  model::Pod p;
  decode_metadata(root["metadata"], p);
  Field spec = root["spec"];
  decode_scheduling(spec, p);
  spec["containers"].each_item(
      [&](const Field& c) { p.containers.push_back(decode_container(c)); });
  spec["initContainers"].each_item(
      [&](const Field& c) { p.init_containers.push_back(decode_container(c)); });
  p.overhead = spec["overhead"].non_negative_resource_list();
  p.pod_level_requests = spec["resources"]["requests"].non_negative_resource_list();
  decode_status(root["status"], p);
  if (std::string limit = model::pod_requests_limit_error(p); !limit.empty()) {
    spec.fail("total requests out of range: " + limit);
  }
  p.loc = root.loc();
  return p;
}

void decode_pod(const Field& root, DecodeContext& ctx) {
  std::string name = object_name(root);
  model::Pod p = decode_pod_fields(root);
  p.name = std::move(name);
  // A finished Pod, or one on its way out, runs no scheduler any more.
  if (!p.deletion_timestamp && p.phase != "Succeeded" && p.phase != "Failed") {
    record_scheduler_images(root["spec"], p.labels, {"Pod", p.namespace_, p.name}, ctx);
  }
  if (root["spec"]["schedulingGroup"].present()) {
    // Kubernetes' workload-aware scheduling (feature gate GenericWorkload, off by default).
    ctx.out.add(model::UnmodelledGate{
        "workload-aware", {"Pod", p.namespace_, p.name}, "spec.schedulingGroup", root.loc()});
  }
  if (ctx.pods != nullptr) {
    ctx.pods->push_back(model::ObjectRef{"Pod", p.namespace_, p.name});
  }
  ctx.out.add(std::move(p));
}

}  // namespace kpreempt::load
