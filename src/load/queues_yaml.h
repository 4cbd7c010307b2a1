// SPDX-License-Identifier: Apache-2.0
// YuniKorn's queues.yaml: strict parsing into model::YunikornConfig, and the decoders that find
// it in a dump (ConfigMap yunikorn/yunikorn-configs, or a bare queues.yaml document).
#pragma once

#include "load/decode.h"

#include "kpreempt/model/yunikorn.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace kpreempt::load {

// Where the queue file's text sits in the input, so that messages point into the dump: line
// `first_line` of the file holds the text's first line, shifted right by `indent` columns
// (a block scalar's indentation). `what` prefixes messages ("ConfigMap yunikorn/yunikorn-configs:
// data.queues.yaml").
struct QueuesYamlOrigin {
  std::string file;
  std::uint32_t first_line = 1;
  std::uint32_t first_column = 1;  // column of the text's first line (non-block strings)
  std::uint32_t indent = 0;
  bool block = false;  // lines after the first start at column indent + 1
  std::string what = "queues.yaml";
};

// Where the string value at `value` starts in the dump (a block scalar's text starts on the
// line after its key). `what` names it in messages.
QueuesYamlOrigin origin_of(const Field& value, const std::string& text, const std::string& what);

// Parses the text as yunikorn-core's configs.ParseAndValidateConfig does: unknown fields,
// bad quantities, bad queue names, duplicate queues or partitions and resources on root are
// errors (InputError at the offending line of the input).
model::YunikornConfig parse_queues_yaml(std::string_view text, const QueuesYamlOrigin& origin);

}  // namespace kpreempt::load
