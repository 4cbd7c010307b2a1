// SPDX-License-Identifier: Apache-2.0
// YuniKorn's class-level rules: candidates need a priority not above the ask's (equal may
// go), a Never pod preempts no one, and a class annotated allow-preemption "false" only
// orders its pods last. Queues, guarantees and fences decide the rest, per pod.
#include "kpreempt/policy/classes.h"

#include "policy/yunikorn/cluster.h"

#include "kpreempt/model/yunikorn.h"
#include "kpreempt/policy/yunikorn.h"

#include <fmt/format.h>

namespace kpreempt::policy {
namespace {

using yunikorn::k_allow_preemption;

bool shown(std::span<const ClassView> classes) {
  return any_annotated(classes, k_allow_preemption);
}

ClassCell cell(const ClassView& preemptor, const ClassView& victim) {
  if (preemptor.never || victim.value > preemptor.value) {
    return {ClassVerdict::no, 0};
  }
  const std::string* allow = victim.object == nullptr
                                 ? nullptr
                                 : model::find(victim.object->annotations, k_allow_preemption);
  return {allow != nullptr && *allow == "false" ? ClassVerdict::last : ClassVerdict::yes, 0};
}

std::vector<std::string> notes(std::span<const ClassView> /*classes*/) {
  return {
      "equal priority may be preempted; queue guarantees, fences and priority offsets also "
      "decide, and a pod's own allow-preemption annotation overrides its class"};
}

// Queues are judged against their guarantees, not priority levels; what the dump does say
// is whether preemption is on and how long an ask waits before it may preempt.
std::string victim_note(const model::Snapshot& snap) {
  const model::YunikornConfig* config = snap.yunikorn().config();
  const model::YkPartition* partition = config ? model::default_partition(*config) : nullptr;
  if (partition == nullptr) {
    return "depends on queue guarantees: see explain --pod";
  }
  if (!partition->preemption_enabled) {
    return "never: preemption.enabled is false in partition default";
  }
  std::vector<model::YkQueue> queues = model::build_yk_queues(*partition);
  double delay = static_cast<double>(yunikorn::preemption_delay_ns(queues.front())) / 1e9;
  return fmt::format(
      "depends on queue guarantees: see explain --pod (an ask may preempt once its queue's "
      "preemption.delay has passed; root: {}s)",
      delay);
}

}  // namespace

const ClassRules k_yunikorn_class_rules{
    .shown = shown,
    .cell = cell,
    .notes = notes,
    .victim_note = victim_note,
};

}  // namespace kpreempt::policy
