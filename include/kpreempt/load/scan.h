// SPDX-License-Identifier: Apache-2.0
// Scanning: the same inputs as load_path(), but every object is kept as its positioned tree
// instead of being decoded, for checks that must point at the exact line of a field.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::load {

struct Tree;  // load/value.h

struct ScannedObject {
  std::shared_ptr<const Tree> tree;  // node 0 is the object's root map
  std::string api_version;           // as written ("" when absent)
  std::string kind;                  // "queues.yaml" for a bare YuniKorn queue file
};

// Reads one -f argument (file, folder or "-") like load_path() and appends every object,
// whatever its kind. Syntax errors, objects without a kind and repeated keys become error
// diagnostics; nothing is thrown for bad input.
void scan_path(const std::string& path, const LoadOptions& opts, std::vector<ScannedObject>& out,
               std::vector<Diagnostic>& diags);

// Same for an in-memory document (tests). `name` is used in locations.
void scan_buffer(std::string_view data, const std::string& name, std::vector<ScannedObject>& out,
                 std::vector<Diagnostic>& diags);

// "group/Kind/namespace/name", the key load_path() knows an object by; empty for a kind it does
// not read.
std::string object_key(const ScannedObject& o);

// Where `head`, a later version of the object `base`, first differs from it as written: the
// line of the first member or element (in head's order) whose value differs, of a member head
// adds, or of the map or list that lost one. What a cluster writes when it stores an object
// (uid, resourceVersion, status...) is not compared. Nothing when they are alike.
std::optional<SourceLoc> changed_line(const ScannedObject& base, const ScannedObject& head);

// The first document of `text` as a tree (an embedded file such as a ConfigMap's queues.yaml).
// Marks are relative to `text`. Throws InputError on a syntax error or a non-map document.
std::shared_ptr<Tree> scan_document(std::string_view text, const std::string& name);

}  // namespace kpreempt::load
