// SPDX-License-Identifier: Apache-2.0
// kube-scheduler DefaultPreemption (v1.34), and the hooks variants of it build on.
#pragma once

#include "kpreempt/policy/policy.h"

#include <functional>
#include <string>
#include <string_view>

namespace kpreempt::policy {

Decision decide_default(const Input& in);

// What a victim check says about one lower-priority pod on the examined node.
struct VictimCheck {
  enum class Kind {
    eligible,    // a potential victim
    exempt,      // stays on the node, keeps occupying its resources, never a victim
    node_error,  // the whole node fails (status Error) with `code`/`detail`
  };
  Kind kind = Kind::eligible;
  Reason code;         // verdict code for exempt pods / node errors
  std::string detail;  // for people
};

// What a variant of the default algorithm changes, mirroring upstream's hooks.
struct Variant {
  std::string_view policy_name = "default";
  // IsEligiblePod: called for each pod on the node whose priority is below the preemptor's.
  // Empty: every such pod is a potential victim.
  std::function<VictimCheck(const model::Pod& victim, model::PodId id)> victim_check;
  // Preemptor eligibility on its nominated node: false (default since k8s 1.27) blocks only
  // on lower-priority pods terminating by preemption (DisruptionTarget=True,
  // PreemptionByScheduler); true blocks on any lower-priority terminating pod.
  bool any_terminating_blocks = false;
};

// The default algorithm with a variant's hooks; decide_default is this with Variant{}.
Decision run_default_preemption(const Input& in, const Variant& variant);

}  // namespace kpreempt::policy
