// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: decoding a snapshot file (.kps), planted or damaged. An input that starts
// with the magic bytes is decoded as a whole file; any other is taken for a payload and given
// a valid header (length and checksum), so that mutations reach the payload decoder. A
// SnapshotError is the only failure allowed; a decoded snapshot must hold checked values.
#include "kpreempt/cache/snapshot_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

using namespace kpreempt;

constexpr std::string_view k_magic("\x89KPSNAP\n", 8);

template <class I>
void put_int(std::string& out, I v) {
  for (std::size_t i = 0; i < sizeof v; ++i) {
    out += static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xFF);
  }
}

void put_string(std::string& out, std::string_view s) {
  put_int(out, static_cast<std::uint32_t>(s.size()));
  out += s;
}

// The container encode() writes, around any payload.
std::string with_header(std::string_view payload) {
  std::string out(k_magic);
  put_int(out, cache::k_format_version);
  put_string(out, cache::tool_version());
  put_string(out, "");
  put_int(out, static_cast<std::uint64_t>(payload.size()));
  put_int(out, cache::checksum(payload));
  return out + std::string(payload);
}

void check(const cache::SnapshotFile& f) {
  for (const Diagnostic& d : f.load_diags) {
    if (format(d).empty()) {
      std::abort();
    }
  }
  // What decodes must encode again to a file that decodes.
  (void)cache::decode(cache::encode(f, ""));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  try {
    check(cache::decode(in.starts_with(k_magic) ? std::string(in) : with_header(in)));
  } catch (const cache::SnapshotError&) {
    // refused: the only allowed failure
  }
  return 0;
}
