// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the simdjson JSON source against the RapidJSON one on arbitrary bytes. Both
// must give the same events (type, style, text, mark) and the same error, read whole and cut
// into small chunks, with and without skipping values.
#include "load/sources.h"

#include "kpreempt/diag.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

namespace {

using namespace kpreempt::load;

// Every event as a line, ending with the error if any. With `skip`, every map opened below
// the top level is skipped after its start.
std::string dump(EventSource& src, bool skip) {
  std::string out;
  int depth = 0;
  try {
    for (;;) {
      const Event& ev = src.next();
      out += std::to_string(static_cast<int>(ev.type)) +
             (ev.style == ScalarStyle::quoted ? " q " : " p ") + std::string(ev.text) + "@" +
             std::to_string(ev.mark.line) + ":" + std::to_string(ev.mark.column) + "\n";
      if (ev.type == EventType::stream_end) {
        return out;
      }
      if (ev.type == EventType::map_start || ev.type == EventType::seq_start) {
        if (skip && depth >= 1 && ev.type == EventType::map_start) {
          src.skip_value_rest();
          out += "skipped\n";
        } else {
          ++depth;
        }
      } else if (ev.type == EventType::map_end || ev.type == EventType::seq_end) {
        --depth;
      }
    }
  } catch (const kpreempt::InputError& e) {
    return out + "error " + std::to_string(e.loc().line) + ":" + std::to_string(e.loc().column) +
           ": " + e.what() + "\n";
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  for (bool skip : {false, true}) {
    std::string want = dump(*make_rapidjson_source(std::make_unique<ByteReader>(in, "in")), skip);
    for (std::size_t chunk : {k_json_chunk_bytes, std::size_t{1}, std::size_t{64}}) {
      if (dump(*make_json_source(std::make_unique<ByteReader>(in, "in"), chunk), skip) != want) {
        std::abort();
      }
    }
  }
  return 0;
}
