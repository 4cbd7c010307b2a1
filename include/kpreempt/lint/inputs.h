// SPDX-License-Identifier: Apache-2.0
// The files `lint` reads: folders walked with the conventional skips (hidden folders, Helm
// chart files and templates, kustomize files) and --exclude, each file scanned on its own so
// that one unreadable file becomes one diagnostic instead of ending the run.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/lint/lint.h"
#include "kpreempt/load/scan.h"
#include "kpreempt/model/snapshot.h"

#include <string>
#include <vector>

namespace kpreempt::lint {

struct WalkOptions {
  bool recursive = false;             // -R: descend into sub-folders
  std::vector<std::string> excludes;  // --exclude GLOB: fnmatch against path and name
};

struct Gathered {
  std::vector<load::ScannedObject> objects;
  std::size_t files = 0;               // files read without a problem
  std::vector<Diagnostic> unreadable;  // one per file, severity error
  std::vector<SkippedFile> skipped;
  std::vector<std::string> template_folders;  // folders of skipped Helm templates
  std::vector<std::string> notes;             // "deploy: 2 sub-folders not read without -R"
};

// Reads every -f argument (file, folder or "-"). Never throws for bad input.
Gathered gather(const std::vector<std::string>& paths, const WalkOptions& opts);

// The objects of a snapshot file's snapshot, written back as the API objects they were
// decoded from (the fields the model keeps), each positioned where it was read.
std::vector<load::ScannedObject> snapshot_objects(const model::Snapshot& snapshot);

}  // namespace kpreempt::lint
