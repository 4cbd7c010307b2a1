// SPDX-License-Identifier: Apache-2.0
// The scheduler's view of the dump. Mirrors apache/yunikorn-k8shim v1.7.0
// pkg/common/resource.go (GetPodResource), pkg/cache/task.go (allow-preemption, originator,
// required node) and apache/yunikorn-core v1.7.0 pkg/scheduler/objects/queue.go (usage).
#include "policy/yunikorn/cluster.h"

#include "policy/yunikorn/placement.h"

#include <algorithm>
#include <map>

namespace kpreempt::policy::yunikorn {
namespace {

// Resource names as the shim sends them: cpu becomes vcore in millicores; every other value
// is a whole number rounded up.
Res to_res(const model::ResourceList& list) {
  Res out;
  for (const auto& [name, q] : list) {
    if (name == "cpu") {
      set(out, "vcore", q.milli());
    } else {
      set(out, name, q.value_ceil());
    }
  }
  return out;
}

void max_into(Res& a, const Res& b) {
  for (const auto& [k, v] : b) {
    set(a, k, has(a, k) ? std::max(get(a, k), v) : v);
  }
}

// The status the shim pairs with a container: by name, an init container status winning a
// name clash (GetPodResource builds one map, containers first).
const model::ContainerStatus* status_named(const model::Pod& pod, const std::string& name) {
  const model::ContainerStatus* found = nullptr;
  for (const model::ContainerStatus& st : pod.container_statuses) {
    if (st.name == name && (found == nullptr || st.init)) {
      found = &st;
    }
  }
  return found;
}

// computeContainerResource: spec requests raised to the allocated and actual ones; an
// infeasible resize counts the actual requests alone.
Res container_resource(const model::Pod& pod, const model::Container& c) {
  Res r = to_res(c.requests);
  const model::ContainerStatus* st = status_named(pod, c.name);
  if (st == nullptr) {
    return r;
  }
  const model::ResourceStatus& rs = st->resources;
  if (pod.resize_infeasible_any && rs.has_resources) {
    return rs.requests ? to_res(*rs.requests) : Res{};
  }
  if (rs.allocated) {
    max_into(r, to_res(*rs.allocated));
  }
  if (rs.has_resources && rs.requests) {
    max_into(r, to_res(*rs.requests));
  }
  return r;
}

// GetPodResource (k8shim pkg/common/resource.go, spec V.5): containers plus sidecars, then each
// init container with the sidecars so far (a sidecar counts twice in its own step, as
// checkInitContainerRequest does), pod-level requests, overhead and one "pods".
// `hugepages_pod_level`: the linked component-helpers know hugepages-* at pod level (v1.8).
Res pod_resource(const model::Pod& pod, bool hugepages_pod_level) {
  Res sum;
  for (const model::Container& c : pod.containers) {
    add_to(sum, container_resource(pod, c));
  }
  for (const model::Container& c : pod.init_containers) {
    if (c.restart_always) {
      add_to(sum, container_resource(pod, c));
    }
  }
  Res sidecars;
  for (const model::Container& c : pod.init_containers) {
    Res ic = container_resource(pod, c);
    if (c.restart_always) {
      add_to(sidecars, ic);
    }
    add_to(ic, sidecars);
    max_into(sum, ic);
  }
  Res level = to_res(pod.pod_level_requests);
  for (const auto& [key, v] : level) {
    if (key == "vcore" || key == "memory" ||
        (hugepages_pod_level && key.starts_with("hugepages-"))) {
      set(sum, key, v);
    }
  }
  add_to(sum, to_res(pod.overhead));
  set(sum, "pods", 1);
  return sum;
}

bool allow_preempt_self(const model::Snapshot& snap, const model::Pod& pod) {
  if (const std::string* v = model::find(pod.annotations, k_allow_preemption)) {
    if (*v == "true" || *v == "false") {
      return *v == "true";
    }
  }
  const model::PriorityClass* pc = snap.find_priority_class(pod.priority_class_name);
  const std::string* v = pc != nullptr ? model::find(pc->annotations, k_allow_preemption) : nullptr;
  return v == nullptr || *v != "false";
}

// A DaemonSet pod's node: the metadata.name matchFields value of its required affinity (the
// last such term wins, as the shim's loop overwrites).
std::string required_node(const model::Pod& pod) {
  bool daemon = std::any_of(pod.owners.begin(), pod.owners.end(),
                            [](const model::OwnerReference& o) { return o.kind == "DaemonSet"; });
  std::string node;
  if (!daemon) {
    return node;
  }
  for (const model::NodeSelectorTerm& t : pod.required_node_affinity) {
    for (const model::Requirement& r : t.match_fields) {
      if (r.key == "metadata.name" && !r.values.empty()) {
        node = r.values.front();
      }
    }
  }
  return node;
}

void fill_pod(const model::Snapshot& snap, model::PodId id, YkPod& p, bool hugepages) {
  const model::Pod& pod = snap.pods()[id];
  p.yk = model::yk_pod(pod);
  p.bound = !pod.node_name.empty() && !pod.terminal() && snap.facts(id).node != model::k_none;
  p.res = pod_resource(pod, hugepages);
  p.create = pod.creation_timestamp ? pod.creation_timestamp->seconds : 0;
  p.priority = pod.priority.value_or(0);
  p.allow_preempt_self = allow_preempt_self(snap, pod);
  p.required_node_name = required_node(pod);
  p.required_node = !p.required_node_name.empty();
  p.preempted = pod.terminating();
  if (p.yk) {
    p.app = model::yk_application_id(pod);
  }
}

// The application's first pod: earliest creation, then smallest name.
bool earlier(const model::Snapshot& snap, const YkPod& a, model::PodId ia, const YkPod& b,
             model::PodId ib) {
  if (a.create != b.create) {
    return a.create < b.create;
  }
  return snap.pods()[ia].name < snap.pods()[ib].name;
}

void roll_up(Cluster& c, std::uint32_t q, const Res& r, bool preempting) {
  for (; q != k_no_queue; q = c.queues[q].q.parent) {
    add_to(preempting ? c.queues[q].preempting : c.queues[q].allocated, r);
  }
}

}  // namespace

std::optional<std::uint32_t> Cluster::find_queue(const std::string& path) const {
  for (std::uint32_t i = 0; i < queues.size(); ++i) {
    if (queues[i].q.path == path) {
      return i;
    }
  }
  return std::nullopt;
}

bool Cluster::on_path(std::uint32_t ancestor, std::uint32_t q) const {
  for (; q != k_no_queue; q = queues[q].q.parent) {
    if (q == ancestor) {
      return true;
    }
  }
  return false;
}

Cluster::Rules rules_for(ReleaseLine line) {
  if (line.unset() || line >= ReleaseLine{1, 8}) {
    return {};
  }
  return {.resource_wise = false,
          .pod_level_hugepages = false,
          .newer_config_keys = false,
          .quota_preemption = false};
}

int allocation_type(const YkPod& p) {
  if (p.originator) {
    return 3;  // wins over opted out
  }
  return p.allow_preempt_self ? 1 : 2;
}

Cluster build_cluster(const model::Snapshot& snap, model::PodId preemptor, ReleaseLine line) {
  Cluster c(snap);
  c.rules = rules_for(line);
  load_queues(c);
  c.pods.resize(snap.pods().size());
  for (model::PodId id = 0; id < snap.pods().size(); ++id) {
    fill_pod(snap, id, c.pods[id], c.rules.pod_level_hugepages);
  }
  if (preemptor != model::k_none && !c.pods[preemptor].yk) {
    // Asked about explicitly: the admission controller would have set schedulerName.
    c.pods[preemptor].yk = true;
    c.pods[preemptor].app = model::yk_application_id(snap.pods()[preemptor]);
  }
  // Applications: the first bound pod created the application (originator) and decided its
  // queue; a preemptor whose application has no bound pod is itself the originator.
  std::map<std::string, model::PodId> first;
  for (model::PodId id = 0; id < snap.pods().size(); ++id) {
    const YkPod& p = c.pods[id];
    if (!p.yk || !p.bound) {
      continue;
    }
    auto [it, inserted] = first.emplace(p.app, id);
    if (!inserted && earlier(snap, p, id, c.pods[it->second], it->second)) {
      it->second = id;
    }
  }
  std::map<std::string, std::uint32_t> app_queue;
  for (const auto& [app, id] : first) {
    c.pods[id].originator = true;
    app_queue[app] = place(c, snap.pods()[id], true);
  }
  for (model::PodId id = 0; id < snap.pods().size(); ++id) {
    YkPod& p = c.pods[id];
    if (!p.yk || !p.bound) {
      continue;
    }
    p.queue = app_queue[p.app];
    if (p.queue != k_no_queue) {
      roll_up(c, p.queue, p.res, false);
      if (p.preempted) {
        roll_up(c, p.queue, p.res, true);
      }
    }
  }
  if (preemptor != model::k_none) {
    YkPod& p = c.pods[preemptor];
    auto it = app_queue.find(p.app);
    p.originator = it == app_queue.end();
    p.queue = it != app_queue.end() ? it->second : place(c, snap.pods()[preemptor], false);
  }
  c.capacity.resize(snap.nodes().size());
  c.available.resize(snap.nodes().size());
  Res total;
  for (model::NodeId n = 0; n < snap.nodes().size(); ++n) {
    c.capacity[n] = to_res(snap.nodes()[n].allocatable);
    c.available[n] = c.capacity[n];
    add_to(total, c.capacity[n]);
    for (model::PodId id : snap.pods_on(n)) {
      sub_from(c.available[n], c.pods[id].res);
    }
  }
  c.root_max = total;
  return c;
}

}  // namespace kpreempt::policy::yunikorn
