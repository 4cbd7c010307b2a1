// SPDX-License-Identifier: Apache-2.0
// A non-throwing view of a scanned object's tree: rules read odd shapes without exceptions and
// every value knows its API path and position for findings.
#pragma once

#include "load/value.h"

#include "kpreempt/diag.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::lint {

class Node {
 public:
  Node() = default;
  Node(const load::Tree* tree, std::uint32_t node) : m_tree(tree), m_node(node) {}

  bool exists() const { return m_tree != nullptr && m_node != load::k_nil; }
  bool null() const;  // absent, or a YAML/JSON null
  bool is_map() const { return exists() && raw().type == load::NodeType::map; }
  bool is_seq() const { return exists() && raw().type == load::NodeType::seq; }
  bool is_scalar() const { return exists() && raw().type == load::NodeType::scalar; }
  bool quoted() const { return is_scalar() && raw().style == load::ScalarStyle::quoted; }
  // A plain scalar that YAML resolves to a number, boolean or null rather than a string.
  bool non_string() const;
  std::string_view text() const;  // scalar text; empty for maps, lists and absent values
  std::string str() const { return std::string(text()); }

  Node operator[](std::string_view key) const;  // absent unless this is a map holding key
  std::vector<Node> children() const;           // members of a map or items of a list
  std::string_view key() const;                 // member key; empty otherwise
  std::size_t size() const { return exists() ? raw().size : 0; }
  Node parent() const;

  // Where the field starts: a map member's key, else the value itself.
  SourceLoc loc() const;
  // ".spec.resourceGroups[0].flavors[1]", ".metadata.annotations[\"a/b\"]"; "" for the root.
  std::string path() const;

  const load::Tree* tree() const { return m_tree; }
  std::uint32_t id() const { return m_node; }

 private:
  const load::TreeNode& raw() const { return m_tree->nodes[m_node]; }
  const load::Tree* m_tree = nullptr;
  std::uint32_t m_node = load::k_nil;
};

// Kubernetes' base-10 integer parses (strconv.ParseInt with bit size 32 or 64).
std::optional<std::int64_t> parse_int(std::string_view text, int bits);
// A plain JSON/YAML integer written in the manifest (not quoted), as int64.
std::optional<std::int64_t> plain_int(const Node& n);

// The key of `candidates` closest to `text` (edit distance at most a third of its length,
// at least 2), or empty.
std::string closest(std::string_view text, const std::vector<std::string_view>& candidates);
// `text` as a quoted string for messages.
std::string quote(std::string_view text);

}  // namespace kpreempt::lint
