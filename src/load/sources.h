// SPDX-License-Identifier: Apache-2.0
// The two event sources behind open_source(), one per input format.
#pragma once

#include "load/byte_reader.h"

#include "kpreempt/load/events.h"

#include <memory>

namespace kpreempt::load {

std::unique_ptr<EventSource> make_yaml_source(std::unique_ptr<ByteReader> in);
std::unique_ptr<EventSource> make_json_source(std::unique_ptr<ByteReader> in);

}  // namespace kpreempt::load
