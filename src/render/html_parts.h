// SPDX-License-Identifier: Apache-2.0
// The pictures of the HTML pages: nodes as columns of pods, and quota bars. They read a
// decision and the snapshot, as the text and JSON renderers do.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/policy.h"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace kpreempt::render::html {

// Who is preempting, as the pictures need it.
struct Preemptor {
  std::string name;  // "ns/name" or "Workload ns/name"
  std::int32_t priority = 0;
  const model::Resources* requests = nullptr;  // null for a Workload
};

// Nodes as columns of their pods stacked by priority, each pod as tall as its dominant share of
// the node's allocatable: the chosen node with the victims and the preemptor's room marked,
// the candidates that lost each labelled with its criterion, and the other nodes grouped by
// why they were never candidates. `columns` caps the nodes drawn one by one. Nothing for
// quota-level decisions (no node).
void node_picture(std::ostream& out, const model::Snapshot& snap, const policy::Decision& d,
                  const Preemptor& p, std::size_t columns);

// Quota bars before and after the decision for the preemptor's queue and every victim's,
// from the figures a quota policy's details carry; nothing when they carry none.
void quota_bars(std::ostream& out, const policy::Decision& d);

// An amount of a resource as people read it: cpu and vcore from millicores ("1500m", "2"),
// memory and storage with binary suffixes.
std::string amount_text(const std::string& resource, std::int64_t amount);

}  // namespace kpreempt::render::html
