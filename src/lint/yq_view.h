// SPDX-License-Identifier: Apache-2.0
// Walking YuniKorn queues.yaml trees for the YQ rules: every queue with its partition, full
// path (root.a.b) and parent, in document order.
#pragma once

#include "lint/corpus.h"

#include <functional>

namespace kpreempt::lint {

struct QueueVisit {
  const QueuesDoc* doc = nullptr;
  Node partition;
  std::string partition_name;
  Node queue;
  Node parent;  // absent for a top-level queue
  std::string path;

  std::string object() const { return "queues.yaml:" + partition_name + "/" + path; }
};

void each_queue(const Corpus& c, const std::function<void(const QueueVisit&)>& f);

// The `properties` maps of a queue: its own and its childtemplate's.
std::vector<Node> property_maps(const Node& queue);

}  // namespace kpreempt::lint
