// SPDX-License-Identifier: Apache-2.0
// Queue snapshots and the remaining guarantee R(q) the preemptor simulates on
// (apache/yunikorn-core v1.7.0 pkg/scheduler/objects/preemption.go QueuePreemptionSnapshot,
// GetRemainingGuaranteedResource).
#pragma once

#include "policy/yunikorn/cluster.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kpreempt::policy::yunikorn {

class QueueSnapshots {
 public:
  // Copies every queue; `ask` is the ask's leaf (the context every non-root snapshot carries).
  QueueSnapshots(const Cluster& c, std::uint32_t ask);

  // R(q); none when neither q nor an ancestor has a guarantee.
  ORes remaining(std::uint32_t q) const;
  // At or below guarantee: R(q) defined and nothing in it negative.
  bool within(std::uint32_t q) const;
  // Over guarantee (or none): R(q) none or negative.
  bool over(std::uint32_t q) const;

  void add(std::uint32_t q, const Res& r);     // AddAllocation (rolled up)
  void remove(std::uint32_t q, const Res& r);  // RemoveAllocation (rolled up)
  std::uint32_t ask() const { return m_ask; }
  const Res& allocated(std::uint32_t q) const { return m_q[q].allocated; }

 private:
  struct Entry {
    std::uint32_t parent = k_no_queue;
    Res allocated, preempting;
    ORes guaranteed;
    std::string path;
  };
  std::vector<Entry> m_q;
  std::uint32_t m_ask;
  bool m_ask_guaranteed = false;  // the ask queue's guarantee lists some key
  std::string m_ask_path;
};

}  // namespace kpreempt::policy::yunikorn
