// SPDX-License-Identifier: Apache-2.0
// The summary of a sequence, shared by explain --pod-file and explain --all-pending --sequential.
#pragma once

#include "kpreempt/render/render.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

namespace kpreempt::render {

// The `summary` object of a sequence's ExplanationList.
nlohmann::ordered_json sequence_json(const model::Snapshot& snap,
                                     const std::vector<Explanation>& all, const Sequence& seq);

// Per policy: the counts, each preemptor's outcome and node (`with_steps`), the victims node by
// node and the first preemptor left pending; then what the sequence assumes.
void print_sequence_summary(const model::Snapshot& snap, const std::vector<Explanation>& all,
                            const Sequence& seq, bool with_steps, std::ostream& out);

}  // namespace kpreempt::render
