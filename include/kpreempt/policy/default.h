// SPDX-License-Identifier: Apache-2.0
// kube-scheduler DefaultPreemption (v1.34), and the hooks variants of it build on.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "kpreempt/policy/policy.h"

namespace kpreempt::policy {

Decision decide_default(const Input& in);

// What a variant of the default algorithm may change: which lower-priority pods are
// potential victims (PreemptionToleration), mirroring upstream's IsEligiblePod hook.
struct VictimFilter {
  // nullopt: the pod is a potential victim. A value: it is exempt, with a verdict code and
  // detail ("toleration-protected", "protected from priority < 10000 until ...").
  // `node_error` set: the whole node fails with that reason (e.g. missing PriorityClass).
  struct Result {
    bool eligible = true;
    std::string code, detail;
    bool node_error = false;
  };
  std::function<Result(const model::Pod& victim, model::PodId victim_id)> check;
};

// The default algorithm with a victim filter; decide_default is this with no filter.
Decision run_default_preemption(const Input& in, std::string_view policy_name,
                                const VictimFilter* filter);

}  // namespace kpreempt::policy
