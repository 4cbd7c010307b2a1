// SPDX-License-Identifier: Apache-2.0
// Label selectors, node selectors and tolerations, matched as apimachinery and
// component-helpers match them.
#pragma once

#include "kpreempt/model/objects.h"

#include <string_view>
#include <vector>

namespace kpreempt::model {

// metav1.LabelSelectorAsSelector semantics. A selector that is not `present` matches nothing;
// a present selector with no requirements matches everything (callers that need "empty
// matches nothing", like PDBs in preemption, check empty() themselves).
bool matches(const LabelSelector& sel, const StringMap& labels);
bool empty(const LabelSelector& sel);

// One node selector term (its expressions and fields ANDed; a term with neither matches
// nothing). Gt/Lt compare integers; a non-integer label value does not match.
bool matches(const NodeSelectorTerm& term, const Node& node);

// spec.nodeSelector plus required node affinity (terms ORed), as
// nodeaffinity.GetRequiredNodeAffinity(pod).Match(node).
bool matches_node_affinity(const Pod& pod, const Node& node);

// v1.Toleration.ToleratesTaint.
bool tolerates(const Toleration& t, const Taint& taint);
// The first NoSchedule/NoExecute taint not tolerated, or nullptr.
const Taint* first_untolerated(const std::vector<Toleration>& tolerations,
                               const std::vector<Taint>& taints);

}  // namespace kpreempt::model
