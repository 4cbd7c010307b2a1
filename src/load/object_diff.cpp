// SPDX-License-Identifier: Apache-2.0
// Two versions of one object, compared as written: which line of the newer one differs.
#include "load/decode.h"

#include "kpreempt/load/scan.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kpreempt::load {
namespace {

// What a cluster writes into an object it stores; two exports of one configuration differ
// there without a change anyone made.
bool bookkeeping(const Tree& t, const TreeNode& member) {
  static constexpr std::array<std::string_view, 6> k_metadata{
      "uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink"};
  const std::string_view key = t.str(member.key, member.key_len);
  if (member.parent == 0) {
    return key == "status";
  }
  const TreeNode& parent = t.nodes[member.parent];
  return parent.parent == 0 && t.str(parent.key, parent.key_len) == "metadata" &&
         std::find(k_metadata.begin(), k_metadata.end(), key) != k_metadata.end();
}

std::uint32_t member_named(const Tree& t, std::uint32_t map, std::string_view key) {
  for (std::uint32_t c = t.nodes[map].first_child; c != k_nil; c = t.nodes[c].next) {
    if (t.str(t.nodes[c].key, t.nodes[c].key_len) == key) {
      return c;
    }
  }
  return k_nil;
}

// Where two scalars differ: in a multi-line one (a ConfigMap's queues.yaml, say), the line of
// the value where they part.
std::optional<Mark> differing_line(std::string_view base, std::string_view head,
                                   const TreeNode& hn) {
  if (base == head) {
    return std::nullopt;
  }
  if (head.find('\n') == std::string_view::npos) {
    return hn.mark;
  }
  // The reader tells plain scalars from the rest; a multi-line one that is not plain is taken
  // for a block scalar, whose text starts on the line after its indicator.
  const std::uint32_t first = hn.mark.line + (hn.style == ScalarStyle::plain ? 0 : 1);
  const auto parted = std::mismatch(base.begin(), base.end(), head.begin(), head.end()).second;
  const auto lines = static_cast<std::uint32_t>(std::count(head.begin(), parted, '\n'));
  return Mark{first + lines, 1};
}

// The mark in `h` of the first difference below nodes b and h (trees are at most 200 deep,
// the loader's limit, so the recursion is bounded), or nothing when they are alike.
std::optional<Mark> first_difference(const Tree& bt, std::uint32_t b, const Tree& ht,
                                     std::uint32_t h) {
  const TreeNode& bn = bt.nodes[b];
  const TreeNode& hn = ht.nodes[h];
  if (bn.type != hn.type) {
    return hn.mark;
  }
  if (hn.type == NodeType::scalar) {
    return differing_line(bt.str(bn.text, bn.text_len), ht.str(hn.text, hn.text_len), hn);
  }
  const bool map = hn.type == NodeType::map;
  std::uint32_t bc = bn.first_child;
  for (std::uint32_t hc = hn.first_child; hc != k_nil; hc = ht.nodes[hc].next) {
    const TreeNode& member = ht.nodes[hc];
    if (map && bookkeeping(ht, member)) {
      continue;
    }
    const std::uint32_t other = map ? member_named(bt, b, ht.str(member.key, member.key_len)) : bc;
    if (other == k_nil) {
      return map ? member.key_mark : member.mark;  // a member or element head added
    }
    if (auto d = first_difference(bt, other, ht, hc)) {
      return d;
    }
    bc = map ? bc : bt.nodes[bc].next;
  }
  const bool fewer = map ? bn.size > hn.size : bc != k_nil;
  return fewer ? std::optional(hn.mark) : std::nullopt;  // something of base is gone
}

}  // namespace

std::string object_key(const ScannedObject& o) {
  const KindEntry* entry = find_kind(o.api_version, o.kind);
  if (entry == nullptr) {
    return {};
  }
  const Object obj{*o.tree, ""};
  const Field root(obj, 0);
  const std::string ns = entry->namespaced ? root["metadata"]["namespace"].str("default") : "";
  return fmt::format("{}/{}/{}/{}", entry->group, entry->kind, ns, root["metadata"]["name"].str());
}

std::optional<SourceLoc> changed_line(const ScannedObject& base, const ScannedObject& head) {
  std::optional<Mark> m = first_difference(*base.tree, 0, *head.tree, 0);
  if (!m) {
    return std::nullopt;
  }
  return head.tree->loc(*m);
}

}  // namespace kpreempt::load
