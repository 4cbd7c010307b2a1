// SPDX-License-Identifier: Apache-2.0
// Two versions of a configuration (PriorityClasses, queues, quotas, scheduler settings) laid
// over one cluster, for `kpreempt diff`: what each version holds, and the cluster as it would
// be with each.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/load/scan.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/render/diff.h"

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace kpreempt::scenario {

// One configuration input: a file or folder on disk, or one file's text read from git.
struct ConfigInput {
  std::string path;                 // how messages name it ("origin/main:config/pc.yaml")
  std::optional<std::string> text;  // set when read from git
};

// What one version holds, read on its own: its objects (keys "group/Kind/namespace/name",
// sorted, each with its identity and place), the snapshot they make, and the objects as
// written (for lint, and for the line where a changed object differs).
struct ConfigVersion {
  std::vector<model::SnapshotBuilder::SeenEntry> objects;
  model::Snapshot snapshot;
  std::vector<load::ScannedObject> scanned;
  std::unordered_set<std::string> keys() const;
};

// Reads a version's inputs; problems go to `diags`.
ConfigVersion read_config(const std::vector<ConfigInput>& inputs, bool recursive,
                          std::vector<Diagnostic>& diags);

// The inputs `paths` name at git revision `ref` (`git show REF:PATH`; a folder gives each
// .yaml, .yml and .json file in it, and with `recursive` in its sub-folders, as -f reads a
// folder), run in the current folder's repository. Problems (no git, an unknown revision or
// path) go to `diags`.
std::vector<ConfigInput> config_from_git(const std::string& ref,
                                         const std::vector<std::string>& paths, bool recursive,
                                         std::vector<Diagnostic>& diags);

// Loads `inputs` into `out` (load_path for files, load_buffer for git text);
// `content_identity` as LoadOptions has it.
void load_config(const std::vector<ConfigInput>& inputs, bool recursive, bool content_identity,
                 model::SnapshotBuilder& out, std::vector<Diagnostic>& diags);

// "PriorityClass/high", "ClusterQueue/team-a", "Pod/ns/name" from a key of ConfigVersion.
std::string object_of_key(const std::string& key);

// What differs between two versions, in key order: objects only in base are removed, only in
// head added, in both with other content (or another uid) changed. A changed object is placed
// at the line of head where it first differs.
std::vector<render::ConfigChange> config_changes(const ConfigVersion& base,
                                                 const ConfigVersion& head);

// Whether a PriorityClass in both versions has another value in head.
bool class_value_changed(const ConfigVersion& base, const ConfigVersion& head);

}  // namespace kpreempt::scenario
