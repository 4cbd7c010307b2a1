// SPDX-License-Identifier: Apache-2.0
// Loading the inputs of explain, check, matrix, snapshot and the completion lister alike:
// the -f inputs through the cache or snapshot files when planned, pod files on top.
#include "kpreempt/scenario/inputs.h"

#include "kpreempt/cache/snapshot_file.h"
#include "kpreempt/model/kueue.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::scenario {
namespace {

// Workloads that a pod-file Job became (Kueue decodes labelled Jobs into Workloads).
std::vector<std::uint32_t> workloads_from(const model::Snapshot& snap,
                                          const std::vector<std::string>& files) {
  std::vector<std::uint32_t> ids;
  const auto& workloads = snap.kueue().workloads;
  for (std::uint32_t i = 0; i < workloads.size(); ++i) {
    const model::Workload& w = workloads[i];
    if (w.derived_from && std::find(files.begin(), files.end(), w.loc.file) != files.end()) {
      ids.push_back(i);
    }
  }
  return ids;
}

// Pod files: controllers become the pods they would create (a DaemonSet's when the snapshot
// is built, which appends them to what_if_pods).
load::LoadOptions pod_file_opts(load::LoadOptions opts) {
  opts.derive_pods = true;
  return opts;
}

// Loads the -f inputs, then the pod files, through one builder: the plain path.
void load_plain(const InputSpec& in, const load::LoadOptions& opts, LoadedInputs& loaded,
                std::vector<Diagnostic>& diags) {
  model::SnapshotBuilder builder;
  load::LoadOptions cluster_opts = opts;
  cluster_opts.skip_objects = in.replaced;
  for (const auto& path : in.files) {
    load::load_path(path, cluster_opts, builder, diags);
  }
  load_config(in.overlay, in.recursive, false, builder, diags);
  for (const auto& path : in.pod_files) {
    load::load_path(path, pod_file_opts(opts), builder, diags, &loaded.what_if_pods);
  }
  loaded.snapshot = std::move(builder).build(diags, &loaded.what_if_pods);
}

// The -f inputs come from the cache or a snapshot file; pod-file objects are added to that
// snapshot and build() runs again over the whole, which reports its diagnostics afresh.
void load_over_snapshot(const InputSpec& in, const cache::LoadPlan& plan,
                        const load::LoadOptions& opts, LoadedInputs& loaded,
                        std::vector<Diagnostic>& diags) {
  std::vector<Diagnostic> notes;
  cache::SnapshotFile base = cache::load_snapshot(plan, opts, notes);
  diags.insert(diags.end(), base.load_diags.begin(), base.load_diags.end());
  if (in.pod_files.empty()) {
    loaded.snapshot = std::move(base.snapshot);
    diags.insert(diags.end(), base.build_diags.begin(), base.build_diags.end());
  } else {
    bool base_failed = any_error(diags) || any_error(base.build_diags);
    model::SnapshotBuilder builder(std::move(base.snapshot));
    for (const auto& path : in.pod_files) {
      load::load_path(path, pod_file_opts(opts), builder, diags, &loaded.what_if_pods);
    }
    if (base_failed) {
      // build() over a snapshot that already dropped bad objects would not report them again.
      diags.insert(diags.end(), base.build_diags.begin(), base.build_diags.end());
    } else {
      loaded.snapshot = std::move(builder).build(diags, &loaded.what_if_pods);
    }
  }
  diags.insert(diags.end(), notes.begin(), notes.end());
}

}  // namespace

LoadedInputs load_inputs(const InputSpec& spec, std::vector<Diagnostic>& diags) {
  load::LoadOptions opts{spec.recursive};
  opts.progress = spec.progress;
  LoadedInputs loaded;
  const cache::Mode cache_mode =
      spec.replaced != nullptr || !spec.overlay.empty() ? cache::Mode::off : spec.cache;
  if (const cache::LoadPlan plan = cache::plan_load(spec.files, opts, cache_mode); !plan.plain()) {
    if (cache_mode == cache::Mode::off) {
      // A snapshot file's objects are decoded already: none can be left out for the overlay.
      diags.push_back({Severity::error, SourceLoc{},
                       "a configuration cannot be laid over a snapshot file; give the dump "
                       "it was made from"});
      return loaded;
    }
    load_over_snapshot(spec, plan, opts, loaded, diags);
  } else {
    load_plain(spec, opts, loaded, diags);
  }
  loaded.what_if_workloads = workloads_from(loaded.snapshot, spec.pod_files);
  if (!spec.pod_files.empty() && loaded.what_if_pods.empty() && loaded.what_if_workloads.empty() &&
      !any_error(diags)) {
    diags.push_back({Severity::error,
                     {spec.pod_files.front(), 0, 0},
                     fmt::format("{} holds {}", spec.pod_file_key, k_pod_file_kinds)});
  }
  return loaded;
}

cache::SnapshotFile load_dump(const InputSpec& spec, std::vector<Diagnostic>& notes) {
  load::LoadOptions opts{spec.recursive};
  opts.progress = spec.progress;
  return cache::load_snapshot(cache::plan_load(spec.files, opts, spec.cache), opts, notes);
}

}  // namespace kpreempt::scenario
