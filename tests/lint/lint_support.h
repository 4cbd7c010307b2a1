// SPDX-License-Identifier: Apache-2.0
// Helpers for the lint tests: scanning fixture files and running rules in-process.
#pragma once

#include "kpreempt/lint/lint.h"
#include "kpreempt/load/scan.h"

#include <string>
#include <vector>

namespace lint_test {

inline std::vector<kpreempt::load::ScannedObject> scan(const std::string& path) {
  std::vector<kpreempt::load::ScannedObject> out;
  std::vector<kpreempt::Diagnostic> diags;
  kpreempt::load::scan_path(path, kpreempt::load::LoadOptions{}, out, diags);
  for (const auto& d : diags) {
    if (d.severity == kpreempt::Severity::error) {
      throw std::runtime_error(kpreempt::format(d));
    }
  }
  return out;
}

inline std::vector<kpreempt::load::ScannedObject> scan_text(const std::string& text) {
  std::vector<kpreempt::load::ScannedObject> out;
  std::vector<kpreempt::Diagnostic> diags;
  kpreempt::load::scan_buffer(text, "in.yaml", out, diags);
  if (!diags.empty()) {
    throw std::runtime_error(kpreempt::format(diags.front()));
  }
  return out;
}

inline std::vector<kpreempt::lint::Finding> lint(
    const std::vector<kpreempt::load::ScannedObject>& in, kpreempt::lint::Options o = {},
    const std::vector<kpreempt::load::ScannedObject>& baseline = {}) {
  return kpreempt::lint::run(in, baseline, o, kpreempt::lint::select_rules(o));
}

}  // namespace lint_test
