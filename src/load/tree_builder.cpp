// SPDX-License-Identifier: Apache-2.0
// Event-to-tree building with pruning. The pruned subtrees are most of a dump's bytes, so they
// go through EventSource::skip_value_rest(), which JSON does without tokenising.
#include "load/tree_builder.h"

#include "load/pruned_fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace kpreempt::load {
namespace {

constexpr int k_max_depth = 200;
// The API server stores objects of at most 1.5 MiB (etcd's request limit), so no real value
// comes near these; they bound what a hostile file can make kpreempt allocate. Pruned subtrees
// (managed fields, last-applied annotations) are not counted: they are never built.
constexpr std::size_t k_max_scalar = std::size_t{1} << 20;
constexpr std::size_t k_max_object_bytes = std::size_t{64} << 20;
constexpr std::size_t k_max_object_nodes = std::size_t{4} << 20;
constexpr std::uint64_t k_max_objects = 5'000'000;

[[noreturn]] void fail(const Tree& tree, Mark mark, const std::string& message) {
  throw InputError(tree.loc(mark), message);
}

}  // namespace

bool TreeBuilder::pruned(const Context& ctx, std::string_view key) {
  if (ctx.list_item) {
    return (pruned::in(ctx.key, pruned::k_container_lists) &&
            pruned::in(key, pruned::k_container)) ||
           (pruned::in(ctx.key, pruned::k_container_status_lists) &&
            pruned::in(key, pruned::k_container_status));
  }
  if (ctx.key == "spec") {
    return key == "volumes";  // also in pod templates
  }
  if (ctx.depth == 1) {
    if (ctx.key == "metadata") {
      return key == "managedFields";
    }
    if (ctx.key == "status") {
      return pruned::in(key, pruned::k_status);
    }
  }
  // A copy of the whole object as last applied: large, and read by no one.
  return ctx.depth == 2 && ctx.key == "annotations" &&
         key == "kubectl.kubernetes.io/last-applied-configuration";
}

std::uint32_t TreeBuilder::add_node(std::uint32_t parent, NodeType type, const Event& ev) {
  check_size(ev);
  auto index = static_cast<std::uint32_t>(m_tree.nodes.size());
  TreeNode& n = m_tree.nodes.emplace_back();
  n.type = type;
  n.style = ev.style;
  n.mark = ev.mark;
  n.parent = parent;
  if (type == NodeType::scalar) {
    n.text = static_cast<std::uint32_t>(m_tree.text.size());
    n.text_len = static_cast<std::uint32_t>(ev.text.size());
    m_tree.text.append(ev.text);
  }
  if (parent != k_nil) {
    m_tree.link_child(parent, index);
  }
  return index;
}

void TreeBuilder::check_size(const Event& ev) const {
  if (ev.text.size() > k_max_scalar) {
    fail(m_tree, ev.mark,
         fmt::format("value of {} bytes is longer than the limit of 1 MiB", ev.text.size()));
  }
  if (m_tree.text.size() + ev.text.size() > k_max_object_bytes ||
      m_tree.nodes.size() >= k_max_object_nodes) {
    fail(m_tree, m_tree.nodes.front().mark, "object is larger than the limit of 64 MiB");
  }
}

void TreeBuilder::count_object(Mark mark) {
  if (++m_objects > k_max_objects) {
    fail(m_tree, mark,
         fmt::format("more than {} objects in one file; the rest is not read", k_max_objects));
  }
}

void TreeBuilder::begin(Mark mark) {
  count_object(mark);
  m_tree.clear();
  Event root{EventType::map_start, mark, {}, ScalarStyle::plain};
  add_node(k_nil, NodeType::map, root);
}

// kubectl's YAML reader merges the fields of a `<<:` key's value into its map; skipping them
// would drop fields (a pod's requests) without a word, so the key is refused.
void TreeBuilder::refuse_merge_key(const Event& key) const {
  if (key.style == ScalarStyle::plain && key.text == "<<") {
    fail(m_tree, key.mark,
         "YAML merge keys (<<) are not supported; write the merged fields out in the object");
  }
}

void TreeBuilder::add_root_member(std::string_view key, Mark key_mark, const Event& value) {
  if (pruned(Context{}, key)) {
    if (value.type == EventType::map_start || value.type == EventType::seq_start) {
      m_src.skip_value_rest();
    }
    return;
  }
  check_size(Event{EventType::scalar, key_mark, key, ScalarStyle::plain});
  auto key_off = static_cast<std::uint32_t>(m_tree.text.size());
  m_tree.text.append(key);
  auto node = static_cast<std::uint32_t>(m_tree.nodes.size());
  read_value(0, Context{}, key, value);
  set_key(node, key_off, static_cast<std::uint32_t>(key.size()), key_mark);
}

void TreeBuilder::set_key(std::uint32_t node, std::uint32_t key_off, std::uint32_t key_len,
                          Mark mark) {
  m_tree.nodes[node].key = key_off;
  m_tree.nodes[node].key_len = key_len;
  m_tree.nodes[node].key_mark = mark;
}

void TreeBuilder::finish() {
  read_members(0, Context{});
  check_duplicates(0);
}

void TreeBuilder::read_members(std::uint32_t map, const Context& ctx) {
  for (;;) {
    const Event& ev = m_src.next();
    if (ev.type == EventType::map_end) {
      return;
    }
    add_member(map, ctx, ev);
  }
}

void TreeBuilder::add_member(std::uint32_t map, const Context& ctx, const Event& key) {
  if (key.type != EventType::scalar) {
    fail(m_tree, key.mark, "only string keys are supported");
  }
  refuse_merge_key(key);
  if (pruned(ctx, key.text)) {
    const Event& value = m_src.next();
    if (value.type == EventType::map_start || value.type == EventType::seq_start) {
      m_src.skip_value_rest();
    }
    return;
  }
  check_size(key);
  auto key_off = static_cast<std::uint32_t>(m_tree.text.size());
  m_tree.text.append(key.text);
  auto key_len = static_cast<std::uint32_t>(key.text.size());
  Mark key_mark = key.mark;
  // The value's first node is the member; the key stays put in the arena by offset.
  auto node = static_cast<std::uint32_t>(m_tree.nodes.size());
  const Event& value = m_src.next();
  if (value.type == EventType::scalar) {
    add_node(map, NodeType::scalar, value);  // the common case: no context to keep
  } else {
    std::string own_key(m_tree.str(key_off, key_len));
    read_value(map, ctx, own_key, value);
  }
  set_key(node, key_off, key_len, key_mark);
}

// `key` must not point into the arena, which grows below.
void TreeBuilder::read_value(std::uint32_t parent, const Context& ctx, std::string_view key,
                             const Event& ev) {
  Context child{ctx.depth + 1, key, false};
  if (child.depth > k_max_depth) {
    fail(m_tree, ev.mark, "nesting is too deep");
  }
  switch (ev.type) {
    case EventType::scalar:
      add_node(parent, NodeType::scalar, ev);
      return;
    case EventType::map_start: {
      std::uint32_t map = add_node(parent, NodeType::map, ev);
      read_members(map, child);
      check_duplicates(map);
      return;
    }
    case EventType::seq_start:
      read_items(add_node(parent, NodeType::seq, ev), child, key);
      return;
    default:
      fail(m_tree, ev.mark, "unexpected end of a value");
  }
}

void TreeBuilder::read_items(std::uint32_t seq, const Context& ctx, std::string_view key) {
  Context item{ctx.depth, key, true};
  for (;;) {
    const Event& ev = m_src.next();
    switch (ev.type) {
      case EventType::seq_end:
        return;
      case EventType::scalar:
        add_node(seq, NodeType::scalar, ev);
        break;
      case EventType::map_start: {
        std::uint32_t map = add_node(seq, NodeType::map, ev);
        read_members(map, item);
        check_duplicates(map);
        break;
      }
      case EventType::seq_start: {
        // Lists of lists nest without passing through read_value: the depth is checked here.
        if (ctx.depth + 1 > k_max_depth) {
          fail(m_tree, ev.mark, "nesting is too deep");
        }
        std::uint32_t inner = add_node(seq, NodeType::seq, ev);
        read_items(inner, Context{ctx.depth + 1, key, false}, key);
        break;
      }
      default:
        fail(m_tree, ev.mark, "unexpected end of a list");
    }
  }
}

// Go's YAML decoder refuses a key that repeats within one map; so do we, for the parts kept.
void TreeBuilder::check_duplicates(std::uint32_t map) {
  if (m_tree.duplicate != k_nil || m_tree.nodes[map].size < 2) {
    return;
  }
  const std::uint32_t first = m_tree.nodes[map].first_child;
  if (m_tree.nodes[map].size <= 8) {
    // Small maps, the common case: no allocation.
    for (std::uint32_t c = m_tree.nodes[first].next; c != k_nil; c = m_tree.nodes[c].next) {
      for (std::uint32_t d = first; d != c; d = m_tree.nodes[d].next) {
        if (m_tree.key(c) == m_tree.key(d)) {
          m_tree.duplicate = c;
          m_tree.duplicate_first = d;
          return;
        }
      }
    }
    return;
  }
  std::vector<std::uint32_t> members;
  for (std::uint32_t c = first; c != k_nil; c = m_tree.nodes[c].next) {
    members.push_back(c);
  }
  std::stable_sort(members.begin(), members.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return m_tree.key(a) < m_tree.key(b); });
  for (std::size_t i = 1; i < members.size(); ++i) {
    if (m_tree.key(members[i]) == m_tree.key(members[i - 1])) {
      // The stable sort keeps equal keys in document order: i - 1 came first.
      m_tree.duplicate = members[i];
      m_tree.duplicate_first = members[i - 1];
      return;
    }
  }
}

}  // namespace kpreempt::load
