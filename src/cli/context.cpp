// SPDX-License-Identifier: Apache-2.0
#include "cli/context.h"

#include "cli/progress.h"

#include "kpreempt/cache/cache.h"
#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"

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
  scenario::InputSpec spec;
  spec.files = in.files;
  spec.recursive = in.recursive;
  spec.pod_files = in.pod_files;
  spec.cache = in.no_cache ? cache::Mode::off : in.cache ? cache::Mode::on : cache::Mode::automatic;
  spec.progress = &progress;
  Loaded loaded;
  {
    LoadProgressLine line(progress, in.files);
    loaded = scenario::load_inputs(spec, diags);
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

scenario::NameRef split_ref(const std::string& text, const char* flag) {
  auto slash = text.find('/');
  if (slash == std::string::npos) {
    if (text.empty()) {
      throw UsageError(fmt::format("{}: expected NAMESPACE/NAME, got an empty value", flag));
    }
    return {"default", text, false};
  }
  if (slash == 0 || slash + 1 == text.size() || text.find('/', slash + 1) != std::string::npos) {
    throw UsageError(fmt::format("{}: expected NAMESPACE/NAME, got \"{}\"", flag, text));
  }
  return {text.substr(0, slash), text.substr(slash + 1), true};
}

void throw_not_found(const model::Snapshot& snap, const scenario::NameRef& ref,
                     scenario::Looking want) {
  throw UsageError(scenario::not_found(snap, ref, want, scenario::command_line_spelling()));
}

}  // namespace kpreempt::cli
