// SPDX-License-Identifier: Apache-2.0
// What the two loader fuzz targets share: load a buffer, freeze the snapshot, format every
// diagnostic. Any crash, sanitizer report or exception escaping is a finding.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/load/load.h"
#include "kpreempt/model/snapshot.h"

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::fuzz {

inline void load_and_build(std::string_view data) {
  model::SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  std::vector<model::ObjectRef> pods;
  load::load_buffer(data, "fuzz.yaml", builder, diags, &pods);
  model::Snapshot snap = std::move(builder).build(diags);
  for (const Diagnostic& d : diags) {
    // A diagnostic must say something; an empty one would print as a bare "error:".
    if (d.message.empty() || format(d).empty()) {
      std::abort();
    }
  }
  if (pods.size() > snap.pods().size() + diags.size()) {
    std::abort();  // every pod ref is a pod kept, or one dropped with a diagnostic
  }
}

// The first byte that is not a blank, or 0.
inline char first_non_blank(std::string_view data) {
  for (char c : data) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
      return c;
    }
  }
  return 0;
}

}  // namespace kpreempt::fuzz
