// SPDX-License-Identifier: Apache-2.0
// Remaining guarantee on queue snapshots. Mirrors apache/yunikorn-core v1.7.0
// pkg/scheduler/objects/preemption.go QueuePreemptionSnapshot.GetRemainingGuaranteedResource,
// AddAllocation and RemoveAllocation.
#include "policy/yunikorn/guarantee.h"

namespace kpreempt::policy::yunikorn {

QueueSnapshots::QueueSnapshots(const Cluster& c, std::uint32_t ask) : m_ask(ask) {
  m_q.reserve(c.queues.size());
  for (const QueueInfo& qi : c.queues) {
    m_q.push_back(Entry{.parent = qi.q.parent,
                        .allocated = qi.allocated,
                        .preempting = qi.preempting,
                        .guaranteed = qi.q.guaranteed,
                        .path = qi.q.path});
  }
  if (ask != k_no_queue) {
    m_ask_guaranteed = !empty(c.queues[ask].q.guaranteed);
    m_ask_path = c.queues[ask].q.path;
  }
}

ORes QueueSnapshots::remaining(std::uint32_t q) const {
  const Entry& e = m_q[q];
  ORes parent = e.parent == k_no_queue ? ORes() : remaining(e.parent);
  if (empty(parent) && empty(e.guaranteed)) {
    return std::nullopt;
  }
  Res used = e.allocated;
  // Only the keys in use count: preempting resources are subtracted where allocated has them.
  for (auto& [k, v] : used) {
    v -= get(e.preempting, k);
  }
  ORes rem = restrict_sub(e.guaranteed, used);
  if (e.parent != k_no_queue) {  // root carries no ask context
    if (q == m_ask && !empty(rem)) {
      return merge(rem, parent);
    }
    // The ancestor test is a plain string prefix upstream: "root.team" also counts as an
    // ancestor of "root.team2.a".
    if (!empty(rem) && m_ask_path.starts_with(e.path) && m_ask_guaranteed) {
      return std::nullopt;
    }
  }
  return cmin(rem, parent);
}

bool QueueSnapshots::within(std::uint32_t q) const {
  ORes r = remaining(q);
  return r && non_neg(r);
}

bool QueueSnapshots::over(std::uint32_t q) const {
  ORes r = remaining(q);
  return !r || neg(r);
}

void QueueSnapshots::add(std::uint32_t q, const Res& r) {
  for (; q != k_no_queue; q = m_q[q].parent) {
    add_to(m_q[q].allocated, r);
  }
}

void QueueSnapshots::remove(std::uint32_t q, const Res& r) {
  for (; q != k_no_queue; q = m_q[q].parent) {
    sub_from(m_q[q].allocated, r);
  }
}

}  // namespace kpreempt::policy::yunikorn
