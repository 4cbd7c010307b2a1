// SPDX-License-Identifier: Apache-2.0
// Kueue objects, ElasticQuotas and YuniKorn queue files of a snapshot, written back in the
// shape their decoders read.
#include "lint/snapshot_objects.h"

#include "kpreempt/model/quantity.h"

#include <fmt/format.h>

#include <string>

namespace kpreempt::lint {
namespace {

using json = nlohmann::ordered_json;

constexpr std::string_view k_kueue_api = "kueue.x-k8s.io/v1beta1";

json selector(const model::LabelSelector& sel) {
  json out = json::object();
  if (!sel.match_labels.empty()) {
    out["matchLabels"] = written_map(sel.match_labels);
  }
  json exprs = json::array();
  for (const model::Requirement& r : sel.match_expressions) {
    exprs.push_back({{"key", r.key}, {"operator", r.op}, {"values", r.values}});
  }
  if (!exprs.empty()) {
    out["matchExpressions"] = exprs;
  }
  return out;
}

json resource_groups(const std::vector<model::KueueResourceGroup>& groups) {
  json out = json::array();
  for (const model::KueueResourceGroup& g : groups) {
    json flavors = json::array();
    for (const model::KueueFlavorQuotas& f : g.flavors) {
      json res = json::array();
      for (const model::KueueQuota& q : f.resources) {
        json r = {{"name", q.resource}, {"nominalQuota", model::to_string(q.nominal)}};
        if (q.borrowing_limit) {
          r["borrowingLimit"] = model::to_string(*q.borrowing_limit);
        }
        if (q.lending_limit) {
          r["lendingLimit"] = model::to_string(*q.lending_limit);
        }
        res.push_back(r);
      }
      flavors.push_back({{"name", f.name}, {"resources", res}});
    }
    out.push_back({{"coveredResources", g.covered_resources}, {"flavors", flavors}});
  }
  return out;
}

json cluster_queue(const model::ClusterQueue& q) {
  json spec = json::object();
  if (!q.cohort.empty()) {
    spec["cohort"] = q.cohort;
  }
  if (q.namespace_selector.present) {
    spec["namespaceSelector"] = selector(q.namespace_selector);
  }
  spec["queueingStrategy"] = q.queueing_strategy;
  spec["resourceGroups"] = resource_groups(q.resource_groups);
  spec["flavorFungibility"] = {{"whenCanBorrow", q.when_can_borrow},
                               {"whenCanPreempt", q.when_can_preempt}};
  json preemption = {{"withinClusterQueue", q.within_cluster_queue},
                     {"reclaimWithinCohort", q.reclaim_within_cohort},
                     {"borrowWithinCohort", {{"policy", q.borrow_within_cohort}}}};
  if (q.max_priority_threshold) {
    preemption["borrowWithinCohort"]["maxPriorityThreshold"] = *q.max_priority_threshold;
  }
  spec["preemption"] = preemption;
  spec["stopPolicy"] = q.stop_policy;
  return {{"apiVersion", k_kueue_api},
          {"kind", "ClusterQueue"},
          {"metadata", written_metadata("", q.name)},
          {"spec", spec}};
}

json workload(const model::Workload& w) {
  json spec = {{"queueName", w.queue_name}};
  if (!w.priority_class_name.empty()) {
    spec["priorityClassName"] = w.priority_class_name;
    spec["priorityClassSource"] = w.priority_class_source;
  }
  if (w.spec_priority) {
    spec["priority"] = *w.spec_priority;
  }
  return {{"apiVersion", k_kueue_api},
          {"kind", "Workload"},
          {"metadata", written_metadata(w.namespace_, w.name)},
          {"spec", spec}};
}

void write_kueue(const model::KueueObjects& k, std::vector<WrittenObject>& out) {
  for (const model::ClusterQueue& q : k.cluster_queues) {
    out.push_back({cluster_queue(q), q.loc});
  }
  for (const model::LocalQueue& q : k.local_queues) {
    out.push_back({{{"apiVersion", k_kueue_api},
                    {"kind", "LocalQueue"},
                    {"metadata", written_metadata(q.namespace_, q.name)},
                    {"spec", {{"clusterQueue", q.cluster_queue}, {"stopPolicy", q.stop_policy}}}},
                   q.loc});
  }
  for (const model::ResourceFlavor& f : k.flavors) {
    out.push_back({{{"apiVersion", k_kueue_api},
                    {"kind", "ResourceFlavor"},
                    {"metadata", written_metadata("", f.name)},
                    {"spec", {{"nodeLabels", written_map(f.node_labels)}}}},
                   f.loc});
  }
  for (const model::WorkloadPriorityClass& c : k.priority_classes) {
    out.push_back({{{"apiVersion", k_kueue_api},
                    {"kind", "WorkloadPriorityClass"},
                    {"metadata", written_metadata("", c.name)},
                    {"value", c.value}},
                   c.loc});
  }
  for (const model::KueueCohort& c : k.cohorts) {
    json spec = json::object();
    if (!c.parent.empty()) {
      spec["parentName"] = c.parent;
    }
    if (!c.resource_groups.empty()) {
      spec["resourceGroups"] = resource_groups(c.resource_groups);
    }
    out.push_back({{{"apiVersion", "kueue.x-k8s.io/v1beta1"},
                    {"kind", "Cohort"},
                    {"metadata", written_metadata("", c.name)},
                    {"spec", spec}},
                   c.loc});
  }
  for (const model::Workload& w : k.workloads) {
    if (!w.derived_from) {  // a derived Workload's source object is not in the snapshot
      out.push_back({workload(w), w.loc});
    }
  }
}

void write_quotas(const model::Snapshot& s, std::vector<WrittenObject>& out) {
  for (const model::ElasticQuota& q : s.capacity().quotas) {
    json spec = json::object();
    if (q.min) {
      spec["min"] = written_resources(*q.min);
    }
    if (q.max) {
      spec["max"] = written_resources(*q.max);
    }
    out.push_back({{{"apiVersion", "scheduling.x-k8s.io/v1alpha1"},
                    {"kind", "ElasticQuota"},
                    {"metadata", written_metadata(q.namespace_, q.name)},
                    {"spec", spec}},
                   q.loc});
  }
  for (const model::KoordElasticQuota& q : s.koordinator().quotas) {
    json meta = written_metadata(q.namespace_, q.name);
    if (!q.labels.empty()) {
      meta["labels"] = written_map(q.labels);
    }
    if (!q.annotations.empty()) {
      meta["annotations"] = written_map(q.annotations);
    }
    out.push_back(
        {{{"apiVersion", "scheduling.sigs.k8s.io/v1alpha1"},
          {"kind", "ElasticQuota"},
          {"metadata", meta},
          {"spec", {{"min", written_resources(q.min)}, {"max", written_resources(q.max)}}}},
         q.loc});
  }
}

// YuniKorn's resource maps hold vcore in milli-cores and every other resource in units.
json yk_resource(const model::YkResource& r) {
  json out = json::object();
  for (const auto& [name, value] : r) {
    out[name] = name == "vcore" ? fmt::format("{}m", value) : std::to_string(value);
  }
  return out;
}

json yk_resources(const model::YkResources& r) {
  json out = json::object();
  if (r.guaranteed) {
    out["guaranteed"] = yk_resource(*r.guaranteed);
  }
  if (r.max) {
    out["max"] = yk_resource(*r.max);
  }
  return out;
}

json yk_queue(const model::YkQueueConfig& q) {
  json out = {{"name", q.name}};
  if (q.parent) {
    out["parent"] = true;
  }
  if (q.resources.guaranteed || q.resources.max) {
    out["resources"] = yk_resources(q.resources);
  }
  if (q.max_applications != 0) {
    out["maxapplications"] = q.max_applications;
  }
  if (!q.properties.empty()) {
    out["properties"] = written_map(q.properties);
  }
  if (q.child_template) {
    json t = {{"resources", yk_resources(q.child_template->resources)}};
    if (!q.child_template->properties.empty()) {
      t["properties"] = written_map(q.child_template->properties);
    }
    out["childtemplate"] = t;
  }
  if (!q.queues.empty()) {
    json children = json::array();
    for (const model::YkQueueConfig& c : q.queues) {
      children.push_back(yk_queue(c));
    }
    out["queues"] = children;
  }
  return out;
}

json yk_rule(const model::YkPlacementRule& r) {
  json out = {{"name", r.name}, {"create", r.create}};
  if (!r.value.empty()) {
    out["value"] = r.value;
  }
  if (!r.parent.empty()) {
    out["parent"] = yk_rule(r.parent.front());
  }
  return out;
}

json yk_config(const model::YunikornConfig& c) {
  json partitions = json::array();
  for (const model::YkPartition& p : c.partitions) {
    json queues = json::array();
    for (const model::YkQueueConfig& q : p.queues) {
      queues.push_back(yk_queue(q));
    }
    json rules = json::array();
    for (const model::YkPlacementRule& r : p.placement_rules) {
      rules.push_back(yk_rule(r));
    }
    // Whether `enabled: true` was written or left to its default is not kept: only a
    // partition that turns preemption off says so.
    json part = {{"name", p.name}, {"queues", queues}};
    json preemption = json::object();
    if (!p.preemption_enabled) {
      preemption["enabled"] = false;
    }
    if (p.quota_preemption_enabled) {
      preemption["quotapreemptionenabled"] = true;
    }
    if (!preemption.empty()) {
      part["preemption"] = preemption;
    }
    if (!rules.empty()) {
      part["placementrules"] = rules;
    }
    partitions.push_back(part);
  }
  return {{"partitions", partitions}};
}

}  // namespace

void write_queue_objects(const model::Snapshot& s, std::vector<WrittenObject>& out) {
  write_kueue(s.kueue(), out);
  write_quotas(s, out);
  if (const model::YunikornConfig* c = s.yunikorn().config()) {
    out.push_back({yk_config(*c), c->loc, "queues.yaml"});
  }
}

}  // namespace kpreempt::lint
