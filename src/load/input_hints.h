// SPDX-License-Identifier: Apache-2.0
// Hints for files that are not Kubernetes objects yet: Helm templates, kustomizations and
// kubectl's table output, which fail to load with errors that do not say what to do.
#pragma once

#include "kpreempt/diag.h"

#include <cstddef>
#include <string>
#include <vector>

namespace kpreempt::load {

// When loading `path` added errors (diags from index `first` on), adds a note saying how to
// turn the file into objects, if it looks like a Helm template or a kustomization.
void add_input_hints(const std::string& path, std::size_t first, std::vector<Diagnostic>& diags);

}  // namespace kpreempt::load
