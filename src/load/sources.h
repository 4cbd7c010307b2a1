// SPDX-License-Identifier: Apache-2.0
// The event sources behind open_source(): one for YAML, two for JSON.
#pragma once

#include "load/byte_reader.h"

#include "kpreempt/load/events.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace kpreempt::load {

std::unique_ptr<EventSource> make_yaml_source(std::unique_ptr<ByteReader> in);

// JSON: simdjson where it reads the input exactly as RapidJSON does, RapidJSON for the rest
// (json_simd_source.cpp). A top-level array is parsed `chunk_bytes` at a time, about (tests
// lower it to cut small inputs).
inline constexpr std::size_t k_json_chunk_bytes = std::size_t{512} << 10;
std::unique_ptr<EventSource> make_json_source(std::unique_ptr<ByteReader> in,
                                              std::size_t chunk_bytes = k_json_chunk_bytes);
// Whether `src`, made by make_json_source, has handed its input to RapidJSON (tests: the fast
// path must stay the one taken on the layouts it is for).
bool json_source_fell_back(const EventSource& src);

// Where a RapidJSON read resumes in the middle of an input: the reader's first byte is at
// `offset` of the whole input (counted after a byte order mark), on line `line`, which
// starts at `line_start`.
struct JsonResume {
  std::uint64_t offset = 0;
  std::uint64_t line_start = 0;
  std::uint32_t line = 1;
};

// Reads events from `src` until `depth` open collections have closed (or the stream ends).
void skip_open_collections(EventSource& src, int depth);

// JSON through RapidJSON's SAX reader alone (json_source.cpp), from the start of the input or
// from `at`.
std::unique_ptr<EventSource> make_rapidjson_source(std::unique_ptr<ByteReader> in,
                                                   const JsonResume* at = nullptr);

}  // namespace kpreempt::load
