// SPDX-License-Identifier: Apache-2.0
// The flow for one pending pod: placement, headroom, fit, preconditions, then the preemption
// steps. Mirrors apache/yunikorn-core v1.7.0 pkg/scheduler/objects/application.go
// (tryAllocate, tryPreemption, tryRequiredNodePreemption) and preemption.go TryPreemption.
#include "policy/yunikorn/engine.h"

#include "policy/common/filters.h"
#include "policy/yunikorn/steps.h"

#include <fmt/format.h>

namespace kpreempt::policy::yunikorn {
namespace {

// Queue headroom, leaf to root: max minus usage on max's keys, narrowed by the parent's.
ORes headroom(const Cluster& c, std::uint32_t q) {
  ORes out;
  std::vector<std::uint32_t> path;
  for (std::uint32_t a = q; a != k_no_queue; a = c.queues[a].q.parent) {
    path.push_back(a);
  }
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    const ORes& max = *it == 0 ? c.root_max : c.queues[*it].q.max;
    if (max) {
      out = cmin(restrict_sub(max, c.queues[*it].allocated), out);
    }
  }
  return out;
}

bool node_fits(const Cluster& c, const common::Filters& f, model::NodeId n, const Res& ask) {
  return fits(c.capacity[n], ask) && fits(c.available[n], ask) &&
         f.run(common::NodeView{n, {}, {}}).ok();
}

void fail(Trace& t, Code reason, std::string detail) {
  t.outcome = Outcome::unschedulable;
  t.reason = reason;
  t.detail = std::move(detail);
}

// CheckPreconditions, in upstream's order.
bool preconditions(const Cluster& c, model::PodId ask, model::Instant now, Trace& t) {
  if (!c.preemption_enabled) {
    fail(t, Code::partition_preemption_disabled, "preemption.enabled is false for the partition");
    return false;
  }
  if (c.snap.facts(ask).preempt_never) {
    fail(t, Code::preemptor_never, "the pod's preemptionPolicy is Never");
    return false;
  }
  const std::int64_t delay = preemption_delay_ns(c.queues[t.ask_queue].q);
  const std::int64_t created_ns = c.pods[ask].create * 1'000'000'000LL;
  const std::int64_t now_ns = now.seconds * 1'000'000'000LL + now.nanos;
  if (now_ns < created_ns + delay) {
    fail(t, Code::delay_not_elapsed,
         fmt::format("preemption.delay of {} ({}s) has not passed since the pod was created",
                     c.queues[t.ask_queue].q.path, static_cast<double>(delay) / 1e9));
    return false;
  }
  return true;
}

}  // namespace

Trace run_preemption(const Cluster& c, model::PodId ask, model::Instant now) {
  Trace t;
  t.pods.assign(c.pods.size(), PodNote{});
  t.nodes.assign(c.snap.nodes().size(), NodeTrace{});
  t.queues.assign(c.queues.size(), QueueTrace{});
  t.ask_queue = c.pods[ask].queue;
  if (t.ask_queue == k_no_queue) {
    fail(t, Code::rejected_by_placement,
         "no placement rule accepts the application and root.default does not exist");
    return t;
  }
  const Res& res = c.pods[ask].res;
  t.headroom = headroom(c, t.ask_queue);
  const common::Filters filters(c.snap, ask);
  if (c.pods[ask].required_node) {
    t.required_path = true;
    required_node_preemption(c, filters, ask, t);
    return t;
  }
  if (fits_defined(t.headroom, res)) {
    for (model::NodeId n = 0; n < c.snap.nodes().size(); ++n) {
      if (node_fits(c, filters, n, res)) {
        t.outcome = Outcome::fits;
        t.reason = Code::fits;
        t.chosen = n;
        t.detail = "the queue headroom and a node both have room";
        return t;
      }
    }
    t.nodes_tried = true;
  }
  if (!preconditions(c, ask, now, t)) {
    return t;
  }
  t.attempted = true;
  general_preemption(c, filters, ask, t);
  return t;
}

}  // namespace kpreempt::policy::yunikorn
