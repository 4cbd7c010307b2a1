// SPDX-License-Identifier: Apache-2.0
// Located, typed reads of scenario documents.
#include "scenario/yaml_reader.h"

#include "kpreempt/diag.h"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <charconv>
#include <numeric>

namespace kpreempt::scenario {
namespace {

std::string qualified(std::string_view where, std::string_view key) {
  return where.empty() ? std::string(key) : fmt::format("{}.{}", where, key);
}

}  // namespace

std::string_view closest(std::string_view word, std::span<const std::string_view> candidates) {
  std::string_view best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (std::string_view c : candidates) {
    std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::optional<YAML::Node> YamlReader::load(const std::string& text) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    // yaml-cpp words its own depth limit "bad file".
    const bool too_deep = dynamic_cast<const YAML::DeepRecursion*>(&e) != nullptr;
    m_diags.push_back({Severity::error,
                       {m_file, static_cast<std::uint32_t>(e.mark.line + 1),
                        static_cast<std::uint32_t>(e.mark.column + 1)},
                       too_deep ? "nesting is too deep" : e.msg});
    m_failed = true;
    return std::nullopt;
  }
  if (!root.IsMap()) {
    m_diags.push_back({Severity::error, {m_file, 1, 1}, "expected a mapping of case keys"});
    m_failed = true;
    return std::nullopt;
  }
  return root;
}

SourceLoc YamlReader::loc(const YAML::Node& node) const {
  const YAML::Mark mark = node.IsDefined() ? node.Mark() : YAML::Mark::null_mark();
  if (mark.is_null()) {
    return {m_file, 0, 0};
  }
  return {m_file, static_cast<std::uint32_t>(mark.line + 1),
          static_cast<std::uint32_t>(mark.column + 1)};
}

void YamlReader::error(const YAML::Node& node, std::string message) {
  m_diags.push_back({Severity::error, loc(node), std::move(message)});
  m_failed = true;
}

void YamlReader::warning(const YAML::Node& node, std::string message) {
  m_diags.push_back({Severity::warning, loc(node), std::move(message)});
}

std::string YamlReader::string(const YAML::Node& node, std::string_view key) {
  if (!node.IsScalar()) {
    error(node, fmt::format("{}: expected a string", key));
    return {};
  }
  return node.Scalar();
}

std::vector<std::string> YamlReader::strings(const YAML::Node& node, std::string_view key,
                                             bool allow_scalar) {
  if (allow_scalar && node.IsScalar()) {
    return {node.Scalar()};
  }
  if (node.IsNull()) {
    return {};  // `victims:` with nothing after it: an empty list
  }
  if (!node.IsSequence()) {
    error(node, fmt::format("{}: expected a list of strings", key));
    return {};
  }
  std::vector<std::string> out;
  for (const YAML::Node& item : node) {
    out.push_back(string(item, key));
  }
  return out;
}

std::int64_t YamlReader::count(const YAML::Node& node, std::string_view key) {
  std::string text = string(node, key);
  std::int64_t value = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0) {
    if (node.IsScalar()) {
      error(node, fmt::format("{}: expected a whole number >= 0, got \"{}\"", key, text));
    }
    return 0;
  }
  return value;
}

model::StringMap YamlReader::string_map(const YAML::Node& node, std::string_view key) {
  model::StringMap out;
  if (node.IsNull()) {
    return out;
  }
  if (!node.IsMap()) {
    error(node, fmt::format("{}: expected a mapping of KEY: VALUE", key));
    return out;
  }
  for (const auto& kv : node) {
    std::string k = string(kv.first, key);
    out.emplace_back(k, string(kv.second, qualified(key, k)));
  }
  return out;
}

bool YamlReader::require_map(const YAML::Node& parent, const YAML::Node& node,
                             std::string_view key) {
  if (!node) {
    error(parent, fmt::format("{} is required", key));
    return false;
  }
  if (!node.IsMap()) {
    error(node, fmt::format("{}: expected a mapping", key));
    return false;
  }
  return true;
}

void YamlReader::check_keys(const YAML::Node& node, std::span<const std::string_view> known,
                            std::string_view where) {
  for (const auto& kv : node) {
    if (!kv.first.IsScalar()) {
      error(kv.first, "expected a string key");
      continue;
    }
    const std::string& key = kv.first.Scalar();
    if (std::find(known.begin(), known.end(), key) != known.end()) {
      continue;
    }
    std::string_view hint = closest(key, known);
    error(kv.first, fmt::format("unknown key \"{}\"{}", qualified(where, key),
                                hint.empty() ? "" : fmt::format("; did you mean \"{}\"?", hint)));
  }
}

}  // namespace kpreempt::scenario
