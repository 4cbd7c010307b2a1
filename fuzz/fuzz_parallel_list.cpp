// SPDX-License-Identifier: Apache-2.0
// libFuzzer target, differential: a kubectl List read in parts (tiny parts, several threads)
// must give exactly what the one-thread read of the same bytes gives, or be declined.
#include "load/decode.h"
#include "load/parallel_list.h"

#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"
#include "kpreempt/model/snapshot.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace kpreempt;

std::string where(const SourceLoc& loc) {
  return fmt::format("{}:{}:{}", loc.file, loc.line, loc.column);
}

// What a wrong split could change: the objects, their order and lines, and every message.
std::string digest(model::SnapshotBuilder builder, std::vector<Diagnostic> diags) {
  model::Snapshot s = std::move(builder).build(diags);
  std::string out;
  for (const model::Node& n : s.nodes()) {
    out += fmt::format("node {} {} {}\n", n.name, where(n.loc), n.labels.size());
  }
  for (const model::Pod& p : s.pods()) {
    out += fmt::format("pod {}/{} {} {} {} {}\n", p.namespace_, p.name, where(p.loc), p.node_name,
                       p.containers.size(), p.priority.value_or(-1));
  }
  for (const model::PriorityClass& c : s.priority_classes()) {
    out += fmt::format("class {} {} {}\n", c.name, where(c.loc), c.value);
  }
  for (const auto& [kind, count] : s.skipped_kinds()) {
    out += fmt::format("skipped {} {}\n", kind, count);
  }
  for (const Diagnostic& d : diags) {
    out += format(d) + "\n";
  }
  return out;
}

// The fuzzed bytes are a List's items; the first byte chooses kubectl's YAML or JSON layout.
std::string as_list(std::string_view data) {
  if (!data.empty() && data[0] == 'J') {
    return "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n" +
           std::string(data.substr(1)) +
           "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": "
           "\"\"\n    }\n}\n";
  }
  return "apiVersion: v1\nitems:\n- " + std::string(data) +
         "\nkind: List\nmetadata:\n  resourceVersion: \"\"\n";
}

const std::string& temp_path() {
  static const std::string path = fmt::format("/tmp/kpreempt-fuzz-parts-{}.yaml", ::getpid());
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string list = as_list(std::string_view(reinterpret_cast<const char*>(data), size));
  std::FILE* f = std::fopen(temp_path().c_str(), "wb");
  if (f == nullptr || std::fwrite(list.data(), 1, list.size(), f) != list.size()) {
    std::abort();
  }
  std::fclose(f);

  model::SnapshotBuilder parts;
  std::vector<Diagnostic> parts_diags;
  load::DecodeContext ctx{parts, parts_diags};
  if (!load::load_list_in_parts(temp_path(), 4, ctx, 64)) {
    return 0;  // declined: the one-thread read is what runs
  }
  model::SnapshotBuilder whole;
  std::vector<Diagnostic> whole_diags;
  load::LoadOptions opts;
  opts.threads = 1;
  load::load_path(temp_path(), opts, whole, whole_diags);
  const std::string from_parts = digest(std::move(parts), std::move(parts_diags));
  const std::string from_whole = digest(std::move(whole), std::move(whole_diags));
  if (from_parts != from_whole) {
    std::fprintf(stderr, "read in parts:\n%s\nread whole:\n%s\n", from_parts.c_str(),
                 from_whole.c_str());
    std::abort();
  }
  return 0;
}
