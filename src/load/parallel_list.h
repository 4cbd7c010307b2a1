// SPDX-License-Identifier: Apache-2.0
// Reading one big kubectl List on several cores.
#pragma once

#include "load/decode.h"

#include <cstdint>
#include <string>

namespace kpreempt::load {

// Reads `path` when it is a List laid out exactly as `kubectl get -o yaml|json` prints one:
// the items are split at item boundaries, each part is parsed and decoded on its own thread
// into its own builder, and the parts are joined in input order with their lines moved back
// into place, so the result equals a one-thread read. Returns false having changed nothing
// when the file is small, is laid out otherwise, or a part meets a syntax error or anything
// the split could read differently; the caller then reads the file the ordinary way.
// Parts are at least `min_part` bytes (tests lower it to split small files).
inline constexpr std::uint64_t k_default_min_part = std::uint64_t{32} << 20;
bool load_list_in_parts(const std::string& path, unsigned threads, DecodeContext& ctx,
                        std::uint64_t min_part = k_default_min_part);

}  // namespace kpreempt::load
