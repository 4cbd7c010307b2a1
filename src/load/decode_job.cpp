// SPDX-License-Identifier: Apache-2.0
// What a batch/v1 Job says about the pods it loses (model::Job): its backoff limits, its pod
// failure policy and the failures it has counted. Field rules follow the API server's
// validation (pkg/apis/batch/validation, release-1.35) and defaults (SetDefaults_Job).
#include "load/decode.h"

#include "kpreempt/model/job.h"

#include <fmt/format.h>

namespace kpreempt::load {
namespace {

std::int32_t non_negative(const Field& f, std::int32_t def) {
  const std::optional<std::int32_t> v = f.opt_int32();
  if (v && *v < 0) {
    f.fail("must be greater than or equal to 0");
  }
  return v.value_or(def);
}

model::PodFailureRule::Action action_of(const Field& f) {
  using Action = model::PodFailureRule::Action;
  const std::string a = f.str();
  if (a == "FailJob") {
    return Action::fail_job;
  }
  if (a == "FailIndex") {
    return Action::fail_index;
  }
  if (a == "Ignore") {
    return Action::ignore;
  }
  if (a == "Count") {
    return Action::count;
  }
  f.fail(fmt::format("\"{}\": must be one of FailJob, FailIndex, Ignore, Count", a));
}

model::PodFailureRule decode_rule(const Field& rule) {
  model::PodFailureRule r;
  r.action = action_of(rule["action"]);
  r.on_exit_codes = rule["onExitCodes"].present();
  rule["onPodConditions"].each_item([&](const Field& c) {
    if (c["status"].str("True") == "True") {
      r.conditions_true.push_back(c["type"].str());
    }
  });
  return r;
}

// Complete or Failed, or about to be (FailureTarget, SuccessCriteriaMet): the controller
// makes no pod for it again.
bool finished(const Field& status) {
  bool done = false;
  status["conditions"].each_item([&](const Field& c) {
    const std::string type = c["type"].str();
    if (c["status"].str() == "True" && (type == "Complete" || type == "Failed" ||
                                        type == "FailureTarget" || type == "SuccessCriteriaMet")) {
      done = true;
    }
  });
  return done;
}

}  // namespace

void record_job(const Field& root, DecodeContext& ctx) {
  model::Job j;
  j.namespace_ = object_namespace(root);
  j.name = object_name(root);
  const Field spec = root["spec"];
  j.backoff_limit_per_index = non_negative(spec["backoffLimitPerIndex"], model::k_no_limit);
  // With backoffLimitPerIndex the API server defaults backoffLimit to MaxInt32: no limit.
  j.backoff_limit = non_negative(
      spec["backoffLimit"], j.backoff_limit_per_index == model::k_no_limit ? 6 : model::k_no_limit);
  j.max_failed_indexes = non_negative(spec["maxFailedIndexes"], model::k_no_limit);
  spec["podFailurePolicy"]["rules"].each_item(
      [&](const Field& rule) { j.pod_failure_policy.push_back(decode_rule(rule)); });
  j.failed = non_negative(root["status"]["failed"], 0);
  j.finished = finished(root["status"]);
  j.loc = root.loc();
  ctx.out.add(std::move(j));
}

}  // namespace kpreempt::load
