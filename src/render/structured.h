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
// print_structured for a document of explanations, which on a big cluster is left to the
// operating system at exit rather than freed value by value.
void print_explanations(nlohmann::ordered_json&& doc, const model::Snapshot& snap, bool yaml,
                        std::ostream& out);
// The one-line notes a text answer prints under "note": what changes how it reads (upstream
// samples the nodes at random; the policy's warnings about what it does not model).
std::vector<std::string> decision_notes(const policy::Decision& d);
// The note for upstream's sample of nodes, for a decision that carries upstream-window.
extern const char* const k_sample_note;
// Human-readable: `wide` adds a verdict for every pod on every node.
void render_text(const model::Snapshot& snap, const std::vector<Explanation>& all, bool wide,
                 const Style& style, std::ostream& out);

}  // namespace kpreempt::render
