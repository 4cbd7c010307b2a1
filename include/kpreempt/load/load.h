// SPDX-License-Identifier: Apache-2.0
// Loading cluster dumps: files, folders and stdin, YAML or JSON, into a SnapshotBuilder.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/objects.h"
#include "kpreempt/model/snapshot.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace kpreempt::load {

// Counters another thread may watch while a load runs (the progress line on a terminal).
struct LoadProgress {
  std::atomic<std::uint64_t> bytes{0};    // input bytes read so far
  std::atomic<std::uint64_t> objects{0};  // objects decoded so far
};

struct LoadOptions {
  bool recursive = false;    // -R: descend into sub-folders
  bool derive_pods = false;  // --pod-file: controllers become the pods they would create
  LoadProgress* progress = nullptr;
  // Threads a big kubectl List may be read with (its items split at item boundaries);
  // 0 = one per core.
  unsigned threads = 0;
  // Objects ("group/Kind/namespace/name") another input replaces: read past, not decoded
  // (`kpreempt diff` lays a configuration over a cluster this way).
  const std::unordered_set<std::string>* skip_objects = nullptr;
  // Identify objects by their content even when they carry a uid: two versions of one
  // configuration object exported from a cluster keep its uid.
  bool content_identity = false;
};

// Reads one -f argument: a file, a folder (its *.yaml, *.yml, *.json files in name order,
// sub-folders with `recursive`) or "-" for stdin. Every object of a known kind is decoded
// into `out`; unknown kinds are counted as skipped. Problems go to `diags` (errors abandon
// the object, or the rest of the file for a syntax error); nothing is thrown for bad input.
// The refs of the Pods decoded are appended to `pods` when it is not null.
void load_path(const std::string& path, const LoadOptions& opts, model::SnapshotBuilder& out,
               std::vector<Diagnostic>& diags, std::vector<model::ObjectRef>* pods = nullptr);

// Same for an in-memory document (tests, fuzzers, a file read from git). `name` is used in
// messages.
void load_buffer(std::string_view data, const std::string& name, model::SnapshotBuilder& out,
                 std::vector<Diagnostic>& diags, std::vector<model::ObjectRef>* pods = nullptr);
void load_buffer(std::string_view data, const std::string& name, const LoadOptions& opts,
                 model::SnapshotBuilder& out, std::vector<Diagnostic>& diags);

}  // namespace kpreempt::load
