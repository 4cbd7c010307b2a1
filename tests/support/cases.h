// SPDX-License-Identifier: Apache-2.0
// The explain cases under testdata/explain/<policy>/<case>/: a case.yaml (policy, preemptor,
// now, args, expect) next to the cluster.yaml it is about.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kpreempt::test {

// Every case directory, sorted.
std::vector<std::filesystem::path> explain_case_dirs();

// `explain` arguments (without the program name) for the case in `dir` over `dump`, as JSON;
// --now is the case's, else a fixed instant.
std::vector<std::string> explain_case_args(const std::filesystem::path& dir,
                                           const std::string& dump);

}  // namespace kpreempt::test
