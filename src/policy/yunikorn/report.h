// SPDX-License-Identifier: Apache-2.0
// The YuniKorn-specific parts of a Decision: the queue tree with fences, guarantees, max and
// usage before and after, as a text table and as details.
#pragma once

#include "policy/yunikorn/engine.h"

#include "kpreempt/policy/policy.h"

namespace kpreempt::policy::yunikorn {

void add_report(const Cluster& c, const Trace& t, model::PodId ask, Decision& d);

}  // namespace kpreempt::policy::yunikorn
