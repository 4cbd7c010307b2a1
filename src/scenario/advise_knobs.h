// SPDX-License-Identifier: Apache-2.0
// The knob families of `advise` and what they share: each family adds the knobs of one kind of
// object (priorities, budgets, the preemptor, nodes, a scheduler's queues or quotas) that may
// move the goal under a policy.
#pragma once

#include "kpreempt/model/quantity.h"
#include "kpreempt/scenario/advise.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::scenario::knobs {

// The highest value a PriorityClass of users may hold (system classes go above it).
inline constexpr std::int64_t k_highest_user_priority = 1000000000;

// Priorities: of the victim's PriorityClass and of the victim itself.
void priority(const KnobContext& ctx, std::vector<Knob>& out);
// PodDisruptionBudgets that select the victim.
void disruption_budgets(const KnobContext& ctx, std::vector<Knob>& out);
// The preemptor: its requests, its priority, its preemptionPolicy (the target's, or each
// threat's when a victim is to be saved).
void preemptor(const KnobContext& ctx, std::vector<Knob>& out);
// Cordoned nodes the preemptor could use.
void nodes(const KnobContext& ctx, std::vector<Knob>& out);

// The families of one scheduler each (advise_knobs_<family>.cpp).
// PreemptionToleration: the victim's class's minimum-preemptable-priority and
// toleration-seconds annotations.
void toleration(const KnobContext& ctx, std::vector<Knob>& out);
// Kueue: ClusterQueue quotas, borrowing and lending limits and preemption policies, and
// WorkloadPriorityClass values.
void kueue(const KnobContext& ctx, std::vector<Knob>& out);
// YuniKorn: queue guaranteed and max resources, preemption fences, priority offsets and the
// allow-preemption annotation.
void yunikorn(const KnobContext& ctx, std::vector<Knob>& out);
// ElasticQuota min and max, of the capacity plugin and of Koordinator.
void elastic_quota(const KnobContext& ctx, std::vector<Knob>& out);

// Amounts in a knob's unit: cpu (and YuniKorn's vcore) in milli-cores; memory, ephemeral
// storage and huge pages in MiB (a boundary to the byte is noise, and manifests write Mi or
// Gi); every other resource in whole units.
inline constexpr std::int64_t k_mebi = 1024 * 1024;
bool in_mebibytes(std::string_view resource);
// As a manifest writes the amount: "6", "5999m", "24Gi", "1536Mi".
std::string show_amount(std::string_view resource, std::int64_t v);
// The amount as a quantity of the resource.
model::Quantity quantity_of(std::string_view resource, std::int64_t v);
// Lower case, for kubectl's resource names ("Deployment" -> "deployment").
std::string lower(std::string_view s);

// Priorities worth trying: every PriorityClass value and every pending pod's priority.
std::vector<std::int64_t> priority_landmarks(const model::Snapshot& snap);

// A command that sets `pod_spec_json` (a strategic merge patch of a pod spec) on the pod's
// controller's template (a Deployment behind a ReplicaSet, a StatefulSet, a DaemonSet); ""
// when the template cannot change in place (a Job's, a bare pod's).
std::string template_patch(const model::Pod& pod, const std::string& pod_spec_json);
// Why the pod's template cannot change in place, added to `notes` when it cannot.
void note_fixed_template(const model::Pod& pod, std::vector<std::string>& notes);

// "ns/name" for a pod.
std::string pod_name(const model::Pod& pod);

}  // namespace kpreempt::scenario::knobs
