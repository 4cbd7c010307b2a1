// SPDX-License-Identifier: Apache-2.0
// Renderers turn decisions into text for people or JSON/YAML for programs. They read
// decisions and the snapshot; they decide nothing.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/policy.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::render {

enum class Format { text, wide, json, yaml };
std::optional<Format> parse_format(std::string_view name);

// Everything one `explain` of one preemptor produced.
struct Explanation {
  model::PodId preemptor;  // k_none when the preemptor is a Kueue Workload
  std::uint32_t workload;  // index into snapshot.kueue().workloads, or k_none
  model::Instant now;
  std::vector<policy::Decision> decisions;  // one per policy run, in registry order
};

struct Style {
  bool color = false;  // ANSI colours in text output
};

// The versioned output document (apiVersion kpreempt/v1alpha1); json/yaml print this.
// Keys follow shared/conformance/FORMAT.md: results[].{policy,outcome,node,victims[]}.
void render(Format format, const model::Snapshot& snap, const std::vector<Explanation>& all,
            const Style& style, std::ostream& out);

}  // namespace kpreempt::render
