// SPDX-License-Identifier: Apache-2.0
// Scenario results for people (text), programs (json) and CI test reports (JUnit XML).
#pragma once

#include "kpreempt/scenario/runner.h"

#include <iosfwd>
#include <optional>
#include <string_view>
#include <vector>

namespace kpreempt::scenario {

enum class ReportFormat { text, json, junit };
std::optional<ReportFormat> parse_report_format(std::string_view name);

// text: "PASS name" / "FAIL name: problem; problem" per scenario, then "N passed, M failed".
// json: {"scenarios": [{name, path, policy, passed, problems[]}], "passed": N, "failed": M}.
// junit: one <testsuite> with a <testcase> per scenario; failures and errors carry problems.
// Scenarios that could not be evaluated (Status::error) count as failed.
void report(ReportFormat format, const std::vector<Result>& results, std::ostream& out);

}  // namespace kpreempt::scenario
