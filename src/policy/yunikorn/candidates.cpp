// SPDX-License-Identifier: Apache-2.0
// Fence root, effective ask priorities and the victim candidates. Mirrors apache/yunikorn-core
// v1.7.0 pkg/scheduler/objects/queue.go FindEligiblePreemptionVictims,
// findPreemptionFenceRoot and findEligiblePreemptionVictims.
#include "policy/yunikorn/engine.h"

#include <fmt/format.h>

namespace kpreempt::policy::yunikorn {
namespace {

// Walks up from the ask leaf, recording the ask's priority as each queue sees it, and stops at
// the fence root: root, a preemption.policy fence, or a queue whose usage equals its max.
void find_fence(const Cluster& c, std::int64_t priority, Trace& t) {
  std::int64_t p = priority;
  for (std::uint32_t q = t.ask_queue;; q = c.queues[q].q.parent) {
    const model::YkQueue& yq = c.queues[q].q;
    const std::int64_t offset = priority_offset(yq);
    p = priority_fence(yq) ? offset : p + offset;
    t.queues[q].ask_priority = p;
    if (yq.parent == k_no_queue) {
      t.fence = q;
      t.fence_why = "root";
      return;
    }
    if (preemption_policy(yq) == PreemptionPolicy::fence) {
      t.fence = q;
      t.fence_why = "preemption.policy fence";
      return;
    }
    // The hidden fence: only when max names every key in use (pods included).
    if (yq.max && equal_maps(yq.max, c.queues[q].allocated)) {
      t.fence = q;
      t.fence_why = "usage equals max";
      return;
    }
  }
}

// Marks the subtree below the fence root with the ask priority each leaf compares against.
void descend(const Cluster& c, std::uint32_t q, std::int64_t p, bool fenced, Trace& t) {
  t.queues[q].visited = true;
  t.queues[q].fenced = fenced;
  for (std::uint32_t child : c.queues[q].q.children) {
    const model::YkQueue& yq = c.queues[child].q;
    if (c.on_path(child, t.ask_queue)) {
      descend(c, child, t.queues[child].ask_priority, fenced, t);
      continue;
    }
    const std::int64_t offset = priority_offset(yq);
    if (fenced) {
      t.queues[child].ask_priority = p;
      descend(c, child, p, true, t);
    } else if (priority_fence(yq)) {
      if (offset > p) {
        t.queues[child].skipped = true;  // the whole subtree outranks the ask
        continue;
      }
      t.queues[child].ask_priority = p;
      descend(c, child, p, true, t);
    } else {
      t.queues[child].ask_priority = p - offset;
      descend(c, child, p - offset, false, t);
    }
  }
}

std::uint32_t skipped_ancestor(const Cluster& c, const Trace& t, std::uint32_t q) {
  for (; q != k_no_queue; q = c.queues[q].q.parent) {
    if (t.queues[q].skipped) {
      return q;
    }
  }
  return k_no_queue;
}

// The leaf-level reason that protects every pod of queue q, or empty.
PodNote leaf_note(const Cluster& c, model::PodId ask, const QueueSnapshots& base, std::uint32_t q,
                  model::PodId id, const Trace& t) {
  const model::YkQueue& yq = c.queues[q].q;
  if (skipped_ancestor(c, t, q) != k_no_queue) {
    return {Code::priority_fenced_subtree,
            fmt::format("queue {} is behind a priority fence above the ask's priority",
                        c.queues[skipped_ancestor(c, t, q)].q.path)};
  }
  if (!t.queues[q].visited) {
    return {Code::outside_fence, fmt::format("queue {} is outside the fence root {}", yq.path,
                                             c.queues[t.fence].q.path)};
  }
  if (q == t.ask_queue) {
    return c.pods[id].app == c.pods[ask].app
               ? PodNote{Code::same_application, "the preemptor's own application"}
               : PodNote{Code::same_queue, "same leaf queue as the preemptor"};
  }
  if (preemption_policy(yq) == PreemptionPolicy::disabled) {
    return {Code::queue_preemption_disabled,
            fmt::format("queue {} has preemption.policy disabled", yq.path)};
  }
  if (base.within(q)) {
    return {Code::queue_at_or_below_guaranteed,
            fmt::format("queue {} remaining guarantee {} is not negative", yq.path,
                        to_string(base.remaining(q)))};
  }
  return {};
}

PodNote pod_note(const Cluster& c, model::PodId ask, const Trace& t, model::PodId id) {
  const YkPod& p = c.pods[id];
  const YkPod& a = c.pods[ask];
  if (!common_key(p.res, a.res)) {
    return {Code::no_common_resource, "shares no resource type with the ask"};
  }
  if (p.required_node) {
    return {Code::required_node, "DaemonSet pods are never general preemption victims"};
  }
  if (p.preempted) {
    return {Code::already_preempted, "already terminating"};
  }
  const std::int64_t limit = t.queues[p.queue].ask_priority;
  if (!t.queues[p.queue].fenced && p.priority > limit) {
    return {Code::higher_priority,
            fmt::format("priority {} is above the ask's effective priority {}", p.priority, limit)};
  }
  return {Code::candidate, ""};
}

}  // namespace

std::uint64_t flag_score(const YkPod& p) {
  return (p.originator ? k_score_originator : 0) | (p.allow_preempt_self ? 0 : k_score_no_preempt);
}

void find_candidates(const Cluster& c, model::PodId ask, const QueueSnapshots& base, Trace& t) {
  t.queues.assign(c.queues.size(), QueueTrace{});
  find_fence(c, c.pods[ask].priority, t);
  descend(c, t.fence, t.queues[t.fence].ask_priority, false, t);
  for (model::PodId id = 0; id < c.pods.size(); ++id) {
    const YkPod& p = c.pods[id];
    if (id == ask || !p.bound) {
      continue;
    }
    if (!p.yk || p.queue == k_no_queue) {
      t.pods[id] = {Code::foreign_pod, "not scheduled by YuniKorn: never a victim"};
      continue;
    }
    PodNote note = leaf_note(c, ask, base, p.queue, id, t);
    if (!note.code) {
      note = pod_note(c, ask, t, id);
    }
    if (note.code == Code::candidate) {
      t.candidates.push_back(id);
    }
    t.pods[id] = std::move(note);
  }
}

}  // namespace kpreempt::policy::yunikorn
