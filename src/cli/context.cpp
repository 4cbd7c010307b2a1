// SPDX-License-Identifier: Apache-2.0
#include "cli/context.h"

#include "cli/progress.h"

#include "kpreempt/cache/cache.h"
#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"
#include "kpreempt/model/kueue.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace kpreempt::cli {
namespace {

// Past this many errors the rest are counted, not printed: one broken indentation can
// produce thousands.
constexpr std::size_t k_max_printed_errors = 25;

}  // namespace

void print_diagnostics(const std::vector<Diagnostic>& diags, std::ostream& err) {
  std::size_t errors = 0;
  for (const auto& d : diags) {
    if (d.severity == Severity::error && ++errors > k_max_printed_errors) {
      continue;
    }
    err << format(d) << '\n';
  }
  if (errors > k_max_printed_errors) {
    err << fmt::format("kpreempt: error: {} more errors not shown\n",
                       errors - k_max_printed_errors);
  }
}

namespace {

// Workloads that a --pod-file Job became (Kueue decodes labelled Jobs into Workloads).
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

// --pod-file: controllers become the pods they would create.
load::LoadOptions pod_file_opts(load::LoadOptions opts) {
  opts.derive_pods = true;
  return opts;
}

// Loads the -f inputs, then the --pod-file ones, through one builder: the plain path.
void load_plain(const Inputs& in, const load::LoadOptions& opts, Loaded& loaded,
                std::vector<Diagnostic>& diags) {
  model::SnapshotBuilder builder;
  for (const auto& path : in.files) {
    load::load_path(path, opts, builder, diags);
  }
  for (const auto& path : in.pod_files) {
    load::load_path(path, pod_file_opts(opts), builder, diags, &loaded.what_if_pods);
  }
  loaded.snapshot = std::move(builder).build(diags);
}

// The -f inputs come from the cache or a snapshot file; --pod-file objects are added to that
// snapshot and build() runs again over the whole, which reports its diagnostics afresh.
void load_over_snapshot(const Inputs& in, const cache::LoadPlan& plan,
                        const load::LoadOptions& opts, Loaded& loaded,
                        std::vector<Diagnostic>& diags) {
  std::vector<Diagnostic> notes;
  cache::SnapshotFile base = cache::load_snapshot(plan, opts, notes);
  diags = std::move(base.load_diags);
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
      loaded.snapshot = std::move(builder).build(diags);
    }
  }
  diags.insert(diags.end(), notes.begin(), notes.end());
}

}  // namespace

void add_cache_flags(CLI::App& cmd, Inputs& in) {
  auto* on = cmd.add_flag("--cache", in.cache,
                          "keep the loaded dump in the snapshot cache and reuse it while the "
                          "inputs are unchanged (default: only for inputs over 50 MB, or "
                          "KPREEMPT_CACHE_MIN_BYTES)");
  cmd.add_flag("--no-cache", in.no_cache, "neither read nor write the snapshot cache")
      ->excludes(on);
}

std::optional<Loaded> load_inputs(const Inputs& in, const Streams& io) {
  std::vector<Diagnostic> diags;
  load::LoadProgress progress;
  load::LoadOptions opts{in.recursive};
  opts.progress = &progress;
  cache::Mode mode = in.no_cache ? cache::Mode::off
                     : in.cache  ? cache::Mode::on
                                 : cache::Mode::automatic;
  Loaded loaded;
  {
    LoadProgressLine line(progress, in.files);
    if (const cache::LoadPlan plan = cache::plan_load(in.files, opts, mode); !plan.plain()) {
      load_over_snapshot(in, plan, opts, loaded, diags);
    } else {
      load_plain(in, opts, loaded, diags);
    }
  }
  loaded.what_if_workloads = workloads_from(loaded.snapshot, in.pod_files);
  if (!in.pod_files.empty() && loaded.what_if_pods.empty() && loaded.what_if_workloads.empty() &&
      !any_error(diags)) {
    diags.push_back({Severity::error,
                     {in.pod_files.front(), 0, 0},
                     "--pod-file holds no Pod, nor a Deployment, ReplicaSet, StatefulSet, Job or "
                     "CronJob with pods to create"});
  }
  print_diagnostics(diags, io.err);
  if (any_error(diags)) {
    return std::nullopt;
  }
  return loaded;
}

bool use_color(const std::string& mode, bool is_stdout_tty) {
  if (mode == "always") {
    return true;
  }
  if (mode == "never") {
    return false;
  }
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  if ((no_color != nullptr && *no_color != '\0') ||
      (term != nullptr && std::string_view(term) == "dumb")) {
    return false;
  }
  return is_stdout_tty;
}

std::pair<std::string, std::string> split_ref(const std::string& text, const char* flag) {
  auto slash = text.find('/');
  if (slash == std::string::npos) {
    if (text.empty()) {
      throw UsageError(fmt::format("{}: expected NAMESPACE/NAME, got an empty value", flag));
    }
    return {"default", text};
  }
  if (slash == 0 || slash + 1 == text.size() || text.find('/', slash + 1) != std::string::npos) {
    throw UsageError(fmt::format("{}: expected NAMESPACE/NAME, got \"{}\"", flag, text));
  }
  return {text.substr(0, slash), text.substr(slash + 1)};
}

std::string closest_pod(const model::Snapshot& snap, const std::string& ns,
                        const std::string& name) {
  std::string wanted = ns + "/" + name;
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(3, wanted.size() / 3) + 1;
  for (const auto& pod : snap.pods()) {
    std::string candidate = pod.namespace_ + "/" + pod.name;
    std::size_t d = edit_distance(wanted, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = std::move(candidate);
    }
  }
  return best;
}

}  // namespace kpreempt::cli
