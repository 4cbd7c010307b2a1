// SPDX-License-Identifier: Apache-2.0
// `kpreempt snapshot`: load a dump once and write it as a snapshot file, which every -f then
// reads in a fraction of the time the YAML takes.
#include "cli/context.h"
#include "cli/subcommands.h"

#include "kpreempt/cache/cache.h"
#include "kpreempt/cache/snapshot_file.h"
#include "kpreempt/exit_code.h"
#include "kpreempt/scenario/inputs.h"

#include <CLI/CLI.hpp>

#include <memory>

namespace kpreempt::cli {
namespace {

struct SnapshotOptions {
  Inputs inputs;
  std::string output;
};

int run_snapshot(const SnapshotOptions& o, const Streams& io) {
  // The snapshot file is the fast copy: keeping a second one in the cache would only cost
  // disk space.
  scenario::InputSpec spec;
  spec.files = o.inputs.files;
  spec.recursive = o.inputs.recursive;
  spec.cache = cache::Mode::off;
  std::vector<Diagnostic> notes;
  cache::SnapshotFile file = scenario::load_dump(spec, notes);
  std::vector<Diagnostic> all = file.load_diags;  // the file keeps its own copy
  all.insert(all.end(), file.build_diags.begin(), file.build_diags.end());
  all.insert(all.end(), notes.begin(), notes.end());
  print_diagnostics(all, io.err);
  if (any_error(all)) {
    return k_exit_input;
  }
  std::string why = cache::write_snapshot_file(o.output, file);
  if (!why.empty()) {
    io.err << "kpreempt: error: " << why << '\n';
    return k_exit_input;
  }
  return k_exit_ok;
}

}  // namespace

void add_snapshot(CLI::App& app, const Streams& io, int& exit_code) {
  auto o = std::make_shared<SnapshotOptions>();
  auto* cmd = app.add_subcommand(
      "snapshot", "load a cluster dump once and save it as a snapshot file that -f reads fast");
  cmd->add_option("-f,--filename", o->inputs.files,
                  "cluster dump: YAML or JSON file, folder, snapshot file, or - for stdin "
                  "(repeatable)")
      ->required();
  cmd->add_flag("-R,--recursive", o->inputs.recursive, "read folders given with -f recursively");
  cmd->add_option("-o,--output", o->output, "the snapshot file to write (e.g. cluster.kps)")
      ->required();
  cmd->callback([o, io, &exit_code] { exit_code = run_snapshot(*o, io); });
}

}  // namespace kpreempt::cli
