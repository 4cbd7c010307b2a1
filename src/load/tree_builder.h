// SPDX-License-Identifier: Apache-2.0
// Builds an object's Tree from events, leaving out the subtrees no decoder reads (managed
// fields, container statuses, env, probes ...) without building them.
#pragma once

#include "load/value.h"

#include "kpreempt/load/events.h"

#include <string_view>

namespace kpreempt::load {

class TreeBuilder {
 public:
  TreeBuilder(EventSource& src, Tree& tree) : m_src(src), m_tree(tree) {}

  // Starts a new object whose root map starts at `mark` (its map_start was just read).
  void begin(Mark mark);
  // Adds one member of the root map whose key was read earlier and whose value starts with
  // `value`, the event just read.
  void add_root_member(std::string_view key, Mark key_mark, const Event& value);
  // Reads the rest of the root map up to its map_end.
  void finish();
  // Notes a repeated key among the root members added one by one (add_root_member), as
  // finish() does for the rest.
  void check_root_duplicates() { check_duplicates(0); }
  // Counts an object or a stray value of the stream (begin() counts its own); throws
  // InputError past the limit of objects per file, so that an endless stream ends.
  void count_object(Mark mark);
  // Throws InputError for a YAML merge key (`<<`), which kubectl's reader would apply.
  void refuse_merge_key(const Event& key) const;

 private:
  // Where a map sits, which decides what in it is left out.
  struct Context {
    int depth = 0;         // 0 for the root map
    std::string_view key;  // its key in the parent, or the key of the list holding it
    bool list_item = false;
  };

  void read_members(std::uint32_t map, const Context& ctx);
  void add_member(std::uint32_t map, const Context& ctx, const Event& key);
  void read_value(std::uint32_t parent, const Context& ctx, std::string_view key, const Event& ev);
  void set_key(std::uint32_t node, std::uint32_t key_off, std::uint32_t key_len, Mark mark);
  std::uint32_t add_node(std::uint32_t parent, NodeType type, const Event& ev);
  // Refuses values and objects beyond the loader's limits (tree_builder.cpp).
  void check_size(const Event& ev) const;
  void read_items(std::uint32_t seq, const Context& ctx, std::string_view key);
  void check_duplicates(std::uint32_t map);
  static bool pruned(const Context& ctx, std::string_view key);

  EventSource& m_src;
  Tree& m_tree;
  std::uint64_t m_objects = 0;  // objects begun in this stream
};

}  // namespace kpreempt::load
