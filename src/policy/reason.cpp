// SPDX-License-Identifier: Apache-2.0
// The one table of reason codes: stable name, subject and meaning of each.
#include "kpreempt/policy/reason.h"

#include <cstddef>
#include <iterator>

namespace kpreempt::policy {
namespace {

constexpr CodeInfo k_codes[] = {
    {Code::preempt, "preempt", SubjectKind::none,
     "The preemptor can be scheduled once the listed victims are evicted."},
    {Code::fits, "fits", SubjectKind::none, "The preemptor fits without evicting anyone."},
    {Code::fits_borrowing, "fits-borrowing", SubjectKind::none,
     "The workload fits its ClusterQueue by borrowing unused quota from the cohort, without "
     "evicting anyone."},
    {Code::tie, "tie", SubjectKind::nodes,
     "Several nodes are equal on every criterion; upstream picks one of them, kpreempt reports the "
     "first by name."},
    {Code::upstream_window, "upstream-window", SubjectKind::none,
     "Upstream dry-runs only a window of candidate nodes, so it may nominate a different node of "
     "equal rank."},
    {Code::no_candidates, "no-candidates", SubjectKind::none,
     "No node or queue offers a set of victims that makes room for the preemptor."},
    {Code::insufficient_candidates, "insufficient-candidates", SubjectKind::none,
     "Candidates exist, but evicting all of them still does not free enough quota."},
    {Code::preemption_policy_never, "preemption-policy-never", SubjectKind::none,
     "The preemptor's preemptionPolicy is Never, so it never evicts anyone."},
    {Code::preemptor_never, "preemptor-never", SubjectKind::none,
     "The preemptor's preemptionPolicy is Never, so it never evicts anyone."},
    {Code::terminating_victim_on_nominated_node, "terminating-victim-on-nominated-node",
     SubjectKind::node,
     "A lower-priority pod is still terminating on the preemptor's nominated node, so upstream "
     "waits instead of preempting again."},
    {Code::waiting_for_victims, "waiting-for-victims", SubjectKind::node,
     "Victims of an earlier preemption are still leaving the nominated node, so upstream waits."},
    {Code::error_, "error", SubjectKind::none,
     "Upstream fails this preemption attempt with an error; see the node verdicts."},
    {Code::gang_not_ready, "gang-not-ready", SubjectKind::none,
     "The gang has not yet reached its minimum member count, so its members are not scheduled."},
    {Code::workload_not_supported, "workload-not-supported", SubjectKind::none,
     "This policy does not explain a Kueue Workload preemptor."},
    {Code::job, "job", SubjectKind::reason,
     "The gang's job-level preemption decided with the given outcome."},
    {Code::no_node, "no-node", SubjectKind::none,
     "No node can take the ask even after preemption."},
    {Code::does_not_guarantee, "does-not-guarantee", SubjectKind::none,
     "The ask's queue is not below its guaranteed resources, so YuniKorn does not preempt for it."},
    {Code::delay_not_elapsed, "delay-not-elapsed", SubjectKind::none,
     "The ask has not waited its queue's preemption.delay yet."},
    {Code::shortfall, "shortfall", SubjectKind::none,
     "The victims found do not cover what the ask is short of."},
    {Code::quota_runtime_exceeded, "quota-runtime-exceeded", SubjectKind::none,
     "The pod's quota has no runtime left for it: used plus request exceeds its runtime quota."},
    {Code::required_node_preemption, "required-node-preemption", SubjectKind::none,
     "A pod bound to one node (a DaemonSet pod) preempts on that node only."},
    {Code::partition_preemption_disabled, "partition-preemption-disabled", SubjectKind::none,
     "Preemption is disabled for the partition."},
    {Code::queue_preemption_disabled, "queue-preemption-disabled", SubjectKind::none,
     "The victim's queue does not allow its pods to be preempted."},
    {Code::victim, "victim", SubjectKind::none, "Evicted to make room for the preemptor."},
    {Code::victim_node_fit, "victim:node-fit", SubjectKind::none,
     "Evicted to make room on the node."},
    {Code::victim_quota, "victim:quota", SubjectKind::none,
     "Evicted to give quota back to the preemptor's quota."},
    {Code::victim_job_fit, "victim:job-fit", SubjectKind::none,
     "Evicted to make room for the gang's members."},
    {Code::reprieved, "reprieved", SubjectKind::none,
     "A potential victim put back because the preemptor fits without evicting it."},
    {Code::selected, "selected", SubjectKind::none,
     "Chosen as a victim by YuniKorn's victim selection."},
    {Code::pdb_violation, "pdb-violation", SubjectKind::pdb,
     "Evicted although it violates the named PodDisruptionBudget; victims that do not are "
     "preferred."},
    {Code::pdb_within_budget, "pdb-within-budget", SubjectKind::pdb,
     "Covered by the named PodDisruptionBudget, which still allows this disruption."},
    {Code::pdb_disrupted_pod, "pdb-disrupted-pod", SubjectKind::pdb,
     "Already counted as disrupted by the named PodDisruptionBudget."},
    {Code::in_cluster_queue, "InClusterQueue", SubjectKind::none,
     "Kueue evicts it to make room in its own ClusterQueue for a higher-priority workload."},
    {Code::in_cohort_reclamation, "InCohortReclamation", SubjectKind::none,
     "Kueue evicts it to give back nominal quota borrowed from the preemptor's ClusterQueue."},
    {Code::in_cohort_reclaim_while_borrowing, "InCohortReclaimWhileBorrowing", SubjectKind::none,
     "Kueue evicts it to reclaim quota while the preemptor itself borrows."},
    {Code::higher_or_equal_priority, "higher-or-equal-priority", SubjectKind::none,
     "Its priority is not below the preemptor's, so it is never a victim."},
    {Code::higher_priority, "higher-priority", SubjectKind::none,
     "Its priority is above the preemptor's, so it is never a victim."},
    {Code::equal_priority, "equal-priority", SubjectKind::none,
     "Its priority equals the preemptor's."},
    {Code::equal_priority_older, "equal-priority-older", SubjectKind::none,
     "Equal priority and admitted earlier, so it is kept."},
    {Code::lower_priority, "lower-priority", SubjectKind::none,
     "Its priority is below the preemptor's."},
    {Code::not_lower_priority, "not-lower-priority", SubjectKind::none,
     "Its priority is not below the preemptor's."},
    {Code::already_terminating, "already-terminating", SubjectKind::none,
     "It is already terminating, so evicting it frees nothing new."},
    {Code::already_preempted, "already-preempted", SubjectKind::none,
     "It has already been preempted."},
    {Code::already_admitted, "already-admitted", SubjectKind::none,
     "The workload is already admitted."},
    {Code::not_needed, "not-needed", SubjectKind::none,
     "Not needed: the victims before it already make room."},
    {Code::kept_no_member_placed, "kept:no-member-placed", SubjectKind::none,
     "Kept because no member of the gang could be placed."},
    {Code::filled_back, "filled-back", SubjectKind::none,
     "Taken back off the victim list because the ask fits without it."},
    {Code::foreign_pod, "foreign-pod", SubjectKind::none,
     "Not managed by this scheduler, so never a victim."},
    {Code::other_node, "other-node", SubjectKind::none,
     "Runs on another node than the one examined."},
    {Code::other_namespace, "other-namespace", SubjectKind::none,
     "In another namespace than the preemptor's."},
    {Code::same_namespace, "same-namespace", SubjectKind::none, "In the preemptor's namespace."},
    {Code::same_namespace_lower_priority, "same-namespace-lower-priority", SubjectKind::none,
     "A lower-priority pod in the preemptor's namespace."},
    {Code::same_queue, "same-queue", SubjectKind::none, "In the preemptor's queue."},
    {Code::same_quota_lower_priority, "same-quota-lower-priority", SubjectKind::none,
     "A lower-priority pod of the preemptor's own quota."},
    {Code::same_application, "same-application", SubjectKind::none,
     "Part of the preemptor's own application."},
    {Code::same_job, "same-job", SubjectKind::none, "A member of the preemptor's own gang."},
    {Code::same_cq, "same-cq", SubjectKind::none, "In the preemptor's ClusterQueue."},
    {Code::same_cq_lower_priority, "same-cq-lower-priority", SubjectKind::none,
     "A lower-priority workload in the preemptor's ClusterQueue."},
    {Code::same_cq_newer_equal_priority, "same-cq-newer-equal-priority", SubjectKind::none,
     "An equal-priority workload admitted after the preemptor was created, in its ClusterQueue."},
    {Code::cohort_reclaim, "cohort-reclaim", SubjectKind::none,
     "A workload of another ClusterQueue of the cohort that borrows quota the preemptor's queue "
     "may reclaim."},
    {Code::cohort_reclaim_while_borrowing, "cohort-reclaim-while-borrowing", SubjectKind::none,
     "A cohort workload the preemptor may reclaim from even while borrowing."},
    {Code::cq_below_nominal, "cq-below-nominal", SubjectKind::none,
     "Its ClusterQueue uses no more than its nominal quota, so the cohort cannot reclaim from it."},
    {Code::cohort_below_nominal, "cohort-below-nominal", SubjectKind::none,
     "A cohort between its ClusterQueue and the preemptor's uses no more than its subtree quota, "
     "so nothing below it can be reclaimed."},
    {Code::cq_inactive, "cq-inactive", SubjectKind::none, "The ClusterQueue is inactive."},
    {Code::within_cq_policy_never, "within-cq-policy-never", SubjectKind::none,
     "The ClusterQueue's withinClusterQueue policy is Never."},
    {Code::reclaim_policy_never, "reclaim-policy-never", SubjectKind::none,
     "The ClusterQueue's reclaimWithinCohort policy is Never."},
    {Code::reclaim_requires_no_borrowing, "reclaim-requires-no-borrowing", SubjectKind::none,
     "The policy reclaims from the cohort only while the preemptor does not borrow."},
    {Code::not_using_assigned_flavor, "not-using-assigned-flavor", SubjectKind::none,
     "It uses none of the flavors assigned to the preemptor."},
    {Code::no_quota_lower_priority, "no-quota-lower-priority", SubjectKind::none,
     "A lower-priority pod with no quota."},
    {Code::non_preemptible, "non-preemptible", SubjectKind::none, "Marked non-preemptible."},
    {Code::non_preemptible_min_exceeded, "non-preemptible-min-exceeded", SubjectKind::none,
     "Non-preemptible pods of the quota would exceed its min."},
    {Code::disable_preemptible, "disable-preemptible", SubjectKind::none,
     "Its quota forbids preempting its pods."},
    {Code::default_quota_protected, "default-quota-protected", SubjectKind::none,
     "Pods of the default quota are not victims of other quotas."},
    {Code::other_quota, "other-quota", SubjectKind::none, "In another quota than the preemptor's."},
    {Code::quota_not_over_min, "quota-not-over-min", SubjectKind::none,
     "Its quota uses no more than its min, so it is not reclaimable."},
    {Code::quota_managed, "quota-managed", SubjectKind::none,
     "Its namespace has an ElasticQuota, judged by quota rules."},
    {Code::no_quota, "no-quota", SubjectKind::none, "Its namespace has no ElasticQuota."},
    {Code::borrowing_quota, "borrowing-quota", SubjectKind::none,
     "Its quota uses more than its min."},
    {Code::outside_fence, "outside-fence", SubjectKind::none,
     "In a queue outside the preemptor's preemption fence."},
    {Code::priority_fenced, "priority-fenced", SubjectKind::none,
     "Its queue's priority is fenced off from the preemptor."},
    {Code::priority_fenced_subtree, "priority-fenced-subtree", SubjectKind::none,
     "A subtree above its queue fences off the preemptor's priority."},
    {Code::queue_at_or_below_guaranteed, "queue-at-or-below-guaranteed", SubjectKind::none,
     "Its queue is at or below its guaranteed resources."},
    {Code::would_drop_queue_below_guaranteed, "would-drop-queue-below-guaranteed",
     SubjectKind::none, "Evicting it would take its queue below its guaranteed resources."},
    {Code::ask_queue_would_exceed_guaranteed, "ask-queue-would-exceed-guaranteed",
     SubjectKind::none, "The ask's queue would exceed its guaranteed resources."},
    {Code::does_not_reduce_shortfall, "does-not-reduce-shortfall", SubjectKind::none,
     "Evicting it does not reduce what the ask is short of."},
    {Code::guarantee_not_reachable, "guarantee-not-reachable", SubjectKind::none,
     "The queue cannot reach its guarantee by preemption."},
    {Code::queue_headroom, "queue-headroom", SubjectKind::none,
     "The ask's queue has no headroom left."},
    {Code::required_node, "required-node", SubjectKind::none,
     "A DaemonSet pod: never a general or quota preemption victim."},
    {Code::rejected_by_placement, "rejected-by-placement", SubjectKind::none,
     "The placement rule rejected the application."},
    {Code::above_max_priority_threshold, "above-max-priority-threshold", SubjectKind::none,
     "Its priority is above the maximum a victim may have."},
    {Code::possible_victim, "possible-victim", SubjectKind::none,
     "A possible victim of job-level preemption."},
    {Code::possible_victims, "possible-victims", SubjectKind::none,
     "The node holds possible victims of job-level preemption."},
    {Code::no_potential_victims, "no-potential-victims", SubjectKind::none,
     "No pod on the node may be evicted."},
    {Code::members_placed, "members-placed", SubjectKind::none,
     "Members of the gang were placed on the node."},
    {Code::no_member_placed, "no-member-placed", SubjectKind::none,
     "No member of the gang could be placed."},
    {Code::member_unplaceable, "member-unplaceable", SubjectKind::none,
     "A member of the gang cannot be placed even after preemption."},
    {Code::cannot_trigger_preemption, "cannot-trigger-preemption", SubjectKind::none,
     "The gang cannot trigger job-level preemption."},
    {Code::nominated_counted, "nominated-counted", SubjectKind::none,
     "A pending pod nominated to this node, counted as if running."},
    {Code::nomination_cleared, "nomination-cleared", SubjectKind::none,
     "A nomination that upstream clears, so not counted."},
    {Code::inactive_workload, "inactive-workload", SubjectKind::none,
     "The Workload is not active."},
    {Code::candidate, "candidate", SubjectKind::none,
     "A node (or workload) where preemption would make room."},
    {Code::chosen, "chosen", SubjectKind::none, "The node YuniKorn picked."},
    {Code::passes_filters, "passes-filters", SubjectKind::none,
     "The preemptor fits on the node as it is."},
    {Code::node_unresolvable, "node-unresolvable", SubjectKind::plugin,
     "The named filter plugin rejects the node in a way preemption cannot fix."},
    {Code::node_unschedulable, "node-unschedulable", SubjectKind::plugin,
     "The named filter plugin rejects the node."},
    {Code::unschedulable, "unschedulable", SubjectKind::plugin,
     "The named filter plugin rejects the node and preemption is not attempted there."},
    {Code::prefilter_excluded, "prefilter-excluded", SubjectKind::plugin,
     "The named PreFilter plugin excluded the node."},
    {Code::still_unschedulable, "still-unschedulable", SubjectKind::plugin,
     "Even with every lower-priority pod gone, the named filter plugin rejects the node."},
    {Code::does_not_fit_after_removal, "does-not-fit-after-removal", SubjectKind::plugin,
     "Even with every potential victim gone, the named plugin rejects the node."},
    {Code::no_victims, "no-victims", SubjectKind::none,
     "The preemptor would fit only by evicting pods that may not be evicted."},
    {Code::all_reprieved, "all-reprieved", SubjectKind::none,
     "Every potential victim could stay; upstream expects at least one victim and drops the "
     "node."},
    {Code::lost, "lost", SubjectKind::criterion,
     "A candidate that lost to another on the named criterion."},
    {Code::tied, "tied", SubjectKind::none,
     "Equal on every criterion; the first tied node by name is reported."},
    {Code::node_too_small, "node-too-small", SubjectKind::none,
     "The node is too small for the ask."},
    {Code::filters_failed, "filters-failed", SubjectKind::none,
     "The node fails the ask's filters."},
    {Code::no_solution, "no-solution", SubjectKind::none,
     "No set of victims on the node makes room."},
    {Code::not_considered, "not-considered", SubjectKind::none, "Not considered by this step."},
    {Code::no_victims_on_required_node, "no-victims-on-required-node", SubjectKind::none,
     "The required node holds no victims."},
    {Code::quota_exceeded_after_removal, "quota-exceeded-after-removal", SubjectKind::none,
     "Even after removing victims the quota would be exceeded."},
    {Code::parent_quota_exceeded, "parent-quota-exceeded", SubjectKind::none,
     "A parent quota would be exceeded."},
    {Code::preemptor_queue, "preemptor-queue", SubjectKind::none,
     "The preemptor's own ClusterQueue."},
    {Code::cohort_member, "cohort-member", SubjectKind::none,
     "Another ClusterQueue of the preemptor's cohort or cohort tree."},
    {Code::request_above_nominal, "request-above-nominal", SubjectKind::none,
     "The request is above the nominal quota, no cohort below the root could hold it, and "
     "borrowWithinCohort is off."},
    {Code::flavor_mismatch, "flavor-mismatch", SubjectKind::none,
     "No flavor matches the workload's node selectors and tolerations."},
    {Code::exceeds_max_capacity, "exceeds-max-capacity", SubjectKind::none,
     "The request exceeds what the cohort could ever provide."},
    {Code::no_flavor_fits, "no-flavor-fits", SubjectKind::none,
     "No flavor has room for the workload."},
    {Code::resource_not_covered, "resource-not-covered", SubjectKind::none,
     "The ClusterQueue does not cover a requested resource."},
    {Code::no_common_resource, "no-common-resource", SubjectKind::none,
     "It shares no resource with what is asked for: the queue's quota, the ask, or the excess "
     "quota preemption must free."},
    {Code::no_cluster_queue, "no-cluster-queue", SubjectKind::none,
     "The LocalQueue points to a ClusterQueue that does not exist."},
    {Code::no_local_queue, "no-local-queue", SubjectKind::none,
     "The named LocalQueue does not exist."},
    {Code::local_queue_stopped, "local-queue-stopped", SubjectKind::none,
     "The LocalQueue is stopped."},
    {Code::namespace_mismatch, "namespace-mismatch", SubjectKind::none,
     "The ClusterQueue's namespaceSelector does not match the namespace."},
    {Code::not_kueue_managed, "not-kueue-managed", SubjectKind::none,
     "The pod carries no kueue.x-k8s.io/queue-name label."},
    {Code::pod_group_incomplete, "pod-group-incomplete", SubjectKind::none,
     "Kueue makes a pod group's Workload only once every pod of the group exists."},
    {Code::invalid_resources, "invalid-resources", SubjectKind::none,
     "The workload's resources are invalid."},
    {Code::prefilter_over_max, "prefilter:over-max", SubjectKind::none,
     "The pod's quota would exceed its max."},
    {Code::prefilter_aggregated_over_min, "prefilter:aggregated-over-min", SubjectKind::none,
     "The quotas together would exceed the sum of their mins."},
    {Code::error_double_removal, "error:double-removal", SubjectKind::none,
     "Upstream fails: a victim is removed twice."},
    {Code::error_no_victims_needed, "error:no-victims-needed", SubjectKind::none,
     "Upstream fails: the node needs no victims."},
    {Code::error_removed_twice, "error:removed-twice", SubjectKind::none,
     "Upstream fails: a pod is removed twice."},
    {Code::error_priority_class_not_found, "error:priority-class-not-found", SubjectKind::none,
     "Upstream fails: the pod's PriorityClass does not exist."},
    {Code::exempt_preemptor_never, "exempt:preemptor-never", SubjectKind::none,
     "Exempt: the preemptor's preemptionPolicy is Never."},
    {Code::tolerates_min_preemptable_priority, "tolerates:min-preemptable-priority",
     SubjectKind::none,
     "Its class tolerates preemptors below its minimum-preemptable-priority forever."},
    {Code::tolerates_not_scheduled, "tolerates:not-scheduled", SubjectKind::none,
     "Not yet scheduled, so its toleration window has not started."},
    {Code::tolerates_until, "tolerates-until", SubjectKind::time,
     "Its class tolerates this preemptor until the given time."},
    {Code::toleration_expired, "toleration-expired", SubjectKind::none,
     "Its toleration window has passed."},
    {Code::no_priority_class, "no-priority-class", SubjectKind::none,
     "No priorityClassName, so no toleration applies."},
    {Code::invalid_policy, "invalid-policy", SubjectKind::none,
     "Its class's toleration annotations are invalid, so none applies."},
    {Code::min_preemptable_priority_reached, "min-preemptable-priority-reached", SubjectKind::none,
     "The preemptor's priority reaches the class's minimum-preemptable-priority."},
    {Code::not_higher_priority, "not-higher-priority", SubjectKind::none,
     "The class's value is not above the pod's priority, so its pods never preempt it."},
    {Code::not_handled, "not-handled", SubjectKind::scheduler,
     "The pod names another scheduler in spec.schedulerName, so this policy's scheduler never "
     "schedules it nor preempts for it."},
    {Code::gated, "gated", SubjectKind::gates,
     "The pod still has scheduling gates, so the scheduler does not try it until they are "
     "removed."},
    {Code::preemption_disabled, "preemption-disabled", SubjectKind::scheduler,
     "The pod's scheduler profile disables DefaultPreemption, so nothing is preempted for it."},
    {Code::resize_effective_requests, "resize-effective-requests", SubjectKind::none,
     "An in-place resize makes the pod count other requests than its spec names."},
    {Code::config_rejected, "config-rejected", SubjectKind::none,
     "The selected release rejects the queue configuration as a whole."},
    {Code::quota_preemption, "quota-preemption", SubjectKind::queue,
     "Quota preemption of the named queue would evict it once the queue's lowered max is "
     "enforced after its delay; never a victim of the pending pod."},
    {Code::larger_than_excess, "larger-than-excess", SubjectKind::none,
     "It asks for more of some resource than quota preemption must free, so it is skipped."},
    {Code::would_fire_if_reduced, "would-fire-if-reduced", SubjectKind::none,
     "The queue uses more than its max and has a quota preemption delay: its pods are evicted "
     "once a config reload that lowered the max (or set the delay) is older than the delay, a "
     "reload a dump cannot show."},
    {Code::no_pending_ask, "no-pending-ask", SubjectKind::none,
     "YuniKorn v1.8 checks a queue for quota preemption only in a scheduling cycle with a "
     "pending request at or below it, and the dump shows none."},
    {Code::fair_sharing, "fair-sharing", SubjectKind::none,
     "Fair sharing is on in the Kueue Configuration: dominant resource shares and the "
     "preemption strategies choose the victims, not the classical search."},
    {Code::in_cohort_fair_sharing, "InCohortFairSharing", SubjectKind::none,
     "Upstream reason: preempted by fair sharing within the cohort."},
    {Code::fair_share_final, "fair-share-final", SubjectKind::none,
     "LessThanOrEqualToFinalShare: the preemptor's share with its workload is no higher than "
     "the candidate's share once the candidate is gone."},
    {Code::fair_share_initial, "fair-share-initial", SubjectKind::none,
     "LessThanInitialShare: the preemptor's share with its workload is below the candidate's "
     "share before any removal."},
    {Code::fair_within_nominal, "fair-within-nominal", SubjectKind::none,
     "The preemptor's queue stays within its nominal quota with the workload, so it reclaims "
     "without a share comparison (FairSharingPreemptWithinNominal)."},
    {Code::fair_share_above_final, "fair-share-above-final", SubjectKind::none,
     "LessThanOrEqualToFinalShare refused it: the preemptor's share with its workload would be "
     "higher than the candidate's share once the candidate is gone."},
    {Code::fair_share_not_below_initial, "fair-share-not-below-initial", SubjectKind::none,
     "LessThanInitialShare refused it: the preemptor's share with its workload is not below the "
     "candidate's share."},
};

constexpr CriterionInfo k_criteria[] = {
    {Criterion::pdb_violations, "pdb-violations", "fewest PDB violations"},
    {Criterion::highest_victim_priority, "highest-victim-priority",
     "lowest highest-victim priority"},
    {Criterion::sum_priorities, "sum-priorities",
     "lowest sum of victim priorities, each counted as priority + 2^31"},
    {Criterion::victim_count, "victim-count", "fewest victims"},
    {Criterion::start_time, "start-time", "its most important victims started latest"},
};

// The table is indexed by the enum: a code out of place would print another's name.
constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < std::size(k_codes); ++i) {
    if (static_cast<std::size_t>(k_codes[i].code) != i) {
      return false;
    }
  }
  return true;
}
static_assert(in_enum_order());

constexpr bool criteria_in_enum_order() {
  for (std::size_t i = 0; i < std::size(k_criteria); ++i) {
    if (static_cast<std::size_t>(k_criteria[i].criterion) != i) {
      return false;
    }
  }
  return true;
}
static_assert(criteria_in_enum_order());

}  // namespace

std::span<const CodeInfo> codes() {
  return k_codes;
}

const CodeInfo& info(Code code) {
  return k_codes[static_cast<std::size_t>(code)];
}

std::string_view name(Code code) {
  return info(code).name;
}

std::string_view name(const std::optional<Code>& code) {
  return code ? name(*code) : std::string_view();
}

std::optional<Code> code_named(std::string_view name) {
  for (const CodeInfo& c : k_codes) {
    if (c.name == name) {
      return c.code;
    }
  }
  return std::nullopt;
}

bool is_error(Code code) {
  switch (code) {
    case Code::error_:
    case Code::error_double_removal:
    case Code::error_no_victims_needed:
    case Code::error_removed_twice:
    case Code::error_priority_class_not_found:
      return true;
    default:
      return false;
  }
}

Reason nested(Code outer, Code inner) {
  return Reason(outer, std::string(name(inner)));
}

std::optional<Code> inner_code(const Reason& reason) {
  if (info(reason.code).subject != SubjectKind::reason || reason.subject.size() != 1) {
    return std::nullopt;
  }
  return code_named(reason.subject.front());
}

std::span<const CriterionInfo> criteria() {
  return k_criteria;
}

const CriterionInfo& info(Criterion criterion) {
  return k_criteria[static_cast<std::size_t>(criterion)];
}

std::string_view name(Criterion criterion) {
  return info(criterion).name;
}

Reason lost_on(Criterion criterion) {
  return Reason(Code::lost, std::string(name(criterion)));
}

std::string_view name(VerdictUnit unit) {
  return unit == VerdictUnit::cluster_queue ? "ClusterQueue" : "node";
}

}  // namespace kpreempt::policy
