// SPDX-License-Identifier: Apache-2.0
// A DaemonSet given as what-if input becomes one pending pod per node its controller would run
// it on (kubernetes/kubernetes pkg/controller/daemon, release-1.34: NodeShouldRunDaemonPod,
// predicates, util.AddOrUpdateDaemonPodTolerations and ReplaceDaemonSetPodNodeNameNodeAffinity).
// Which nodes those are is known only once every node is read, so the snapshot build makes the
// pods (expand_daemon_sets).
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/objects.h"

#include <string>
#include <vector>

namespace kpreempt::model {

struct DaemonSet {
  std::string namespace_, name;
  // The pod the controller creates from the template, but for its name and its node: namespace,
  // owner, phase Pending and the controller's tolerations set; loc is the template's.
  Pod pod;
  SourceLoc loc;  // the DaemonSet's
};

// Adds the tolerations the DaemonSet controller gives every pod it creates: node conditions
// that must not keep or evict a node agent (not-ready and unreachable NoExecute; disk, memory
// and PID pressure and unschedulable NoSchedule; network-unavailable NoSchedule with
// hostNetwork). One already there, equal in key, operator, value and effect, is not repeated.
void add_daemon_tolerations(Pod& pod, bool host_network);

// Whether the controller would run `pod` (a DaemonSet's, before its node is set) on `node`,
// or why not; `taint` is set to the first untolerated taint when the answer is `taint`.
enum class DaemonFit { runs, node_name, node_affinity, taint };
DaemonFit daemon_fit(const Pod& pod, const Node& node, const Taint** taint = nullptr);

// The node a DaemonSet pod is for (util.GetTargetNodeName): spec.nodeName, else the value of
// its required node affinity's matchFields metadata.name In term; empty when it has neither.
std::string daemon_target_node(const Pod& pod);

// Adds to `pods` the pods of each DaemonSet, named <name>-what-if-<node>, for every node it
// would run on and that runs no pod of it yet (a pod of `pods` it controls, not finished,
// bound to the node or pinned to it by affinity). Nodes are taken in name order, the first of
// a repeated name only. Warns about a DaemonSet that makes no pod and notes the nodes that
// already run one. Returns the refs of the pods made, in DaemonSet then node-name order.
std::vector<ObjectRef> expand_daemon_sets(const std::vector<DaemonSet>& sets,
                                          const std::vector<Node>& nodes, std::vector<Pod>& pods,
                                          std::vector<Diagnostic>& diags);

}  // namespace kpreempt::model
