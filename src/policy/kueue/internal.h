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
};

struct Context {
  const Input& in;
  const model::KueueObjects& k;
  QuotaModel& quota;  // simulations change usage and always restore it
  Preemptor p;
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
  PMode worst = PMode::fit;
  bool no_fit = false;
  std::optional<Code> code;  // first no-fit reason
  std::string detail;
  FRSet needs_preemption() const;
  int borrow() const;
};

Assignment assign_flavors(Context& ctx);

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
  std::vector<Verdict> verdicts;  // every admitted workload of the CQ and its cohort
  bool borrow_attempt = true;     // the attempt that found them allowed borrowing
};

// Classical target search for pairs `needs` and total requests `requests`.
Search find_targets(Context& ctx, const FRSet& needs, const FRAmounts& requests);

}  // namespace kpreempt::policy::kueue
