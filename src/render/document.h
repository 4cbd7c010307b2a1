// SPDX-License-Identifier: Apache-2.0
// The structured form of an explanation, shared by the JSON and YAML renderers so both print
// the same document.
#pragma once

#include "kpreempt/render/render.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace kpreempt::render {

inline constexpr const char* k_api_version = "kpreempt/v1alpha1";

// One Explanation as an object; several as a List of them.
nlohmann::ordered_json to_document(const model::Snapshot& snap,
                                   const std::vector<Explanation>& all);

// Always a List (ExplanationList), whatever the count: for the outputs that add a summary.
nlohmann::ordered_json explanation_list(const model::Snapshot& snap,
                                        const std::vector<Explanation>& all);

}  // namespace kpreempt::render
