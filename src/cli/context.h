// SPDX-License-Identifier: Apache-2.0
// What every subcommand shares: the output streams, loading the inputs, colour choice.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/scenario/inputs.h"
#include "kpreempt/scenario/lookup.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace kpreempt::cli {

struct Streams {
  std::ostream& out;
  std::ostream& err;
};

struct Inputs {
  std::vector<std::string> files;      // -f, in order
  bool recursive = false;              // -R
  std::vector<std::string> pod_files;  // --pod-file: what-if pods not in the dump
  bool cache = false;                  // --cache: use the snapshot cache whatever the size
  bool no_cache = false;               // --no-cache: neither read nor write it
};

// --cache and --no-cache, next to -f and -R of the subcommands that call load_inputs.
void add_cache_flags(CLI::App& cmd, Inputs& in);

// The snapshot and the --pod-file preemptors (scenario::load_inputs, the one way in).
using Loaded = scenario::LoadedInputs;

// Prints each diagnostic as "file:line:col: error: ..."; past 25 errors the rest are only
// counted.
void print_diagnostics(const std::vector<Diagnostic>& diags, std::ostream& err);

// Loads and freezes the inputs through scenario::load_inputs, with a progress line on a
// terminal. Prints every diagnostic to err; returns nullopt when any of them is an error (the
// caller exits 2).
std::optional<Loaded> load_inputs(const Inputs& in, const Streams& io);

// Hands a big object over to process exit instead of destroying it: freeing 150k pods one
// by one takes longer than answering did, and the system reclaims the memory at once.
// Sanitizer builds destroy it as usual, so their leak checks keep their meaning.
template <typename T>
void release_at_exit(T& object) {
#if defined(__SANITIZE_ADDRESS__)
  (void)object;
#else
  new T(std::move(object));
#endif
}

// --color auto|always|never, with NO_COLOR and TERM=dumb honoured for auto.
bool use_color(const std::string& mode, bool is_stdout_tty);

// "team-a/web-0", or "web-0" (namespace "default", noted as not given); throws UsageError.
scenario::NameRef split_ref(const std::string& text, const char* flag);

// The UsageError for a name the dump has nothing of the looked-for kind for, with what the
// name is instead ("did you mean team/web-0?", "use --workload ...").
[[noreturn]] void throw_not_found(const model::Snapshot& snap, const scenario::NameRef& ref,
                                  scenario::Looking want);

}  // namespace kpreempt::cli
