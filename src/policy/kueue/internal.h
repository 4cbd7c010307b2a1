// SPDX-License-Identifier: Apache-2.0
// The pieces of the kueue policy: the preemptor as Kueue sees it, flavor assignment
// (pkg/scheduler/flavorassigner) and the classical target search
// (pkg/scheduler/preemption/preemption.go, classical/), all of Kueue v0.14.8.
#pragma once

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
};
Rules rules_for(ReleaseLine line);

struct Context {
  const Input& in;
  const model::KueueObjects& k;
  QuotaModel& quota;  // simulations change usage and always restore it
  Preemptor p;
  Rules rules{};
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

enum class Variant { within_cq, reclaim, reclaim_no_borrow, reclaim_while_borrowing };
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

struct Search {
  std::vector<Target> targets;    // victims, in removal order after fill-back
  std::vector<Verdict> verdicts;  // every admitted workload of the CQ and its cohort tree
  bool borrow_attempt = true;     // the attempt that found them allowed borrowing
};

// Classical target search for pairs `needs` and total requests `requests`.
Search find_targets(Context& ctx, const FRSet& needs, const FRAmounts& requests);

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
