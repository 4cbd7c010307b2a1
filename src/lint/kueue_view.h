// SPDX-License-Identifier: Apache-2.0
// Shared reading of Kueue objects for the KQ rules: cohort names across API versions and the
// flavor resources of ClusterQueues and Cohorts.
#pragma once

#include "lint/corpus.h"

#include <functional>

namespace kpreempt::lint {

// spec.cohortName (v1beta2) or spec.cohort (v1beta1); empty when none.
std::string cohort_of(const Obj& cq);

// Input (and with `with_baseline` baseline) objects of a Kueue kind.
std::vector<const Obj*> kueue_objects(const Corpus& c, std::string_view kind, bool with_baseline);

// Calls f(flavor, resource) for every spec.resourceGroups[].flavors[].resources[] entry.
void each_flavor_resource(const Obj& o, const std::function<void(const Node&, const Node&)>& f);

}  // namespace kpreempt::lint
