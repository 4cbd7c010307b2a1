// SPDX-License-Identifier: Apache-2.0
// Snapshot files (.kps): a loaded cluster snapshot in a compact, versioned binary form that
// loads with one read, for `kpreempt snapshot` and the transparent snapshot cache.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/snapshot.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::cache {

// Bumped whenever the layout of any model struct in the payload changes.
inline constexpr std::uint32_t k_format_version = 13;

// A snapshot with the diagnostics its loading produced, so that reading it back prints the
// same warnings. Loading diagnostics are kept apart from build() ones because adding inputs
// to a stored snapshot runs build() again, which reports its own afresh.
struct SnapshotFile {
  model::Snapshot snapshot;
  std::vector<Diagnostic> load_diags;
  std::vector<Diagnostic> build_diags;
};

class SnapshotError : public std::runtime_error {
 public:
  enum class Kind { unreadable, bad_magic, version, corrupt, other_key };
  SnapshotError(Kind kind, const std::string& message)
      : std::runtime_error(message), m_kind(kind) {}
  Kind kind() const { return m_kind; }

 private:
  Kind m_kind;
};

// The version of kpreempt recorded in (and required of) snapshot files.
std::string_view tool_version();

// True when the file starts with a snapshot file's magic bytes, whatever its name: a YAML file
// named *.kps is read as YAML. Folders, FIFOs and "-" are never snapshots.
bool looks_like_snapshot(const std::string& path);

// The complete file. `key` identifies the inputs of a cache entry (empty for a file written
// by `kpreempt snapshot`); `version` is for tests that need a file of another release.
std::string encode(const SnapshotFile& file, std::string_view key,
                   std::string_view version = tool_version());

// Checks magic, format and tool version, length and checksum, then decodes. When `key` is
// not empty, a file for other inputs throws Kind::other_key. Throws SnapshotError (message
// without the file name, e.g. "not a kpreempt snapshot (bad magic)").
SnapshotFile decode(std::string_view bytes, std::string_view key = {});

// decode() of a file read with a single read. Throws SnapshotError, also when the file is
// not a regular file (a FIFO would block the read).
SnapshotFile read_snapshot_file(const std::string& path, std::string_view key = {});

// What a cache entry must be before it is read: a regular file, not reached through a link,
// owned by this user, and at most max_bytes long (a planted sparse file would take gigabytes).
struct EntryRules {
  std::uint64_t max_bytes = 0;
};
SnapshotFile read_cache_entry(const std::string& path, std::string_view key,
                              const EntryRules& rules);

// Whether `path` is a snapshot file of another format or kpreempt release (a stale entry).
bool other_version(const std::string& path);

// The 64-bit checksum of snapshot payloads (several GB/s), also used to fingerprint inputs.
std::uint64_t checksum(std::string_view data);

// Writes encode() to a temporary file next to `path`, then renames it over `path`, so that
// readers never see half a file. Returns why it failed, or an empty string.
std::string write_snapshot_file(const std::string& path, const SnapshotFile& file,
                                std::string_view key = {});

}  // namespace kpreempt::cache
