// SPDX-License-Identifier: Apache-2.0
// One pull interface over the parsers: libyaml's event parser for YAML; simdjson for JSON, a
// chunk at a time, with RapidJSON's SAX reader wherever simdjson would read otherwise (same
// events, same messages). Bounded memory whatever the input size.
#pragma once

#include "kpreempt/diag.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace kpreempt::load {

struct Mark {
  std::uint32_t line = 0;    // 1-based
  std::uint32_t column = 0;  // 1-based
};

enum class EventType {
  document_start,  // YAML "---" or implicit start; JSON: before each top-level value
  document_end,
  map_start,
  map_end,
  seq_start,
  seq_end,
  scalar,  // also every map key
  stream_end,
};

// How a scalar was written. YAML: plain vs quoted/block; JSON: string is quoted, numbers,
// true/false/null are plain. Decoders use it to tell `"1"` from `1` and `null` from "null".
enum class ScalarStyle { plain, quoted };

struct Event {
  EventType type = EventType::stream_end;
  Mark mark;              // where the event starts
  std::string_view text;  // scalar text; valid until the next call to next()
  ScalarStyle style = ScalarStyle::plain;
};

class EventSource {
 public:
  virtual ~EventSource() = default;
  // The next event. Throws InputError (with file:line:col) on a syntax error, on YAML
  // aliases/anchors (kubectl never writes them; refusing them also stops alias bombs) and on
  // read errors. After stream_end, keeps returning stream_end.
  virtual const Event& next() = 0;
  // Skips the rest of the value whose start event was just returned (map/seq), cheaply where
  // the format allows.
  virtual void skip_value_rest();
  virtual const std::string& file_name() const = 0;
};

// Opens `file` (owned by the source and closed with it). `name` is what messages call it
// ("-" is shown as "<stdin>"). The format is chosen by the first non-blank byte: '{' or '['
// means JSON, anything else YAML.
// `progress`, when given, counts the bytes read.
std::unique_ptr<EventSource> open_source(std::FILE* file, std::string name,
                                         std::atomic<std::uint64_t>* progress = nullptr);

// Same, over an in-memory buffer (tests, fuzzers). The buffer must outlive the source.
std::unique_ptr<EventSource> open_source(std::string_view data, std::string name);

}  // namespace kpreempt::load
