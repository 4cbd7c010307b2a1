// SPDX-License-Identifier: Apache-2.0
// Format sniffing for open_source() and the generic way to skip a value.
#include "load/sources.h"

#include "kpreempt/load/events.h"

#include <string_view>

namespace kpreempt::load {
namespace {

constexpr std::string_view k_bom = "\xEF\xBB\xBF";

bool is_blank(int c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Looks at the first non-blank byte without consuming anything the chosen parser needs. Only
// the buffered window is examined: a file that starts with more than a buffer of blanks is
// taken for YAML, which reads it correctly anyway.
bool looks_like_json(ByteReader& in) {
  std::string_view w = in.window();
  if (w.substr(0, k_bom.size()) == k_bom) {
    w.remove_prefix(k_bom.size());
  }
  for (char c : w) {
    if (!is_blank(static_cast<unsigned char>(c))) {
      return c == '{' || c == '[';
    }
  }
  return false;
}

std::unique_ptr<EventSource> open(std::unique_ptr<ByteReader> in) {
  if (looks_like_json(*in)) {
    return make_json_source(std::move(in));
  }
  return make_yaml_source(std::move(in));
}

std::string display_name(std::string name) {
  return name == "-" ? "<stdin>" : name;
}

}  // namespace

void skip_open_collections(EventSource& src, int depth) {
  while (depth > 0) {
    switch (src.next().type) {
      case EventType::map_start:
      case EventType::seq_start:
        ++depth;
        break;
      case EventType::map_end:
      case EventType::seq_end:
        --depth;
        break;
      case EventType::stream_end:
        return;
      default:
        break;
    }
  }
}

void EventSource::skip_value_rest() {
  skip_open_collections(*this, 1);
}

std::unique_ptr<EventSource> open_source(std::FILE* file, std::string name,
                                         std::atomic<std::uint64_t>* progress) {
  return open(std::make_unique<ByteReader>(file, display_name(std::move(name)), progress));
}

std::unique_ptr<EventSource> open_source(std::string_view data, std::string name) {
  return open(std::make_unique<ByteReader>(data, display_name(std::move(name))));
}

}  // namespace kpreempt::load
