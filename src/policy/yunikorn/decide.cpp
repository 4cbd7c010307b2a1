// SPDX-License-Identifier: Apache-2.0
// decide_yunikorn: runs the YuniKorn flow (apache/yunikorn-core v1.7.0
// pkg/scheduler/objects/application.go tryAllocate / tryPreemption) and turns its trace into a
// Decision: victims with queue and application, node and pod verdicts, summary.
#include "policy/yunikorn/engine.h"
#include "policy/yunikorn/report.h"

#include "kpreempt/policy/yunikorn.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy {
namespace {

using namespace yunikorn;

model::ObjectRef pod_ref(const model::Pod& p) {
  return {"Pod", p.namespace_, p.name};
}

std::string flags(const YkPod& p) {
  std::string out;
  if (!p.allow_preempt_self) {
    out += " [opted-out]";
  }
  if (p.originator) {
    out += " [originator]";
  }
  return out;
}

PodVerdict pod_verdict(const Cluster& c, const Trace& t, model::PodId id) {
  const model::Pod& pod = c.snap.pods()[id];
  const YkPod& p = c.pods[id];
  const PodNote& n = t.pods[id];
  const bool victim = std::find(t.selected.begin(), t.selected.end(), id) != t.selected.end();
  std::string detail = n.detail;
  if (p.yk && p.queue != k_no_queue) {
    const std::string& path = c.queues[p.queue].q.path;
    detail +=
        (detail.empty() ? "" : "; ") + (detail.find(path) == std::string::npos
                                            ? fmt::format("queue {}, application {}", path, p.app)
                                            : fmt::format("application {}", p.app));
  }
  return PodVerdict{.pod = pod_ref(pod),
                    .priority = p.priority,
                    .victim = victim,
                    .code = n.code.value_or(Code::not_considered),
                    .detail = detail + (p.yk ? flags(p) : "")};
}

NodeVerdict node_verdict(const Cluster& c, const Trace& t, model::NodeId n) {
  const NodeTrace& nt = t.nodes[n];
  NodeVerdict v{.node = c.snap.nodes()[n].name, .code = {}, .detail = {}, .rank = {}, .pods = {}};
  if (n == t.chosen) {
    v.code = Code::chosen;
  } else if (nt.too_small) {
    v.code = Code::node_too_small;
  } else if (nt.checked && nt.passed) {
    v.code = Code::candidate;
  } else if (nt.checked) {
    v.code = Code::filters_failed;
    v.detail = nt.filter_detail;
  } else if (t.attempted && !nt.solution) {
    v.code = Code::no_solution;
  } else {
    v.code = Code::not_considered;
  }
  if (nt.checked && nt.passed) {
    v.detail =
        fmt::format("start index {}, success at {}, score {}", nt.index, nt.success_at, nt.score);
  }
  for (model::PodId id : c.snap.pods_on(n)) {
    if (id != model::k_none) {
      v.pods.push_back(pod_verdict(c, t, id));
    }
  }
  return v;
}

std::string summary(const Cluster& c, const Trace& t, model::PodId ask) {
  const std::string queue =
      t.ask_queue == k_no_queue ? std::string("no queue") : c.queues[t.ask_queue].q.path;
  switch (t.outcome) {
    case Outcome::fits:
      return fmt::format("fits in queue {} on node {} without preemption", queue,
                         c.snap.nodes()[t.chosen].name);
    case Outcome::preempt:
      return fmt::format("preempts {} pod(s) for queue {} (application {}) and reserves node {}{}",
                         t.selected.size(), queue, c.pods[ask].app, c.snap.nodes()[t.chosen].name,
                         t.detail.empty() ? std::string() : " (" + t.detail + ")");
    case Outcome::unschedulable:
      break;
  }
  return fmt::format("no preemption for queue {}: {} ({})", queue, name(t.reason), t.detail);
}

void add_victims(const Cluster& c, const Trace& t, Decision& d) {
  for (model::PodId id : t.selected) {
    const model::Pod& pod = c.snap.pods()[id];
    const YkPod& p = c.pods[id];
    d.victims.push_back(
        Victim{.ref = pod_ref(pod),
               .node = pod.node_name,
               .priority = p.priority,
               .reason = t.required_path ? Code::required_node_preemption : Code::selected,
               .queue = c.queues[p.queue].q.path,
               .application = p.app});
  }
}

std::vector<model::NodeId> by_name(const model::Snapshot& snap) {
  std::vector<model::NodeId> ids(snap.nodes().size());
  for (model::NodeId i = 0; i < ids.size(); ++i) {
    ids[i] = i;
  }
  std::sort(ids.begin(), ids.end(), [&](model::NodeId a, model::NodeId b) {
    return snap.nodes()[a].name < snap.nodes()[b].name;
  });
  return ids;
}

}  // namespace

Decision decide_yunikorn(const Input& in) {
  const QuotaView quota = quota_view(in.args);  // a bad value fails whatever the pod
  Decision d;
  d.policy = "yunikorn";
  if (in.preemptor == model::k_none) {
    d.reasons = {Reason(Code::workload_not_supported)};
    d.summary = "YuniKorn explains pods, not Kueue Workloads";
    return d;
  }
  const Cluster c = build_cluster(in.snapshot, in.preemptor, in.line);
  const Trace t = run_preemption(c, in.preemptor, in.now);
  d.outcome = t.outcome;
  if (t.chosen != model::k_none && t.outcome != Outcome::unschedulable) {
    d.node = c.snap.nodes()[t.chosen].name;
  }
  if (t.reason) {
    d.reasons.push_back(*t.reason);
  }
  if (t.tied.size() > 1 && t.outcome == Outcome::preempt) {
    for (model::NodeId n : t.tied) {
      d.tied_nodes.push_back(c.snap.nodes()[n].name);
    }
    d.reasons.emplace_back(Code::tie, d.tied_nodes);
  }
  add_victims(c, t, d);
  d.summary = summary(c, t, in.preemptor);
  for (model::NodeId n : by_name(c.snap)) {
    d.nodes.push_back(node_verdict(c, t, n));
  }
  d.warnings = c.warnings;
  add_report(c, t, in.preemptor, d);
  add_quota_preemption(c, quota, d);
  return d;
}

bool yunikorn_applies(const model::Snapshot& snap, model::PodId preemptor) {
  if (snap.yunikorn().config() == nullptr || preemptor == model::k_none) {
    return false;
  }
  const model::Pod& pod = snap.pods()[preemptor];
  for (const char* key :
       {"applicationId", "yunikorn.apache.org/app-id", "queue", "yunikorn.apache.org/queue"}) {
    if (model::find(pod.labels, key) != nullptr || model::find(pod.annotations, key) != nullptr) {
      return true;
    }
  }
  return model::yk_pod(pod);
}

}  // namespace kpreempt::policy
