// SPDX-License-Identifier: Apache-2.0
// Loading the -f inputs through the snapshot cache, with snapshot files among the inputs read
// directly and their objects joined with the others' in input order.
#include "kpreempt/cache/cache.h"

#include <algorithm>

namespace kpreempt::cache {
namespace {

bool any_error(const std::vector<Diagnostic>& diags) {
  return std::any_of(diags.begin(), diags.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::error; });
}

Diagnostic snapshot_error(const std::string& path, const SnapshotError& e) {
  // "cannot open" names the file itself, as the loader's message does.
  SourceLoc loc = e.kind() == SnapshotError::Kind::unreadable ? SourceLoc{} : SourceLoc{path};
  return Diagnostic{Severity::error, std::move(loc), e.what()};
}

template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

SnapshotFile load_uncached(const std::vector<std::string>& files, const load::LoadOptions& opts) {
  SnapshotFile out;
  // A lone snapshot file is used as it is: build() ran when it was written.
  if (files.size() == 1 && looks_like_snapshot(files.front())) {
    try {
      return read_snapshot_file(files.front());
    } catch (const SnapshotError& e) {
      out.load_diags.push_back(snapshot_error(files.front(), e));
      return out;
    }
  }
  model::SnapshotBuilder builder;
  for (const std::string& path : files) {
    if (!looks_like_snapshot(path)) {
      load::load_path(path, opts, builder, out.load_diags);
    } else {
      try {
        SnapshotFile f = read_snapshot_file(path);
        append(out.load_diags, f.load_diags);
        // As if its objects had been read here; build() below runs over all of them.
        builder.append(model::SnapshotBuilder(std::move(f.snapshot)));
      } catch (const SnapshotError& e) {
        out.load_diags.push_back(snapshot_error(path, e));
      }
    }
  }
  out.snapshot = std::move(builder).build(out.build_diags);
  return out;
}

bool all_snapshots(const std::vector<std::string>& files) {
  return std::all_of(files.begin(), files.end(), looks_like_snapshot);
}

// The key when this load goes through the cache. Snapshot files alone are not cached: they
// already load with one read.
std::optional<Key> cache_key(const std::vector<std::string>& files, const load::LoadOptions& opts,
                             Mode mode) {
  if (mode == Mode::off || all_snapshots(files)) {
    return std::nullopt;
  }
  std::optional<Key> key = make_key(files, opts.recursive);
  if (key && mode == Mode::automatic && key->total_bytes <= min_bytes()) {
    return std::nullopt;
  }
  return key;
}

}  // namespace

bool needs_snapshot_load(const std::vector<std::string>& files, const load::LoadOptions& opts,
                         Mode mode) {
  return std::any_of(files.begin(), files.end(), looks_like_snapshot) ||
         cache_key(files, opts, mode).has_value();
}

SnapshotFile load_snapshot(const std::vector<std::string>& files, const load::LoadOptions& opts,
                           Mode mode, std::vector<Diagnostic>& notes) {
  std::optional<Key> key = cache_key(files, opts, mode);
  if (key) {
    if (std::optional<SnapshotFile> hit = lookup(*key)) {
      return std::move(*hit);
    }
  }
  SnapshotFile file = load_uncached(files, opts);
  // A load with errors is never stored: the next run must report them again.
  if (key && !any_error(file.load_diags) && !any_error(file.build_diags)) {
    std::string why = store(*key, file);
    if (!why.empty()) {
      notes.push_back({Severity::warning, {}, "snapshot cache not written: " + why});
    }
  }
  return file;
}

}  // namespace kpreempt::cache
