// SPDX-License-Identifier: Apache-2.0
// A fast reader for the YAML kubectl writes (go-yaml's block style), giving exactly the events
// libyaml gives for the same bytes. It declines anything outside that subset instead of
// guessing, and the caller then reads the input with libyaml.
#pragma once

#include "load/byte_reader.h"

#include "kpreempt/load/events.h"

#include <memory>

namespace kpreempt::load {

// Thrown by the kubectl reader on input outside its subset (anchors, tags, flow collections
// with content, comments, tabs, odd indentation, syntax errors ...). Every event handed out
// before it equals libyaml's; what the caller built from them should be thrown away.
struct ScanDeclined {};

// Reads block mappings and sequences (including kubectl's sequences at their key's
// indentation), plain, quoted and literal block scalars, and `[]` / `{}`. The events, marks,
// texts and styles are libyaml's.
std::unique_ptr<EventSource> make_kubectl_yaml_source(std::unique_ptr<ByteReader> in);

}  // namespace kpreempt::load
