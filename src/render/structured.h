// SPDX-License-Identifier: Apache-2.0
// Machine-readable renderers.
#pragma once

#include "kpreempt/render/render.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <vector>

namespace kpreempt::render {

void render_json(const model::Snapshot& snap, const std::vector<Explanation>& all,
                 std::ostream& out);
void render_yaml(const model::Snapshot& snap, const std::vector<Explanation>& all,
                 std::ostream& out);
// Any document (a list, a report) as JSON, or as YAML when `yaml`.
void print_structured(const nlohmann::ordered_json& doc, bool yaml, std::ostream& out);
// Human-readable: `wide` adds a verdict for every pod on every node.
void render_text(const model::Snapshot& snap, const std::vector<Explanation>& all, bool wide,
                 const Style& style, std::ostream& out);

}  // namespace kpreempt::render
