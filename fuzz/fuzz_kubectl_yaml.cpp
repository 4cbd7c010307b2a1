// SPDX-License-Identifier: Apache-2.0
// libFuzzer target, differential: whenever the kubectl reader takes an input, its events
// (types, marks, texts, styles) equal libyaml's; when it declines, the events it handed out
// before are libyaml's first ones.
#include "load/byte_reader.h"
#include "load/kubectl_yaml.h"
#include "load/sources.h"

#include "kpreempt/diag.h"
#include "kpreempt/load/events.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace kpreempt::load;

struct Seen {
  EventType type;
  std::uint32_t line, column;
  std::string text;
  ScalarStyle style;
  bool operator==(const Seen&) const = default;
};

// Events until the stream's end; `failed` when the source threw.
template <typename Failure>
std::vector<Seen> events(EventSource& src, bool& failed) {
  std::vector<Seen> out;
  try {
    for (;;) {
      const Event& e = src.next();
      out.push_back({e.type, e.mark.line, e.mark.column, std::string(e.text), e.style});
      if (e.type == EventType::stream_end) {
        return out;
      }
    }
  } catch (const Failure&) {
    failed = true;
  }
  return out;
}

void dump(const char* what, const std::vector<Seen>& evs) {
  std::fprintf(stderr, "%s:\n", what);
  for (const Seen& e : evs) {
    std::fprintf(stderr, "  %d %u:%u %s '%s'\n", static_cast<int>(e.type), e.line, e.column,
                 e.style == ScalarStyle::quoted ? "q" : "p", e.text.c_str());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  bool yaml_failed = false;
  std::vector<Seen> want;
  try {
    auto libyaml = make_yaml_source(std::make_unique<ByteReader>(in, "fuzz.yaml"));
    want = events<kpreempt::InputError>(*libyaml, yaml_failed);
  } catch (const kpreempt::InputError&) {
    yaml_failed = true;  // refused before the first event (UTF-16, binary)
  }
  bool declined = false;
  auto kubectl = make_kubectl_yaml_source(std::make_unique<ByteReader>(in, "fuzz.yaml"));
  const std::vector<Seen> got = events<ScanDeclined>(*kubectl, declined);
  const std::size_t common = std::min(got.size(), want.size());
  const bool same_start = std::equal(got.begin(), got.begin() + common, want.begin());
  const bool ok = declined ? same_start && (yaml_failed || got.size() <= want.size())
                           : !yaml_failed && got == want;
  if (!ok) {
    std::fprintf(stderr, "declined=%d libyaml failed=%d\n", declined, yaml_failed);
    dump("kubectl reader", got);
    dump("libyaml", want);
    std::abort();
  }
  return 0;
}
