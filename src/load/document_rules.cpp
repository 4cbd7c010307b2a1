// SPDX-License-Identifier: Apache-2.0
// Document rules shared by the decoding walk (stream.cpp) and the scanning walk (scan.cpp):
// what real clusters' files hold that a plain object decoder would get wrong.
#include "load/document_rules.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::load {
namespace {

std::string repeated(std::string_view key, std::uint32_t first_line) {
  return fmt::format("duplicate key \"{}\", already defined at line {}", key, first_line);
}

}  // namespace

void RootKeys::add(std::string_view key, Mark mark, const Event& value) {
  for (const auto& [seen, at] : m_seen) {
    if (seen == key && m_repeat == 0) {
      m_repeat = m_seen.size();
      m_repeat_first_line = at.line;
    }
  }
  m_seen.emplace_back(key, mark);
  if (value.type == EventType::scalar && key == "kind") {
    m_kind.assign(value.text);
  } else if (value.type == EventType::scalar && key == "apiVersion") {
    m_api_version.assign(value.text);
  }
}

void RootKeys::check_repeats() const {
  if (m_repeat != 0) {
    // Pasting several Lists into one file repeats `items:`; a decoder that kept the last
    // one (or, streaming, the first) would drop the others without a word.
    const auto& [key, mark] = m_seen[m_repeat];
    throw InputError(SourceLoc{m_file, mark.line, mark.column},
                     "List: " + repeated(key, m_repeat_first_line));
  }
}

void RootKeys::read_rest(EventSource& src) {
  for (;;) {
    const Event& key = src.next();
    if (key.type == EventType::map_end || key.type == EventType::stream_end) {
      return;
    }
    if (key.type != EventType::scalar) {
      throw InputError(SourceLoc{m_file, key.mark.line, key.mark.column},
                       "only string keys are supported");
    }
    const std::string name(key.text);
    const Mark mark = key.mark;
    const Event& value = src.next();
    add(name, mark, value);
    check_repeats();
    if (value.type == EventType::map_start || value.type == EventType::seq_start) {
      src.skip_value_rest();  // the List's metadata: nothing kpreempt needs
    }
  }
}

std::string RootKeys::item_kind() const {
  constexpr std::string_view k_suffix = "List";
  if (m_kind.size() <= k_suffix.size() || !m_kind.ends_with(k_suffix)) {
    return {};
  }
  return m_kind.substr(0, m_kind.size() - k_suffix.size());
}

bool has_kind(const Tree& tree) {
  for (std::uint32_t c = tree.nodes[0].first_child; c != k_nil; c = tree.nodes[c].next) {
    if (tree.key(c) == "kind") {
      return true;
    }
  }
  return false;
}

void resume_held(Tree& current, Tree& held) {
  std::swap(current.nodes, held.nodes);
  std::swap(current.text, held.text);
  current.duplicate = held.duplicate;
  current.duplicate_first = held.duplicate_first;
}

void lend_kind(TreeBuilder& builder, Tree& tree, const RootKeys& root) {
  const std::string kind = root.item_kind();
  if (kind.empty() || has_kind(tree)) {
    return;
  }
  const Mark mark = tree.nodes[0].mark;
  bool has_api_version = false;
  for (std::uint32_t c = tree.nodes[0].first_child; c != k_nil; c = tree.nodes[c].next) {
    has_api_version = has_api_version || tree.key(c) == "apiVersion";
  }
  builder.add_root_member("kind", mark, Event{EventType::scalar, mark, kind, ScalarStyle::plain});
  if (!has_api_version && !root.api_version().empty()) {
    builder.add_root_member("apiVersion", mark,
                            Event{EventType::scalar, mark, root.api_version(), ScalarStyle::plain});
  }
}

namespace {

std::uint32_t member(const Tree& tree, std::uint32_t map, std::string_view key) {
  for (std::uint32_t c = tree.nodes[map].first_child; c != k_nil; c = tree.nodes[c].next) {
    if (tree.key(c) == key) {
      return c;
    }
  }
  return k_nil;
}

void append_scalar(Tree& tree, std::uint32_t map, std::string_view key, std::string_view text,
                   Mark mark) {
  TreeNode n;
  n.style = ScalarStyle::quoted;
  n.mark = mark;
  n.key_mark = mark;
  n.parent = map;
  n.key = static_cast<std::uint32_t>(tree.text.size());
  n.key_len = static_cast<std::uint32_t>(key.size());
  tree.text.append(key);
  n.text = static_cast<std::uint32_t>(tree.text.size());
  n.text_len = static_cast<std::uint32_t>(text.size());
  tree.text.append(text);
  const auto index = static_cast<std::uint32_t>(tree.nodes.size());
  tree.nodes.push_back(n);
  tree.link_child(map, index);
}

}  // namespace

bool name_from_generate_name(Tree& tree, std::map<std::string, unsigned, std::less<>>& counts) {
  const std::uint32_t meta = member(tree, 0, "metadata");
  if (meta == k_nil || tree.nodes[meta].type != NodeType::map ||
      member(tree, meta, "name") != k_nil) {
    return false;
  }
  const std::uint32_t prefix = member(tree, meta, "generateName");
  if (prefix == k_nil || tree.nodes[prefix].type != NodeType::scalar ||
      tree.scalar(prefix).empty()) {
    return false;
  }
  const std::string base(tree.scalar(prefix));
  const unsigned n = ++counts[base];
  const std::string name = n == 1 ? base + "<generated>" : fmt::format("{}<generated-{}>", base, n);
  append_scalar(tree, meta, "name", name, tree.nodes[prefix].mark);
  return true;
}

std::string table_output_error(std::string_view scalar) {
  // YAML folds the table into one plain scalar, lines joined by a space. The header is the
  // run of upper-case column names (NAME READY STATUS ...); object names are lower case.
  if (!scalar.starts_with("NAME ") && !scalar.starts_with("NAMESPACE ")) {
    return {};
  }
  std::size_t end = 0;
  std::size_t pos = 0;
  while (pos < scalar.size()) {
    const std::size_t word_end = std::min(scalar.find(' ', pos), scalar.size());
    const std::string_view word = scalar.substr(pos, word_end - pos);
    const bool header = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
      return (c >= 'A' && c <= 'Z') || c == '-' || c == '(' || c == ')';
    });
    if (!header && !word.empty()) {
      break;
    }
    end = word.empty() ? end : word_end;
    pos = word_end + 1;
  }
  return fmt::format(
      "this looks like kubectl's table output (\"{}\"); re-run with -o yaml or -o json",
      scalar.substr(0, end));
}

std::string duplicate_key_message(const Tree& tree) {
  const std::uint32_t first =
      tree.duplicate_first != k_nil ? tree.nodes[tree.duplicate_first].key_mark.line : 0;
  return repeated(tree.key(tree.duplicate), first);
}

}  // namespace kpreempt::load
