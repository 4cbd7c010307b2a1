// SPDX-License-Identifier: Apache-2.0
// Loads an inline dump for the loader tests and keeps the loader's diagnostics apart from the
// snapshot builder's.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"
#include "kpreempt/model/snapshot.h"

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::load::testing {

struct Loaded {
  model::Snapshot snapshot;
  std::vector<std::string> messages;  // the loader's diagnostics, formatted
  std::vector<model::ObjectRef> pods;
};

inline Loaded load_text(std::string_view text, const std::string& name = "dump.yaml") {
  model::SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  std::vector<model::ObjectRef> pods;
  load_buffer(text, name, builder, diags, &pods);
  std::vector<std::string> messages;
  for (const Diagnostic& d : diags) {
    messages.push_back(format(d));
  }
  std::vector<Diagnostic> build_diags;
  return Loaded{std::move(builder).build(build_diags), std::move(messages), std::move(pods)};
}

// A file of testdata/load/real/, whole.
inline std::string real_fixture(const std::string& name) {
  std::ifstream in(std::string(KPREEMPT_TESTDATA) + "/load/real/" + name, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The loader's diagnostics for `text`, formatted.
inline std::vector<std::string> messages_for(std::string_view text,
                                             const std::string& name = "dump.yaml") {
  return load_text(text, name).messages;
}

}  // namespace kpreempt::load::testing
