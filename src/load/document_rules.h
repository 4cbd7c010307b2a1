// SPDX-License-Identifier: Apache-2.0
// What the stream walks (decoding and scanning) check and fix in each document: repeated keys
// (refused, as Go's strict decoding does), the kind a typed List lends its items, names from
// generateName, kubectl's table output.
#pragma once

#include "load/tree_builder.h"
#include "load/value.h"

#include "kpreempt/load/events.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kpreempt::load {

class RootKeys {
 public:
  explicit RootKeys(const std::string& file) : m_file(file) {}

  // Notes one member of the root map whose value starts with `value`.
  void add(std::string_view key, Mark mark, const Event& value);
  // Throws InputError naming both lines when a key of a List's root map was repeated. (An
  // object's repeated keys are reported when it is decoded, with its name.)
  void check_repeats() const;
  // Reads the members of a List's root map after its items, up to its map_end, refusing a
  // repeated key there at once: the second `items:` of Lists pasted into one file.
  void read_rest(EventSource& src);

  // The kind of a List's items, from a typed List's kind ("NodeList" gives "Node"); empty
  // for a plain `kind: List` or when no kind was seen yet.
  std::string item_kind() const;
  const std::string& api_version() const { return m_api_version; }
  bool kind_seen() const { return !m_kind.empty(); }

 private:
  const std::string& m_file;
  std::vector<std::pair<std::string, Mark>> m_seen;
  std::string m_kind, m_api_version;
  std::size_t m_repeat = 0;  // index in m_seen of the first repeated key; 0 when none
  std::uint32_t m_repeat_first_line = 0;
};

// Whether the object in `tree` has a `kind` member.
bool has_kind(const Tree& tree);
// Makes `current` the object held in `held` until its List's kind was known (their storage is
// swapped, so `held` is left with the old contents).
void resume_held(Tree& current, Tree& held);
// Gives the object in `tree` (just built by `builder`) the kind of its List's items, and the
// List's apiVersion when it has none, as the API server's typed Lists imply them.
void lend_kind(TreeBuilder& builder, Tree& tree, const RootKeys& root);

// Names an object that has only metadata.generateName, as manifests for `kubectl create` do
// ("sample-job-" becomes "sample-job-<generated>", then "sample-job-<generated-2>" ...): the
// API server would add random characters; this name is stable and shows that it was made up.
// `counts` numbers the objects per generateName.
// Returns whether it named the object.
bool name_from_generate_name(Tree& tree, std::map<std::string, unsigned, std::less<>>& counts);

// When a top-level scalar is kubectl's table output (`kubectl get pods -o wide` saved by
// mistake), the error for it, quoting its header line; empty otherwise.
std::string table_output_error(std::string_view scalar);

// The message for tree.duplicate: `duplicate key "name", already defined at line 14`.
std::string duplicate_key_message(const Tree& tree);

}  // namespace kpreempt::load
