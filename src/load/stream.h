// SPDX-License-Identifier: Apache-2.0
// Walks an event stream's documents, Lists and items, decoding one object at a time.
#pragma once

#include "load/decode.h"

#include "kpreempt/load/events.h"

#include <cstddef>

namespace kpreempt::load {

// Decodes every object of `src` into ctx.out. A bad object becomes a diagnostic and the walk
// goes on; a syntax error ends it with a diagnostic. Past the first
// k_max_diagnostics_per_file of a stream, diagnostics are counted, not kept: a file of a
// million bad lines must not take gigabytes to say so.
inline constexpr std::size_t k_max_diagnostics_per_file = 1000;
void read_stream(EventSource& src, DecodeContext& ctx);

}  // namespace kpreempt::load
