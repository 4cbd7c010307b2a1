// SPDX-License-Identifier: Apache-2.0
// The reason vocabulary: every code a policy emits for a decision, a node, a pod or a victim,
// with what it is about (its subject). Names and meanings live in one table (reason.cpp); the
// renderers alone turn a Reason into text ("tie:n1,n2", "pdb-violation:ns/pdb").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::policy {

enum class Code : std::uint8_t {
  preempt,
  fits,
  fits_borrowing,
  tie,
  upstream_window,
  no_candidates,
  insufficient_candidates,
  preemption_policy_never,
  preemptor_never,
  terminating_victim_on_nominated_node,
  waiting_for_victims,
  error_,
  gang_not_ready,
  workload_not_supported,
  job,
  no_node,
  does_not_guarantee,
  delay_not_elapsed,
  shortfall,
  quota_runtime_exceeded,
  required_node_preemption,
  partition_preemption_disabled,
  queue_preemption_disabled,
  victim,
  victim_node_fit,
  victim_quota,
  victim_job_fit,
  reprieved,
  selected,
  pdb_violation,
  pdb_within_budget,
  pdb_disrupted_pod,
  in_cluster_queue,
  in_cohort_reclamation,
  in_cohort_reclaim_while_borrowing,
  higher_or_equal_priority,
  higher_priority,
  equal_priority,
  equal_priority_older,
  lower_priority,
  not_lower_priority,
  already_terminating,
  already_preempted,
  already_admitted,
  not_needed,
  kept_no_member_placed,
  filled_back,
  foreign_pod,
  other_node,
  other_namespace,
  same_namespace,
  same_namespace_lower_priority,
  same_queue,
  same_quota_lower_priority,
  same_application,
  same_job,
  same_cq,
  same_cq_lower_priority,
  same_cq_newer_equal_priority,
  cohort_reclaim,
  cohort_reclaim_while_borrowing,
  cq_below_nominal,
  cohort_below_nominal,
  cq_inactive,
  within_cq_policy_never,
  reclaim_policy_never,
  reclaim_requires_no_borrowing,
  not_using_assigned_flavor,
  no_quota_lower_priority,
  non_preemptible,
  non_preemptible_min_exceeded,
  disable_preemptible,
  default_quota_protected,
  other_quota,
  quota_not_over_min,
  quota_managed,
  no_quota,
  borrowing_quota,
  outside_fence,
  priority_fenced,
  priority_fenced_subtree,
  queue_at_or_below_guaranteed,
  would_drop_queue_below_guaranteed,
  ask_queue_would_exceed_guaranteed,
  does_not_reduce_shortfall,
  guarantee_not_reachable,
  queue_headroom,
  required_node,
  rejected_by_placement,
  above_max_priority_threshold,
  possible_victim,
  possible_victims,
  no_potential_victims,
  members_placed,
  no_member_placed,
  member_unplaceable,
  cannot_trigger_preemption,
  nominated_counted,
  nomination_cleared,
  inactive_workload,
  candidate,
  chosen,
  passes_filters,
  node_unresolvable,
  node_unschedulable,
  unschedulable,
  prefilter_excluded,
  still_unschedulable,
  does_not_fit_after_removal,
  no_victims,
  all_reprieved,
  lost,
  tied,
  node_too_small,
  filters_failed,
  no_solution,
  not_considered,
  no_victims_on_required_node,
  quota_exceeded_after_removal,
  parent_quota_exceeded,
  preemptor_queue,
  cohort_member,
  request_above_nominal,
  flavor_mismatch,
  exceeds_max_capacity,
  no_flavor_fits,
  resource_not_covered,
  no_common_resource,
  no_cluster_queue,
  no_local_queue,
  local_queue_stopped,
  namespace_mismatch,
  not_kueue_managed,
  pod_group_incomplete,
  invalid_resources,
  prefilter_over_max,
  prefilter_aggregated_over_min,
  error_double_removal,
  error_no_victims_needed,
  error_removed_twice,
  error_priority_class_not_found,
  exempt_preemptor_never,
  tolerates_min_preemptable_priority,
  tolerates_not_scheduled,
  tolerates_until,
  toleration_expired,
  no_priority_class,
  invalid_policy,
  min_preemptable_priority_reached,
  not_higher_priority,
  not_handled,
  gated,
  preemption_disabled,
  resize_effective_requests,
  config_rejected,
  quota_preemption,
  larger_than_excess,
  would_fire_if_reduced,
  no_pending_ask,
  fair_sharing,
  in_cohort_fair_sharing,
  fair_share_final,
  fair_share_initial,
  fair_within_nominal,
  fair_share_above_final,
  fair_share_not_below_initial,
};

// What a code is about; printed after the code's name and a colon.
enum class SubjectKind : std::uint8_t {
  none,
  node,       // a node name
  nodes,      // node names, comma separated
  pdb,        // namespace/name of a PodDisruptionBudget
  plugin,     // a scheduler plugin: NodeAffinity, NodeResourcesFit
  criterion,  // a node-pick criterion or quota check: pdb-violations, over-max
  reason,     // another code, for an outcome of a nested decision (job:<code>)
  time,       // an RFC 3339 instant
  scheduler,  // a spec.schedulerName
  gates,      // scheduling gate names, comma separated
  queue,      // a YuniKorn queue path: root.a.b
};

struct CodeInfo {
  Code code;
  std::string_view name;      // stable: part of the JSON contract, kebab-case but for upstream's
  SubjectKind subject;        // what the code is about, when anything
  std::string_view sentence;  // one sentence for people
};

// Every code, in enum order.
std::span<const CodeInfo> codes();
const CodeInfo& info(Code code);
std::string_view name(Code code);
// Empty for no code, where a policy reports an empty code field in its details.
std::string_view name(const std::optional<Code>& code);
// The code of a stable name; empty for an unknown one.
std::optional<Code> code_named(std::string_view name);
// Upstream fails the attempt or the node with an error (error, error:double-removal, ...).
bool is_error(Code code);

// A code and what it is about: the subject's names in order (one, or several for a node list).
struct Reason {
  Code code{};
  std::vector<std::string> subject;

  Reason() = default;
  Reason(Code c) : code(c) {}  // NOLINT(google-explicit-constructor): codes read as reasons
  Reason(Code c, std::string s) : code(c), subject{std::move(s)} {}
  Reason(Code c, std::vector<std::string> s) : code(c), subject(std::move(s)) {}
  bool operator==(const Reason&) const = default;
};

// A code whose subject is another code (SubjectKind::reason): job:<code>, no:<code>. The inner
// code is held by its stable name, as every subject is held by its names.
Reason nested(Code outer, Code inner);
// The inner code of a nested reason; empty when the reason nests none.
std::optional<Code> inner_code(const Reason& reason);

// The criteria pickOneNodeForPreemption compares candidates on, in upstream's order: the first
// that tells two candidates apart decides between them.
enum class Criterion : std::uint8_t {
  pdb_violations,
  highest_victim_priority,
  sum_priorities,
  victim_count,
  start_time,
};

struct CriterionInfo {
  Criterion criterion;
  std::string_view name;      // stable: the subject of lost:<criterion>
  std::string_view sentence;  // for people, as a summary says why a node won
};

// Every criterion, in the order they are compared.
std::span<const CriterionInfo> criteria();
const CriterionInfo& info(Criterion criterion);
std::string_view name(Criterion criterion);
// lost:<criterion>, the verdict of a candidate that lost on it.
Reason lost_on(Criterion criterion);

// What a NodeVerdict stands for: a node, or a ClusterQueue for quota-level policies whose
// verdicts group candidates by queue.
enum class VerdictUnit : std::uint8_t { node, cluster_queue };
// "node" or "ClusterQueue", as the JSON contract spells it.
std::string_view name(VerdictUnit unit);

}  // namespace kpreempt::policy
