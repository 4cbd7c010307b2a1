// SPDX-License-Identifier: Apache-2.0
// What a batch/v1 Job says about the pods it lost: whether its controller makes them again
// (kubernetes/kubernetes pkg/controller/job, release-1.35: job_controller.go
// exceedsBackoffLimit, pod_failure_policy.go matchPodFailurePolicy, backoff_utils.go and
// indexed_job_utils.go for backoffLimitPerIndex). Only the Job's failure accounting is kept;
// its pods are in the dump.
#pragma once

#include "kpreempt/diag.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kpreempt::model {

// One spec.podFailurePolicy rule, as much as an evicted pod can match.
struct PodFailureRule {
  enum class Action : std::uint8_t { fail_job, fail_index, ignore, count };
  Action action = Action::count;
  // An onExitCodes rule: the exit code a killed container ends with is not in a dump.
  bool on_exit_codes = false;
  // onPodConditions: condition types that match with status True ("DisruptionTarget").
  std::vector<std::string> conditions_true;
};
std::string_view to_string(PodFailureRule::Action a);  // "FailJob", "Ignore", ...

inline constexpr std::int32_t k_no_limit = -1;

struct Job {
  std::string namespace_, name;
  // spec.backoffLimit: 6 when unset, unlimited (k_no_limit) when backoffLimitPerIndex is set
  // and backoffLimit is not.
  std::int32_t backoff_limit = 6;
  std::int32_t backoff_limit_per_index = k_no_limit;  // spec.backoffLimitPerIndex
  std::int32_t max_failed_indexes = k_no_limit;       // spec.maxFailedIndexes
  std::int32_t failed = 0;                            // status.failed: failures so far
  bool finished = false;  // a Complete or Failed condition: nothing is made again
  std::vector<PodFailureRule> pod_failure_policy;
  SourceLoc loc;
};

}  // namespace kpreempt::model
