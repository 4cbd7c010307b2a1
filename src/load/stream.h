// SPDX-License-Identifier: Apache-2.0
// Walks an event stream's documents, Lists and items, decoding one object at a time.
#pragma once

#include "load/decode.h"

#include "kpreempt/load/events.h"

namespace kpreempt::load {

// Decodes every object of `src` into ctx.out. A bad object becomes a diagnostic and the walk
// goes on; a syntax error ends it with a diagnostic.
void read_stream(EventSource& src, DecodeContext& ctx);

}  // namespace kpreempt::load
