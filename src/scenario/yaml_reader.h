// SPDX-License-Identifier: Apache-2.0
// Typed access to a small yaml-cpp document that turns every mistake into a located
// Diagnostic (yaml-cpp marks are 0-based; diagnostics are 1-based).
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/objects.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::scenario {

class YamlReader {
 public:
  YamlReader(std::string file, std::vector<Diagnostic>& diags)
      : m_file(std::move(file)), m_diags(diags) {}

  const std::string& file() const { return m_file; }
  bool failed() const { return m_failed; }

  // Parses `text`; a syntax error or a top level that is not a mapping is reported.
  std::optional<YAML::Node> load(const std::string& text);

  SourceLoc loc(const YAML::Node& node) const;
  void error(const YAML::Node& node, std::string message);
  void warning(const YAML::Node& node, std::string message);

  // Values; on a type mismatch an error is recorded and an empty value returned.
  std::string string(const YAML::Node& node, std::string_view key);
  // A sequence of strings (or, with allow_scalar, a single string).
  std::vector<std::string> strings(const YAML::Node& node, std::string_view key,
                                   bool allow_scalar = true);
  std::int64_t count(const YAML::Node& node, std::string_view key);  // integer >= 0
  model::StringMap string_map(const YAML::Node& node, std::string_view key);

  // Reports a missing `key` under `parent`, or a `node` that is not a mapping.
  bool require_map(const YAML::Node& parent, const YAML::Node& node, std::string_view key);
  // Reports keys of `node` not in `known`, with a suggestion for near misses.
  void check_keys(const YAML::Node& node, std::span<const std::string_view> known,
                  std::string_view where);

 private:
  std::string m_file;
  std::vector<Diagnostic>& m_diags;
  bool m_failed = false;
};

// The element of `candidates` closest to `word` when it is a plausible typo, else empty.
std::string_view closest(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace kpreempt::scenario
