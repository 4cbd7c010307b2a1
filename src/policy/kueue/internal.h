// SPDX-License-Identifier: Apache-2.0
// The pieces of the kueue policy: the preemptor as Kueue sees it, flavor assignment
// (pkg/scheduler/flavorassigner) and the classical target search
// (pkg/scheduler/preemption/preemption.go, classical/), all of Kueue v0.14.8.
#pragma once

#include "policy/kueue/fair_sharing.h"
#include "policy/kueue/quota.h"

#include "kpreempt/model/kueue.h"
#include "kpreempt/policy/policy.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kpreempt::policy::kueue {

// The pending workload being explained: a Workload, or the Workload Kueue would build for
// a queue-labelled Pod.
struct Preemptor {
  model::ObjectRef ref;                          // Workload/ns/name, or Pod/ns/name
  std::optional<model::ObjectRef> derived_from;  // the Job a Workload was built from
  std::int32_t priority = 0;
  model::Instant ts;  // queue order time (creation)
  std::size_t cq = 0;
  std::vector<model::KueuePodSet> pod_sets;
  std::vector<model::KueueAmounts> requests;  // per pod set, for its whole count
  std::vector<std::int64_t> counts;           // per pod set, after reclaimable pods
  // The admitted slice an elastic scale-up replaces (index into KueueObjects::workloads):
  // its flavors bind the preemptor, its requests are subtracted and it is never a victim.
  std::optional<std::uint32_t> replaces;
};

// What the modelled Kueue release lines do differently (kueue.md "Changes from v0.14 to
// v0.19"), keyed on the line in rules_for and nowhere else.
struct Rules {
  bool skip_zero_uncovered = true;     // v0.16 #8241: a zero uncovered request is not NoFit
  bool positive_requests_only = true;  // v0.17 #8863: zero requests leave R of the search
  bool own_label_keys = true;          // v0.17.6 #12449: a flavor checks only its own label keys
  bool fungibility_preference = true;  // v0.15 flavorFungibility.preference (fixed in v0.16.2)
  bool no_candidates_last = true;      // v0.19.1 #13896: no candidates ranks below viable
  bool workload_slices = true;         // v0.18 ElasticJobsViaWorkloadSlices on by default
  // FairSharingPreemptWithinNominal (on from v0.15.6, v0.16.3, v0.17.0): a preemptor queue
  // within nominal takes other queues' candidates without a strategy check.
  bool fair_within_nominal = true;
  // v0.17.0: the fair-sharing ordering prunes nodes that do not borrow (DRS.IsBorrowing)
  // rather than nodes whose share is zero (DRS.IsZero).
  bool fair_prune_not_borrowing = true;
};
Rules rules_for(ReleaseLine line);

enum class Strategy { final_share, initial_share };
std::string_view to_string(Strategy s);  // LessThanOrEqualToFinalShare, LessThanInitialShare

// Fair sharing as the Kueue Configuration and --set turn it on (fairsharing.Enabled,
// parseStrategies).
struct FairConfig {
  bool on = false;
  std::vector<Strategy> strategies;
  std::string source;  // where it was turned on, for the explanation
};

// Reads the Configuration and --set; says in `d` when fair sharing is on. Throws UsageError
// for a bad --set value.
FairConfig fair_config(const Input& in, const model::KueueObjects& k, Decision& d);

struct Context {
  const Input& in;
  const model::KueueObjects& k;
  QuotaModel& quota;  // simulations change usage and always restore it
  Preemptor p;
  Rules rules{};
  FairConfig fair{};
};

// Checks of §4 and the preemptor's requests. On failure fills `d` (unschedulable, reason
// code, summary) and returns nullopt.
std::optional<Preemptor> resolve_preemptor(const Input& in, const QuotaModel& quota, Decision& d);

// Kueue's preemptionMode, ordered worst to best.
enum class PMode { no_fit, no_candidates, preempt, reclaim, fit };
std::string_view to_string(PMode m);

struct ResourceChoice {
  std::string resource, flavor;
  PMode mode = PMode::no_fit;
  int borrow = 0;
  std::int64_t amount = 0;  // request of this pod set
};

// Why a flavor was skipped or what it offered, for the explanation.
struct FlavorTry {
  std::string flavor, resource_group;
  PMode mode = PMode::no_fit;
  int borrow = 0;
  std::optional<Code> code;  // flavor-mismatch, exceeds-max-capacity, ... for no_fit
  std::string detail;
};

struct PodSetChoice {
  std::string name;
  std::vector<ResourceChoice> resources;
  std::vector<FlavorTry> tries;
  std::optional<Code> code;  // set when the pod set does not fit
  std::string detail;
};

struct Assignment {
  std::vector<PodSetChoice> pod_sets;
  FRAmounts totals;  // every requested pair with its total
  // The requests of the target search: totals, without zero ones where the line drops them.
  FRAmounts search_requests(const Rules& rules) const;
  PMode worst = PMode::fit;
  bool no_fit = false;
  std::optional<Code> code;  // first no-fit reason
  std::string detail;
  FRSet needs_preemption() const;
  int borrow() const;
};

Assignment assign_flavors(Context& ctx);

// ReplacedWorkloadSlice: binds the preemptor to the admitted slice it scales up, if any.
void bind_replaced_slice(Context& ctx);

enum class Variant { within_cq, reclaim, reclaim_no_borrow, reclaim_while_borrowing, fair_sharing };
// The reason Kueue gives the evicted workload: InClusterQueue, InCohortReclamation...
Code upstream_reason(Variant v);

struct Target {
  const Admitted* a = nullptr;
  Variant variant = Variant::within_cq;
};

// One admitted workload as the search judged it.
struct Verdict {
  const Admitted* a = nullptr;
  bool victim = false;
  Code code{};
  std::string detail;
};

// One comparison of the fair-sharing search: the shares of the preemptor's and the
// candidate's sides at their lowest common ancestor (the almost-LCAs, a ClusterQueue or a
// Cohort each), and whether the strategy let the candidate go.
struct FairStep {
  const Admitted* a = nullptr;
  int round = 1;  // 1: the first strategy, 2: LessThanInitialShare on the retries
  Strategy strategy = Strategy::final_share;
  std::size_t lca = 0, preemptor_side = 0, target_side = 0;  // quota model nodes
  Share preemptor_new, target_old;
  std::optional<Share> target_new;  // LessThanOrEqualToFinalShare only
  bool passed = false;
};

struct Search {
  std::vector<Target> targets;    // victims, in removal order after fill-back
  std::vector<Verdict> verdicts;  // every admitted workload of the CQ and its cohort tree
  bool borrow_attempt = true;     // the attempt that found them allowed borrowing
  bool fair = false;              // the fair-sharing search ran
  std::vector<FairStep> fair_steps;
  bool within_nominal = false;  // FairSharingPreemptWithinNominal applied
};

// Target search for pairs `needs` and total requests `requests`: the fair-sharing one when
// ctx.fair is on, else the classical one.
Search find_targets(Context& ctx, const FRSet& needs, const FRAmounts& requests);
// Kueue's fairPreemptions (fair_preemption.cpp).
Search find_fair_targets(Context& ctx, const FRSet& needs, const FRAmounts& requests);

// Shared by both searches: SatisfiesPreemptionPolicy (none when allowed, else the verdict
// code) and WorkloadUsesResources.
std::optional<Code> policy_block(const std::string& policy, std::int32_t prio, const Context& ctx,
                                 const model::Workload& w);
bool uses_any(const Admitted& a, const FRSet& needs);
// The verdict code of a workload removed from the preemptor's own ClusterQueue.
Code own_queue_code(const Context& ctx, std::int32_t priority);
// workloadFits: whether the requests fit what the preemptor's queue has available now.
bool fits_now(const Context& ctx, const FRAmounts& requests, bool borrow);

// One scheduling attempt at the preemptor's current requests: ok when it fits or finds victims.
struct Attempt {
  Assignment a;
  Search s;
  bool searched = false;
  bool ok = false;
};
Attempt attempt(Context& ctx);

// The pod-set counts partial admission settles on, the requests at those counts and the
// attempt that accepted them; nullopt when no minCount allows fewer pods or nothing fits.
struct Reduced {
  std::vector<std::int64_t> counts;
  std::vector<model::KueueAmounts> requests;
  Attempt at;
};
std::optional<Reduced> reduce_counts(Context& ctx);

}  // namespace kpreempt::policy::kueue
