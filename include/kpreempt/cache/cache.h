// SPDX-License-Identifier: Apache-2.0
// The transparent snapshot cache: a loaded dump is kept as a snapshot file under
// $XDG_CACHE_HOME/kpreempt (or ~/.cache/kpreempt) and reused while its inputs are unchanged.
#pragma once

#include "kpreempt/cache/snapshot_file.h"
#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kpreempt::cache {

// --cache, --no-cache, or neither: on when the inputs are large.
enum class Mode { automatic, on, off };

// Inputs smaller than this are not cached unless --cache is given. The environment variable
// KPREEMPT_CACHE_MIN_BYTES overrides it.
inline constexpr std::uint64_t k_default_min_bytes = 50'000'000;
std::uint64_t min_bytes();

// What identifies a load of the -f inputs: each input's canonical path, size, mtime and a
// hash of its bytes (every file of a folder, and the folders themselves), -R, the tool and
// the format version.
struct Key {
  std::string identity;  // the inputs without sizes and times: names the cache entry
  std::string text;      // identity plus sizes and times: must match the entry's
  std::uint64_t total_bytes = 0;
};
// nullopt when the inputs cannot be cached: stdin, or an input that cannot be read (the
// loader then reports it). `now_ns` (nanoseconds since the epoch; the clock when not given)
// tells which inputs changed so recently that their bytes are hashed too.
std::optional<Key> make_key(const std::vector<std::string>& files, bool recursive,
                            std::optional<std::int64_t> now_ns = std::nullopt);

// $XDG_CACHE_HOME/kpreempt, else $HOME/.cache/kpreempt; nullopt when neither is set.
std::optional<std::filesystem::path> directory();
// The entry file for a key inside `dir`.
std::filesystem::path entry_path(const std::filesystem::path& dir, const Key& key);

// The entry for `key`, or nullopt when absent, stale, truncated or corrupt (never an error).
// An entry or cache folder that cannot be trusted (another user's, writable by others, a
// link, not a regular file, too big) is ignored, and `ignored` says why.
std::optional<SnapshotFile> lookup(const Key& key, std::string* ignored = nullptr);
// Stores the entry; returns why it could not (empty on success or when there is no usable
// cache folder, which is not worth a word).
std::string store(const Key& key, const SnapshotFile& file);

// How the -f inputs are to be read, worked out once: which of them are snapshot files (found
// by their magic bytes), and the cache entry when `mode` asks for the cache.
struct LoadPlan {
  std::vector<std::string> files;
  std::vector<bool> snapshot_files;  // parallel to `files`
  std::optional<Key> key;
  // Nothing a plain load of the files does not do: no snapshot file, no cache.
  bool plain() const;
};
LoadPlan plan_load(const std::vector<std::string>& files, const load::LoadOptions& opts, Mode mode);

// Loads the planned inputs into one snapshot: dumps through the loader, snapshot files by
// reading them, all through the cache when the plan has a key. Problems with the cache
// become warnings in `notes`.
SnapshotFile load_snapshot(const LoadPlan& plan, const load::LoadOptions& opts,
                           std::vector<Diagnostic>& notes);

}  // namespace kpreempt::cache
