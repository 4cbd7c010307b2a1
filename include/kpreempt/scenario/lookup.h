// SPDX-License-Identifier: Apache-2.0
// Finding the object a person named, and when there is none (or it is not what the command
// takes), saying what the name is instead: the same pod in another namespace, a Workload given
// where a pod is taken, a Job given for its Workload, a running pod given as a preemptor.
#pragma once

#include "kpreempt/model/snapshot.h"

#include <string>

namespace kpreempt::scenario {

// A name as it was typed: "team/web-0", or "web-0" with the namespace left out ("default").
struct NameRef {
  std::string namespace_;
  std::string name;
  bool namespace_given = true;
};

// What the name was meant to be, so a hint can say what it is instead.
enum class Looking {
  pending_pod,       // a preemptor pod (explain --pod)
  pending_workload,  // a preemptor Workload (explain --workload)
  victim,            // a running pod, an admitted Workload or an object owning one
  victim_workload,   // a Workload only (--victim workload/NS/NAME)
};

// How the interface asks for each kind of object, "{}" standing for NAMESPACE/NAME: the command
// line says "--pod {}", a scenario file "preemptor Pod {}".
struct Spelling {
  std::string pod;              // a pending pod as preemptor
  std::string workload;         // a pending Workload as preemptor
  std::string victim;           // a running pod
  std::string victim_workload;  // an admitted or evicted Workload
  std::string where;            // where names were looked up: "the input"
};

// The object a Workload was made for: its controller owner, or the object kpreempt derived it
// from (null: neither).
const model::ObjectRef* workload_source(const model::Workload& w);

// The command line's spelling: --pod, --workload, --victim and --victim workload/.
const Spelling& command_line_spelling();

// The message for a name the dump holds no object of the looked-for kind for: "no Pod
// default/web-0 in the input", then the closest thing the dump does have: "; web-0 is a Kueue
// Workload: use --workload team/web-0", "; did you mean team/web-0?".
std::string not_found(const model::Snapshot& snap, const NameRef& ref, Looking want,
                      const Spelling& say);

// Why the pod cannot be a preemptor (bound to a node, or finished), with the command that
// takes it as it is; "" when it is pending.
std::string not_pending(const model::Pod& pod, const Spelling& say);

// Why the pod cannot be a victim (pending, or finished), with the command that takes it;
// "" when it runs. `evicted` counts a finished pod whose eviction is under way as a victim.
std::string not_running(const model::Pod& pod, bool evicted, const Spelling& say);

// Why the Workload cannot be a preemptor (admitted), with the command that takes it; "" when
// it is pending.
std::string admitted_problem(const model::Workload& w, const Spelling& say);

}  // namespace kpreempt::scenario
