// SPDX-License-Identifier: Apache-2.0
// The process exit codes, one place for all subcommands.
#pragma once

namespace kpreempt {

enum ExitCode : int {
  k_exit_ok = 0,        // answered; an `unschedulable` outcome is still an answer
  k_exit_findings = 1,  // lint or check found something at or above --fail-on
  k_exit_input = 2,     // usage error or unreadable / invalid input
  k_exit_internal = 3,  // a bug in kpreempt
};

}  // namespace kpreempt
