// SPDX-License-Identifier: Apache-2.0
// The YuniKorn-specific parts of a Decision: the queue tree with fences, guarantees, max and
// usage before and after, as a text table and as details; and quota preemption, apart.
#pragma once

#include "policy/yunikorn/engine.h"

#include "kpreempt/policy/policy.h"

#include <string_view>

namespace kpreempt::policy::yunikorn {

void add_report(const Cluster& c, const Trace& t, model::PodId ask, Decision& d);

// --set YuniKorn.quotaPreemption: `note` (the default) says in one warning which queues quota
// preemption may empty; `assume-fired` prints what each run would evict, as if its timer had run
// out (a table per queue, details.quotaPreemption).
inline constexpr std::string_view k_quota_preemption_key = "YuniKorn.quotaPreemption";
enum class QuotaView { note, assume_fired };
// Throws UsageError for a value that is neither.
QuotaView quota_view(const Args& args);

void add_quota_preemption(const Cluster& c, QuotaView view, Decision& d);

}  // namespace kpreempt::policy::yunikorn
