// SPDX-License-Identifier: Apache-2.0
// `kpreempt explain --victim NS/NAME`: which pending preemptors of the dump would evict a
// running pod, and which priority levels could evict it under each policy's rules.
#include "cli/explain_modes.h"
#include "policy/yunikorn/cluster.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/model/yunikorn.h"
#include "kpreempt/policy/toleration.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

namespace kpreempt::cli {
namespace {

constexpr const char* k_depends_on_quota = "depends on quota: see explain --pod";

model::PodId find_victim(const model::Snapshot& snap, const std::string& ref) {
  auto [ns, name] = split_ref(ref, "--victim");
  auto id = snap.find_pod(ns, name);
  if (!id) {
    std::string hint = closest_pod(snap, ns, name);
    throw UsageError(fmt::format("no Pod {}/{} in the input{}", ns, name,
                                 hint.empty() ? "" : "; did you mean " + hint + "?"));
  }
  const model::Pod& pod = snap.pods()[*id];
  if (pod.terminal()) {
    throw UsageError(fmt::format("Pod {}/{} has finished (phase {}); nothing can preempt it", ns,
                                 name, pod.phase));
  }
  if (pod.node_name.empty()) {
    throw UsageError(
        fmt::format("Pod {}/{} is pending; use --pod to explain it as a preemptor", ns, name));
  }
  return *id;
}

// The policies the report covers: those --policy names, or all that apply to this pod.
std::vector<const policy::Entry*> report_policies(const ExplainOptions& o,
                                                  const model::Snapshot& snap,
                                                  model::PodId victim) {
  return chosen_policies(o, snap, Subject{victim, model::k_none}, false);
}

// Pending preemptors whose decision lists the victim, in preemptor then policy order.
std::vector<render::VictimThreat> threats(const std::vector<render::Explanation>& all,
                                          const model::Pod& victim) {
  std::vector<render::VictimThreat> out;
  for (const auto& e : all) {
    for (const auto& d : e.decisions) {
      for (const auto& v : d.victims) {
        if (v.ref.kind == "Pod" && v.ref.namespace_ == victim.namespace_ &&
            v.ref.name == victim.name) {
          out.push_back({e.preemptor, e.workload, d.policy, v.node, v.reason});
        }
      }
    }
  }
  return out;
}

// DefaultPreemption's rules for any pod of the class: it may preempt at all
// (preemptionPolicy) and the victim has a lower priority (SelectVictimsOnNode).
std::optional<render::LevelVerdict> default_rules(const std::string& policy,
                                                  const render::PriorityLevel& level,
                                                  std::int32_t victim_priority) {
  if (level.value <= victim_priority) {
    return render::LevelVerdict{
        policy, policy::nested(policy::Code::no, policy::Code::not_higher_priority),
        fmt::format("value {} is not above the pod's priority {}", level.value, victim_priority)};
  }
  if (level.preempt_never) {
    return render::LevelVerdict{
        policy, policy::nested(policy::Code::no, policy::Code::preemption_policy_never),
        "pods of this class have preemptionPolicy Never"};
  }
  return std::nullopt;
}

render::LevelVerdict toleration_verdict(const model::Snapshot& snap, model::PodId victim,
                                        const render::PriorityLevel& level, model::Instant now) {
  if (auto no = default_rules("toleration", level, snap.facts(victim).priority)) {
    return *no;
  }
  policy::Exemption e =
      policy::evaluate_toleration_for(snap, victim, level.value, level.preempt_never, now);
  switch (e.kind) {
    case policy::Exemption::Kind::not_exempt:
      return {"toleration", policy::Code::can_preempt,
              render::reason_text(*e.code) + ": " + e.detail};
    case policy::Exemption::Kind::error:
      return {"toleration", *e.code, e.detail};
    case policy::Exemption::Kind::exempt:
      break;
  }
  if (e.code->code == policy::Code::tolerates_until) {
    return {"toleration", policy::Reason(policy::Code::from, e.code->subject), e.detail};
  }
  return {"toleration", policy::nested(policy::Code::no, e.code->code), e.detail};
}

render::LevelVerdict level_verdict(const model::Snapshot& snap, model::PodId victim,
                                   const render::PriorityLevel& level, std::string_view policy,
                                   model::Instant now) {
  if (policy == "toleration") {
    return toleration_verdict(snap, victim, level, now);
  }
  std::int32_t priority = snap.facts(victim).priority;
  if (auto no = default_rules("default", level, priority)) {
    return *no;
  }
  return {"default", policy::Code::can_preempt,
          fmt::format("value {} is above the pod's priority {}", level.value, priority)};
}

// YuniKorn judges queues against their guarantees, not priority levels; what the dump does
// say is whether preemption is on and how long an ask waits before it may preempt.
std::string yunikorn_note(const model::Snapshot& snap) {
  const model::YunikornConfig* config = snap.yunikorn().config();
  const model::YkPartition* partition = config ? model::default_partition(*config) : nullptr;
  if (partition == nullptr) {
    return "depends on queue guarantees: see explain --pod";
  }
  if (!partition->preemption_enabled) {
    return "never: preemption.enabled is false in partition default";
  }
  std::vector<model::YkQueue> queues = model::build_yk_queues(*partition);
  double delay = static_cast<double>(policy::yunikorn::preemption_delay_ns(queues.front())) / 1e9;
  return fmt::format(
      "depends on queue guarantees: see explain --pod (an ask may preempt once its queue's "
      "preemption.delay has passed; root: {}s)",
      delay);
}

void add_levels(render::VictimReport& r, const model::Snapshot& snap,
                const std::vector<const policy::Entry*>& policies) {
  std::vector<std::string_view> judged;
  for (const policy::Entry* p : policies) {
    if (p->name == "default" || p->name == "toleration") {
      judged.push_back(p->name);
    } else if (p->name == "yunikorn") {
      r.uncharacterised.emplace_back(p->name, yunikorn_note(snap));
    } else {
      r.uncharacterised.emplace_back(p->name, k_depends_on_quota);
    }
  }
  for (const model::PriorityClass& pc : snap.priority_classes()) {
    render::PriorityLevel level{pc.name, pc.value, pc.preemption_policy == "Never", {}};
    for (std::string_view name : judged) {
      level.verdicts.push_back(level_verdict(snap, r.victim, level, name, r.now));
    }
    r.levels.push_back(std::move(level));
  }
  std::stable_sort(r.levels.begin(), r.levels.end(),
                   [](const auto& a, const auto& b) { return a.value > b.value; });
}

}  // namespace

int run_victim(const ExplainOptions& o, model::Instant now, const Streams& io) {
  auto format = *render::parse_format(o.output);
  auto loaded = load_inputs(o.inputs, io);
  if (!loaded) {
    return k_exit_input;
  }
  const model::Snapshot& snap = loaded->snapshot;
  render::VictimReport r;
  r.victim = find_victim(snap, o.victim);
  r.now = now;
  std::ostream* progress = isatty(STDERR_FILENO) == 1 ? &io.err : nullptr;
  Batch batch = explain_subjects(o, snap, pending_subjects(snap), now, false, progress);
  print_warnings(batch.explanations, io);
  r.pending = batch.explanations.size();
  r.threats = threats(batch.explanations, snap.pods()[r.victim]);
  add_levels(r, snap, report_policies(o, snap, r.victim));
  render::render_victim_report(format, snap, r, io.out);
  io.out.flush();
  release_at_exit(batch);
  release_at_exit(*loaded);
  return k_exit_ok;
}

}  // namespace kpreempt::cli
