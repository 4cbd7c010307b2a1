// SPDX-License-Identifier: Apache-2.0
// Loading the -f inputs through the snapshot cache, with snapshot files among the inputs read
// directly and their objects joined with the others' in input order.
#include "kpreempt/cache/cache.h"

#include <algorithm>

namespace kpreempt::cache {
namespace {

Diagnostic snapshot_error(const std::string& path, const SnapshotError& e) {
  // "cannot open" names the file itself, as the loader's message does.
  SourceLoc loc = e.kind() == SnapshotError::Kind::unreadable ? SourceLoc{} : SourceLoc{path};
  return Diagnostic{Severity::error, std::move(loc), e.what()};
}

template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

SnapshotFile load_uncached(const LoadPlan& plan, const load::LoadOptions& opts) {
  SnapshotFile out;
  // A lone snapshot file is used as it is: build() ran when it was written.
  if (plan.files.size() == 1 && plan.snapshot_files.front()) {
    try {
      return read_snapshot_file(plan.files.front());
    } catch (const SnapshotError& e) {
      out.load_diags.push_back(snapshot_error(plan.files.front(), e));
      return out;
    }
  }
  model::SnapshotBuilder builder;
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    const std::string& path = plan.files[i];
    if (!plan.snapshot_files[i]) {
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

}  // namespace

bool LoadPlan::plain() const {
  return !key && std::none_of(snapshot_files.begin(), snapshot_files.end(),
                              [](bool snapshot) { return snapshot; });
}

LoadPlan plan_load(const std::vector<std::string>& files, const load::LoadOptions& opts,
                   Mode mode) {
  LoadPlan plan{files, {}, std::nullopt};
  for (const std::string& f : files) {
    plan.snapshot_files.push_back(looks_like_snapshot(f));
  }
  // Snapshot files alone are not cached: they already load with one read.
  const bool all_snapshots = std::all_of(plan.snapshot_files.begin(), plan.snapshot_files.end(),
                                         [](bool snapshot) { return snapshot; });
  if (mode == Mode::off || all_snapshots) {
    return plan;
  }
  plan.key = make_key(files, opts.recursive);
  if (plan.key && mode == Mode::automatic && plan.key->total_bytes <= min_bytes()) {
    plan.key.reset();
  }
  return plan;
}

SnapshotFile load_snapshot(const LoadPlan& plan, const load::LoadOptions& opts,
                           std::vector<Diagnostic>& notes) {
  std::string ignored;
  if (plan.key) {
    if (std::optional<SnapshotFile> hit = lookup(*plan.key, &ignored)) {
      return std::move(*hit);
    }
    if (!ignored.empty()) {
      // Said once; what is not trusted is not written over either.
      notes.push_back({Severity::warning, {}, "snapshot cache ignored: " + ignored});
    }
  }
  SnapshotFile file = load_uncached(plan, opts);
  // A load with errors is never stored: the next run must report them again.
  if (plan.key && ignored.empty() && !any_error(file.load_diags) && !any_error(file.build_diags)) {
    std::string why = store(*plan.key, file);
    if (!why.empty()) {
      notes.push_back({Severity::warning, {}, "snapshot cache not written: " + why});
    }
  }
  return file;
}

}  // namespace kpreempt::cache
