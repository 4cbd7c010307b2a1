// SPDX-License-Identifier: Apache-2.0
// One decoded object as a small positioned tree (only the subtrees some decoder reads), and
// Field, the accessor decoders use: it knows the API path of every value for messages.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/load/events.h"
#include "kpreempt/model/objects.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::load {

inline constexpr std::uint32_t k_nil = UINT32_MAX;

enum class NodeType : std::uint8_t { scalar, map, seq };

struct TreeNode {
  NodeType type = NodeType::scalar;
  ScalarStyle style = ScalarStyle::plain;
  Mark mark;
  std::uint32_t text = 0, text_len = 0;  // scalar text, in Tree::text
  std::uint32_t key = 0, key_len = 0;    // member key when the parent is a map
  Mark key_mark;
  std::uint32_t parent = k_nil, first_child = k_nil, last_child = k_nil, next = k_nil;
  std::uint32_t size = 0;  // children
};

// Nodes in document order; node 0 is the object's root map. Cleared and reused per object so
// that its buffers stay allocated across a whole dump.
struct Tree {
  std::vector<TreeNode> nodes;
  std::string text;
  model::Atom file;                       // copied into the location of every object read
  std::uint32_t duplicate = k_nil;        // first member whose key repeats an earlier one
  std::uint32_t duplicate_first = k_nil;  // the earlier member it repeats

  // Appends node `child` to the members or elements of node `parent`.
  void link_child(std::uint32_t parent, std::uint32_t child) {
    TreeNode& p = nodes[parent];
    if (p.last_child == k_nil) {
      p.first_child = child;
    } else {
      nodes[p.last_child].next = child;
    }
    p.last_child = child;
    ++p.size;
  }
  void clear() {
    nodes.clear();
    text.clear();
    duplicate = k_nil;
    duplicate_first = k_nil;
  }
  std::string_view str(std::uint32_t off, std::uint32_t len) const {
    return std::string_view(text).substr(off, len);
  }
  std::string_view scalar(std::uint32_t n) const { return str(nodes[n].text, nodes[n].text_len); }
  std::string_view key(std::uint32_t n) const { return str(nodes[n].key, nodes[n].key_len); }
  // "spec.containers[0].resources", empty for the root.
  std::string path(std::uint32_t n) const;
  SourceLoc loc(Mark m) const { return SourceLoc{file, m.line, m.column}; }
};

// The object being decoded: its tree and how messages name it ("Pod team-a/x").
struct Object {
  const Tree& tree;
  std::string description;
};

// A value in the object, or an absent member (then `m_node` is k_nil and the parent and key
// are kept for messages). Absent and null behave alike: Go decodes both to the zero value.
class Field {
 public:
  Field(const Object& obj, std::uint32_t node) : m_obj(&obj), m_node(node) {}

  Field operator[](std::string_view key) const;
  bool present() const { return m_node != k_nil && !is_null(); }
  bool is_null() const;
  bool is_map() const { return m_node != k_nil && node().type == NodeType::map; }
  bool is_seq() const { return m_node != k_nil && node().type == NodeType::seq; }
  std::string_view key() const { return m_obj->tree.key(m_node); }
  SourceLoc loc() const;
  std::string path() const;

  // How many members or items a map or sequence holds; 0 when absent, null or a scalar.
  std::uint32_t count() const {
    return m_node != k_nil && node().type != NodeType::scalar ? node().size : 0;
  }
  // Members of a map (nothing when absent or null); throws when it is not a map.
  template <typename F>
  void each_member(F&& f) const {
    for (std::uint32_t c = first_child(NodeType::map); c != k_nil; c = tree().nodes[c].next) {
      f(Field(*m_obj, c));
    }
  }
  // Items of a sequence (nothing when absent or null); throws when it is not a sequence.
  template <typename F>
  void each_item(F&& f) const {
    for (std::uint32_t c = first_child(NodeType::seq); c != k_nil; c = tree().nodes[c].next) {
      f(Field(*m_obj, c));
    }
  }

  // Scalars. Absent or null gives the default. Each throws an InputError naming the path on
  // a value of the wrong type.
  std::string str(std::string_view def = {}) const;
  std::int64_t int64(std::int64_t def = 0) const;
  std::int32_t int32(std::int32_t def = 0) const;
  std::optional<std::int32_t> opt_int32() const;
  bool boolean(bool def = false) const;
  model::Quantity quantity() const;
  // The same, refusing an amount `resource` cannot hold upstream (resource_limit_error).
  model::Quantity quantity_of(std::string_view resource) const;
  std::optional<model::Instant> time() const;

  model::StringMap string_map() const;
  model::ResourceList resource_list() const;
  // The same, refusing a negative amount as the API server does for requests, limits,
  // overhead and node capacity.
  model::ResourceList non_negative_resource_list() const;
  std::vector<std::string> strings() const;
  std::vector<std::string> map_keys() const;  // sorted

  [[noreturn]] void fail(const std::string& message) const;

 private:
  Field(const Object& obj, std::uint32_t parent, std::string missing)
      : m_obj(&obj), m_node(k_nil), m_parent(parent), m_missing(std::move(missing)) {}
  const Tree& tree() const { return m_obj->tree; }
  const TreeNode& node() const { return tree().nodes[m_node]; }
  std::uint32_t first_child(NodeType want) const;
  std::string_view scalar_text(const char* expected) const;
  [[noreturn]] void fail_expected(const char* expected) const;

  const Object* m_obj;
  std::uint32_t m_node;
  std::uint32_t m_parent = k_nil;
  std::string m_missing;  // absent: its path below m_parent
};

}  // namespace kpreempt::load
