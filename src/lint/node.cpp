// SPDX-License-Identifier: Apache-2.0
// Node: tree navigation, field paths and the small parsers rules share.
#include "lint/node.h"

#include "kpreempt/diag.h"
#include "kpreempt/model/go_parse.h"

#include <algorithm>
#include <regex>

namespace kpreempt::lint {
namespace {

bool null_text(std::string_view t) {
  return t.empty() || t == "~" || t == "null" || t == "Null" || t == "NULL";
}

bool plain_key(std::string_view key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

}  // namespace

bool Node::null() const {
  return !exists() || (raw().type == load::NodeType::scalar &&
                       raw().style == load::ScalarStyle::plain && null_text(text()));
}

bool Node::non_string() const {
  if (!is_scalar() || quoted()) {
    return false;
  }
  // YAML 1.1 as sigs.k8s.io/yaml resolves plain scalars: numbers, booleans and null.
  static const std::regex k_resolved(
      "[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9_]*)?)([eE][-+]?[0-9]+)?|0x[0-9a-fA-F_]+|"
      "[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)|"
      "y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|"
      "~|null|Null|NULL|");
  std::string t = str();
  return std::regex_match(t, k_resolved);
}

std::string_view Node::text() const {
  return is_scalar() ? m_tree->scalar(m_node) : std::string_view();
}

Node Node::operator[](std::string_view key) const {
  if (!is_map()) {
    return Node(m_tree, load::k_nil);
  }
  for (std::uint32_t c = raw().first_child; c != load::k_nil; c = m_tree->nodes[c].next) {
    if (m_tree->key(c) == key) {
      return Node(m_tree, c);
    }
  }
  return Node(m_tree, load::k_nil);
}

std::vector<Node> Node::children() const {
  std::vector<Node> out;
  if (is_map() || is_seq()) {
    for (std::uint32_t c = raw().first_child; c != load::k_nil; c = m_tree->nodes[c].next) {
      out.emplace_back(m_tree, c);
    }
  }
  return out;
}

std::string_view Node::key() const {
  if (!exists() || raw().parent == load::k_nil ||
      m_tree->nodes[raw().parent].type != load::NodeType::map) {
    return {};
  }
  return m_tree->key(m_node);
}

Node Node::parent() const {
  return exists() ? Node(m_tree, raw().parent) : Node();
}

SourceLoc Node::loc() const {
  if (!exists()) {
    return m_tree != nullptr ? m_tree->loc(m_tree->nodes[0].mark) : SourceLoc{};
  }
  bool member =
      raw().parent != load::k_nil && m_tree->nodes[raw().parent].type == load::NodeType::map;
  return m_tree->loc(member ? raw().key_mark : raw().mark);
}

std::string Node::path() const {
  std::vector<std::uint32_t> chain;
  for (std::uint32_t i = m_node;
       exists() && i != load::k_nil && m_tree->nodes[i].parent != load::k_nil;
       i = m_tree->nodes[i].parent) {
    chain.push_back(i);
  }
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const load::TreeNode& p = m_tree->nodes[m_tree->nodes[*it].parent];
    if (p.type == load::NodeType::map) {
      std::string_view k = m_tree->key(*it);
      out += plain_key(k) ? "." + std::string(k) : "[" + quote(k) + "]";
      continue;
    }
    std::size_t index = 0;
    for (std::uint32_t c = p.first_child; c != *it; c = m_tree->nodes[c].next) {
      ++index;
    }
    out += "[" + std::to_string(index) + "]";
  }
  return out;
}

std::optional<std::int64_t> parse_int(std::string_view t, int bits) {
  const auto r = model::go::parse_int(t, bits);
  return r ? std::optional<std::int64_t>(r.value) : std::nullopt;
}

std::optional<std::int64_t> plain_int(const Node& n) {
  if (!n.is_scalar() || n.quoted()) {
    return std::nullopt;
  }
  return parse_int(n.text(), 64);
}

std::string closest(std::string_view text, const std::vector<std::string_view>& candidates) {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, text.size() / 3) + 1;
  for (std::string_view c : candidates) {
    std::size_t d = edit_distance(text, c);
    if (d < best_d) {
      best_d = d;
      best = std::string(c);
    }
  }
  return best;
}

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace kpreempt::lint
