// SPDX-License-Identifier: Apache-2.0
// A snapshot file's decoded objects written back as the API objects the lint rules read. Only
// what the model keeps can be written: the fields of each object that decide preemption, in
// their canonical form. Every position is the one the object was read from.
#include "lint/snapshot_objects.h"

#include "load/value.h"

#include "kpreempt/lint/inputs.h"
#include "kpreempt/load/scan.h"
#include "kpreempt/model/quantity.h"

#include <memory>
#include <string>
#include <utility>

namespace kpreempt::lint {
using json = nlohmann::ordered_json;

json written_map(const model::StringMap& m) {
  json out = json::object();
  for (const auto& [k, v] : m) {
    out[k] = v;
  }
  return out;
}

json written_resources(const model::ResourceList& list) {
  json out = json::object();
  for (const auto& [name, q] : list) {
    out[name] = model::to_string(q);
  }
  return out;
}

json written_metadata(std::string_view ns, std::string_view name) {
  json m = {{"name", name}};
  if (!ns.empty()) {
    m["namespace"] = ns;
  }
  return m;
}

namespace {

json priority_class(const model::PriorityClass& c) {
  json m = written_metadata("", c.name);
  if (!c.annotations.empty()) {
    m["annotations"] = written_map(c.annotations);
  }
  json o = {{"apiVersion", "scheduling.k8s.io/v1"},
            {"kind", "PriorityClass"},
            {"metadata", m},
            {"value", c.value}};
  if (c.global_default) {
    o["globalDefault"] = true;
  }
  if (!c.preemption_policy.empty()) {
    o["preemptionPolicy"] = c.preemption_policy;
  }
  return o;
}

json owners(const std::vector<model::OwnerReference>& refs) {
  json out = json::array();
  for (const model::OwnerReference& r : refs) {
    out.push_back(
        {{"kind", r.kind}, {"name", r.name}, {"uid", r.uid}, {"controller", r.controller}});
  }
  return out;
}

json pod(const model::Pod& p) {
  json m = written_metadata(p.namespace_, p.name);
  if (!p.uid.empty()) {
    m["uid"] = p.uid;
  }
  if (!p.labels.empty()) {
    m["labels"] = written_map(p.labels);
  }
  if (!p.annotations.empty()) {
    m["annotations"] = written_map(p.annotations);
  }
  if (!p.owners.empty()) {
    m["ownerReferences"] = owners(p.owners);
  }
  json spec = json::object();
  if (!p.priority_class_name.empty()) {
    spec["priorityClassName"] = p.priority_class_name;
  }
  if (p.priority) {
    spec["priority"] = *p.priority;
  }
  if (!p.preemption_policy.empty()) {
    spec["preemptionPolicy"] = p.preemption_policy;
  }
  if (!p.node_name.empty()) {
    spec["nodeName"] = p.node_name;
  }
  if (!p.scheduler_name.empty()) {
    spec["schedulerName"] = p.scheduler_name;
  }
  json containers = json::array();
  for (const model::Container& c : p.containers) {
    containers.push_back(
        {{"name", c.name}, {"resources", {{"requests", written_resources(c.requests)}}}});
  }
  spec["containers"] = containers;
  json o = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", m}, {"spec", spec}};
  if (!p.phase.empty()) {
    o["status"] = {{"phase", p.phase}};
  }
  return o;
}

json node(const model::Node& n) {
  json m = written_metadata("", n.name);
  if (!n.labels.empty()) {
    m["labels"] = written_map(n.labels);
  }
  json o = {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", m}};
  if (!n.allocatable.empty()) {  // a node listed without its status has none
    o["status"] = {{"allocatable", written_resources(n.allocatable)}};
  }
  return o;
}

}  // namespace

void write_core_objects(const model::Snapshot& s, std::vector<WrittenObject>& out) {
  for (const model::PriorityClass& c : s.priority_classes()) {
    out.push_back({priority_class(c), c.loc});
  }
  for (const model::Node& n : s.nodes()) {
    out.push_back({node(n), n.loc});
  }
  for (const model::Pod& p : s.pods()) {
    out.push_back({pod(p), p.loc});
  }
}

std::vector<load::ScannedObject> snapshot_objects(const model::Snapshot& s) {
  std::vector<WrittenObject> written;
  write_core_objects(s, written);
  write_queue_objects(s, written);
  std::vector<load::ScannedObject> out;
  out.reserve(written.size());
  for (const WrittenObject& w : written) {
    std::shared_ptr<load::Tree> tree = load::scan_document(w.doc.dump(), w.loc.file);
    // The text is made up; every finding points where the object was read.
    const load::Mark at{w.loc.line, w.loc.column};
    for (load::TreeNode& n : tree->nodes) {
      n.mark = at;
      n.key_mark = at;
    }
    tree->file = w.loc.file;
    std::string kind = !w.kind.empty() ? w.kind : w.doc.value("kind", "");
    out.push_back({std::move(tree), w.doc.value("apiVersion", ""), std::move(kind)});
  }
  return out;
}

}  // namespace kpreempt::lint
