// SPDX-License-Identifier: Apache-2.0
#include "scenario/advise_knobs.h"

#include "kpreempt/model/quantity.h"
#include "kpreempt/model/resources.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace kpreempt::scenario::knobs {
namespace {

// Threats whose own knobs are tried when a victim is to be saved; more only repeat the idea.
constexpr std::size_t k_threats_tried = 3;
// Cordoned nodes tried one by one.
constexpr std::size_t k_nodes_tried = 16;

std::string show_int(std::int64_t v) {
  return std::to_string(v);
}

// The pod's request of `resource` in the knob's unit, and the least it can go to (what the
// containers that do not hold the largest request ask for).
std::pair<std::int64_t, std::int64_t> request_range(const model::Pod& pod,
                                                    const std::string& resource) {
  const bool cpu = resource == "cpu";
  std::int64_t total = 0, largest = 0;
  for (const model::Container& c : pod.containers) {
    const model::Quantity q = model::get(c.requests, resource);
    const std::int64_t v = cpu ? q.milli() : q.value_ceil();
    total += v;
    largest = std::max(largest, v);
  }
  if (in_mebibytes(resource)) {
    return {(total + k_mebi - 1) / k_mebi, (total - largest + k_mebi - 1) / k_mebi};
  }
  return {total, total - largest};
}

std::string largest_container(const model::Pod& pod, const std::string& resource) {
  const model::Container* best = nullptr;
  for (const model::Container& c : pod.containers) {
    if (best == nullptr ||
        model::get(c.requests, resource) > model::get(best->requests, resource)) {
      best = &c;
    }
  }
  return best != nullptr ? best->name : "";
}

// `ids`: one pod, or every pod of a workload (the first stands for them all).
void request_knobs(const model::Snapshot& snap, const std::vector<model::PodId>& ids, bool manifest,
                   std::vector<Knob>& out) {
  const model::Pod& pod = snap.pods()[ids.front()];
  std::vector<std::string> resources;
  for (const model::Container& c : pod.containers) {
    for (const auto& [name, q] : c.requests) {
      if (q > model::Quantity() &&
          std::find(resources.begin(), resources.end(), name) == resources.end()) {
        resources.push_back(name);
      }
    }
  }
  std::sort(resources.begin(), resources.end());
  for (const std::string& r : resources) {
    const std::pair<std::int64_t, std::int64_t> range = request_range(pod, r);
    const std::int64_t total = range.first, least = range.second;
    Knob k;
    k.object = {"Pod", pod.namespace_, pod.name};
    k.field =
        fmt::format("spec.containers[{}].resources.requests[{}]", largest_container(pod, r), r);
    k.what = ids.size() > 1 ? fmt::format("the {} request of each of the {} pods", r, ids.size())
                            : fmt::format("the {} request of {}", r, pod_name(pod));
    k.from = total;
    k.limit = least;
    const std::int64_t scale = in_mebibytes(r) ? k_mebi : 1;
    k.apply = [ids, r, scale](model::SnapshotEdit& e, std::int64_t v) {
      for (model::PodId id : ids) {
        e.set_request(id, r, v * scale);
      }
    };
    k.show = [r](std::int64_t v) { return show_amount(r, v); };
    const std::string container = largest_container(pod, r);
    k.command = [&pod, r, container, least](std::int64_t v) {
      // The container keeps what the others do not ask for.
      const std::int64_t own = v - least;
      return template_patch(
          pod, fmt::format(
                   R"({{"containers":[{{"name":"{}","resources":{{"requests":{{"{}":"{}"}}}}}}]}})",
                   container, r, show_amount(r, own)));
    };
    if (manifest) {
      k.command = nullptr;
      k.notes.push_back("a what-if manifest: make the change in the file before it is applied");
    } else {
      note_fixed_template(pod, k.notes);
    }
    if (pod.containers.size() > 1) {
      k.notes.push_back(fmt::format("the pod's total; container {} holds the change", container));
    }
    out.push_back(std::move(k));
  }
}

void never_knob(const model::Snapshot& snap, model::PodId id, std::vector<Knob>& out) {
  const model::Pod& pod = snap.pods()[id];
  if (snap.facts(id).preempt_never) {
    return;
  }
  Knob k;
  k.object = {"Pod", pod.namespace_, pod.name};
  k.field = "spec.preemptionPolicy";
  k.what = fmt::format("the preemptionPolicy of {}", pod_name(pod));
  k.choices = {"PreemptLowerPriority", "Never"};
  k.from = 0;
  k.apply = [id](model::SnapshotEdit& e, std::int64_t v) { e.set_preempt_never(id, v == 1); };
  k.command = [&pod](std::int64_t) {
    return template_patch(pod, R"({"preemptionPolicy":"Never"})");
  };
  note_fixed_template(pod, k.notes);
  k.notes.push_back(
      "preemptionPolicy comes from the PriorityClass when the pod is created: a class with "
      "preemptionPolicy: Never gives it to every pod of the class");
  out.push_back(std::move(k));
}

// The pod's own priority, raised (or lowered) through its PriorityClass.
Knob pod_priority_knob(const model::Snapshot& snap, const std::vector<model::PodId>& ids,
                       std::int64_t limit) {
  const model::Pod& pod = snap.pods()[ids.front()];
  Knob k;
  k.object = {"Pod", pod.namespace_, pod.name};
  k.field = "spec.priority";
  k.what = ids.size() > 1 ? fmt::format("the priority of the {} pods", ids.size())
                          : fmt::format("the priority of {}", pod_name(pod));
  k.from = snap.facts(ids.front()).priority;
  k.limit = limit;
  k.landmarks = priority_landmarks(snap);
  k.apply = [ids](model::SnapshotEdit& e, std::int64_t v) {
    for (model::PodId id : ids) {
      e.set_priority(id, static_cast<std::int32_t>(v));
    }
  };
  // The class of the smallest value past the boundary (raising), or the largest before it.
  k.preferred = [&snap, up = limit > k.from](std::int64_t v) -> std::optional<std::int64_t> {
    std::optional<std::int64_t> best;
    for (const model::PriorityClass& c : snap.priority_classes()) {
      const bool ok = up ? c.value >= v : c.value <= v;
      if (ok && (!best || (up ? c.value < *best : c.value > *best))) {
        best = c.value;
      }
    }
    return best;
  };
  k.show = show_int;
  k.command = [&snap, &pod](std::int64_t v) -> std::string {
    const model::PriorityClass* cls = nullptr;
    for (const model::PriorityClass& c : snap.priority_classes()) {
      if (c.value == v) {
        cls = &c;
      }
    }
    const std::string name = cls != nullptr ? cls->name : fmt::format("priority-{}", v);
    const std::string create =
        cls != nullptr ? ""
                       : fmt::format("kubectl create priorityclass {} --value={} && ", name, v);
    const std::string patch =
        template_patch(pod, fmt::format(R"({{"priorityClassName":"{}"}})", name));
    return patch.empty() ? "" : create + patch;
  };
  note_fixed_template(pod, k.notes);
  k.notes.push_back(
      "a pod takes its priority from spec.priorityClassName when it is created: the command "
      "names a class of at least that value (made when none exists), and the pods are "
      "recreated");
  return k;
}

// The pods a goal of fit or place is about: the workload's, or the one pod.
std::vector<model::PodId> target_pods(const KnobContext& ctx) {
  std::vector<model::PodId> ids;
  for (const PendingRef& p : ctx.target.group) {
    if (p.pod != model::k_none) {
      ids.push_back(p.pod);
    }
  }
  if (ids.empty()) {
    ids.push_back(ctx.target.subject.pod);
  }
  return ids;
}

// How many of a workload's pods there are: the last in queue order go first.
Knob replicas_knob(const KnobContext& ctx) {
  const std::vector<model::PodId> ids = target_pods(ctx);
  const model::Pod& first = ctx.snap.pods()[ids.front()];
  const model::ObjectRef owner =
      workload_of(first).value_or(model::ObjectRef{"Pod", first.namespace_, first.name});
  const std::string& kind = owner.kind;
  const std::string& name = owner.name;
  Knob k;
  k.object = {kind, first.namespace_, name};
  k.field = kind == "Job" ? "spec.parallelism" : "spec.replicas";
  k.what = fmt::format("the pods of {} {}", kind, name);
  k.from = static_cast<std::int64_t>(ids.size());
  k.limit = 1;
  k.apply = [ids](model::SnapshotEdit& e, std::int64_t v) {
    for (std::size_t i = static_cast<std::size_t>(v); i < ids.size(); ++i) {
      e.remove(ids[i]);
    }
  };
  k.show = show_int;
  if (!ctx.target.manifest && kind != "Job" && kind != "Pod") {
    k.command = [resource = lower(kind), ns = first.namespace_, name](std::int64_t v) {
      return fmt::format("kubectl scale {} -n {} {} --replicas={}", resource, ns, name, v);
    };
  } else {
    k.notes.push_back("a what-if manifest: set the count in the file before it is applied");
  }
  return k;
}

}  // namespace

bool in_mebibytes(std::string_view resource) {
  return resource == "memory" || resource == "ephemeral-storage" ||
         resource.starts_with("hugepages-");
}

std::string show_amount(std::string_view resource, std::int64_t v) {
  if (resource == "cpu" || resource == "vcore") {
    return v % 1000 == 0 ? std::to_string(v / 1000) : fmt::format("{}m", v);
  }
  if (in_mebibytes(resource) && v != 0) {
    return v % 1024 == 0 ? fmt::format("{}Gi", v / 1024) : fmt::format("{}Mi", v);
  }
  return std::to_string(v);
}

model::Quantity quantity_of(std::string_view resource, std::int64_t v) {
  if (resource == "cpu" || resource == "vcore") {
    return model::Quantity::from_milli(v);
  }
  return model::Quantity::from_units(in_mebibytes(resource) ? v * k_mebi : v);
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string pod_name(const model::Pod& pod) {
  return fmt::format("{}/{}", pod.namespace_, pod.name);
}

std::vector<std::int64_t> priority_landmarks(const model::Snapshot& snap) {
  std::vector<std::int64_t> out;
  for (const model::PriorityClass& c : snap.priority_classes()) {
    out.push_back(c.value);
  }
  for (model::PodId id = 0; id < snap.pods().size(); ++id) {
    if (snap.pods()[id].pending()) {
      out.push_back(snap.facts(id).priority);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

bool patchable(const std::string& kind) {
  return kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet" ||
         kind == "ReplicaSet";
}

}  // namespace

std::string template_patch(const model::Pod& pod, const std::string& pod_spec_json) {
  const std::optional<model::ObjectRef> owner = workload_of(pod);
  if (!owner || !patchable(owner->kind)) {
    return "";
  }
  return fmt::format("kubectl patch {} -n {} {} -p '{{\"spec\":{{\"template\":{{\"spec\":{}}}}}}}'",
                     lower(owner->kind), pod.namespace_, owner->name, pod_spec_json);
}

void note_fixed_template(const model::Pod& pod, std::vector<std::string>& notes) {
  const std::optional<model::ObjectRef> owner = workload_of(pod);
  if (!owner) {
    notes.push_back(
        fmt::format("{} has no controller and a pod's spec cannot change in place: recreate it",
                    pod_name(pod)));
  } else if (!patchable(owner->kind)) {
    notes.push_back(fmt::format(
        "{} {} owns {} and its pod template cannot change in place: recreate it with the change",
        owner->kind, owner->name, pod_name(pod)));
  }
}

void priority(const KnobContext& ctx, std::vector<Knob>& out) {
  if (ctx.target.goal != AdviseGoal::save || ctx.target.subject.pod == model::k_none) {
    if (ctx.target.goal == AdviseGoal::place && ctx.target.subject.pod != model::k_none) {
      Knob k = pod_priority_knob(ctx.snap, target_pods(ctx), k_highest_user_priority);
      if (ctx.target.manifest) {
        k.command = nullptr;
        k.notes = {
            "a what-if manifest: give its pod template a PriorityClass of at least that "
            "value"};
      }
      out.push_back(std::move(k));
    }
    return;
  }
  const model::PodId id = ctx.target.subject.pod;
  const model::Pod& pod = ctx.snap.pods()[id];
  const auto& classes = ctx.snap.priority_classes();
  for (std::uint32_t i = 0; i < classes.size(); ++i) {
    const model::PriorityClass& c = classes[i];
    if (c.name != pod.priority_class_name || c.value >= k_highest_user_priority) {
      continue;
    }
    Knob k;
    k.object = {"PriorityClass", "", c.name};
    k.field = "value";
    k.what = fmt::format("PriorityClass {}", c.name);
    k.from = c.value;
    k.limit = k_highest_user_priority;
    k.landmarks = priority_landmarks(ctx.snap);
    k.apply = [i](model::SnapshotEdit& e, std::int64_t v) {
      e.set_class_value(i, static_cast<std::int32_t>(v));
    };
    k.show = show_int;
    k.command = [name = c.name](std::int64_t v) {
      return fmt::format(
          "kubectl get priorityclass {} -o yaml | sed 's/^value: .*/value: {}/' | kubectl "
          "replace --force -f -",
          name, v);
    };
    k.notes.push_back(
        "a PriorityClass's value cannot change in place: the command replaces the class, and "
        "its pods take the new value as they are recreated");
    out.push_back(std::move(k));
  }
  out.push_back(pod_priority_knob(ctx.snap, {id}, k_highest_user_priority));
}

void disruption_budgets(const KnobContext& ctx, std::vector<Knob>& out) {
  if (ctx.target.goal != AdviseGoal::save || ctx.target.subject.pod == model::k_none) {
    return;
  }
  for (std::uint32_t b : ctx.snap.pdbs_of(ctx.target.subject.pod)) {
    const model::PodDisruptionBudget& pdb = ctx.snap.pdbs()[b];
    if (pdb.disruptions_allowed <= 0) {
      continue;
    }
    Knob k;
    k.object = {"PodDisruptionBudget", pdb.namespace_, pdb.name};
    k.field = "status.disruptionsAllowed";
    k.what =
        fmt::format("the disruptions PodDisruptionBudget {}/{} allows", pdb.namespace_, pdb.name);
    k.from = pdb.disruptions_allowed;
    k.limit = 0;
    k.apply = [b](model::SnapshotEdit& e, std::int64_t v) {
      e.set_disruptions_allowed(b, static_cast<std::int32_t>(v));
    };
    k.show = show_int;
    k.command = [&pdb](std::int64_t v) {
      return fmt::format(
          "kubectl patch pdb -n {} {} --type merge -p "
          "'{{\"spec\":{{\"minAvailable\":null,\"maxUnavailable\":{}}}}}'",
          pdb.namespace_, pdb.name, v);
    };
    k.notes.push_back(
        "the disruption controller sets disruptionsAllowed from the spec: maxUnavailable N "
        "allows N while every selected pod is healthy; a budget only ranks nodes for the "
        "scheduler, which may still violate it");
    out.push_back(std::move(k));
  }
}

void preemptor(const KnobContext& ctx, std::vector<Knob>& out) {
  if (ctx.target.goal == AdviseGoal::save) {
    for (std::size_t i = 0; i < ctx.threats.size() && i < k_threats_tried; ++i) {
      if (ctx.threats[i].pod != model::k_none) {
        never_knob(ctx.snap, ctx.threats[i].pod, out);
        request_knobs(ctx.snap, {ctx.threats[i].pod}, false, out);
      }
    }
    return;
  }
  if (ctx.target.subject.pod == model::k_none) {
    return;
  }
  if (ctx.target.group.size() > 1) {
    out.push_back(replicas_knob(ctx));
  }
  request_knobs(ctx.snap, target_pods(ctx), ctx.target.manifest, out);
}

void nodes(const KnobContext& ctx, std::vector<Knob>& out) {
  if (ctx.target.goal == AdviseGoal::save || ctx.target.subject.pod == model::k_none) {
    return;
  }
  std::size_t tried = 0;
  for (model::NodeId id : ctx.snap.nodes_by_name()) {
    const model::Node& n = ctx.snap.nodes()[id];
    if (!n.unschedulable || tried++ == k_nodes_tried) {
      continue;
    }
    Knob k;
    k.object = {"Node", "", n.name};
    k.field = "spec.unschedulable";
    k.what = fmt::format("spec.unschedulable of node {}", n.name);
    k.sentence = fmt::format("uncordon node {} (spec.unschedulable: false)", n.name);
    k.choices = {"true", "false"};
    k.from = 0;
    k.apply = [id](model::SnapshotEdit& e, std::int64_t v) { e.set_unschedulable(id, v == 0); };
    k.command = [name = n.name](std::int64_t) { return fmt::format("kubectl uncordon {}", name); };
    k.notes.push_back("whoever cordoned the node may have had a reason: drain, repair, upgrade");
    out.push_back(std::move(k));
  }
}

}  // namespace kpreempt::scenario::knobs

namespace kpreempt::scenario {

using Family = void (*)(const KnobContext&, std::vector<Knob>&);

std::vector<Knob> knobs_for(const KnobContext& ctx) {
  static const std::map<std::string_view, std::vector<Family>> families = {
      {"default", {knobs::priority, knobs::disruption_budgets, knobs::nodes, knobs::preemptor}},
      {"toleration",
       {knobs::priority, knobs::toleration, knobs::disruption_budgets, knobs::nodes,
        knobs::preemptor}},
      {"koordinator",
       {knobs::priority, knobs::elastic_quota, knobs::disruption_budgets, knobs::nodes,
        knobs::preemptor}},
      {"capacity", {knobs::priority, knobs::elastic_quota, knobs::nodes, knobs::preemptor}},
      {"yunikorn", {knobs::priority, knobs::yunikorn, knobs::nodes, knobs::preemptor}},
      {"kueue", {knobs::kueue}},
  };
  std::vector<Knob> out;
  if (auto it = families.find(ctx.entry.name); it != families.end()) {
    for (Family f : it->second) {
      f(ctx, out);
    }
  }
  return out;
}

}  // namespace kpreempt::scenario

namespace kpreempt::scenario {

std::optional<model::ObjectRef> workload_of(const model::Pod& pod) {
  const model::OwnerReference* owner = model::controller_of(pod);
  if (owner == nullptr) {
    return std::nullopt;
  }
  model::ObjectRef ref{owner->kind, pod.namespace_, owner->name};
  if (ref.kind != "ReplicaSet") {
    return ref;
  }
  const std::string* hash = model::find(pod.labels, "pod-template-hash");
  for (const std::string& suffix :
       {hash != nullptr ? "-" + *hash : std::string(), std::string("-what-if")}) {
    if (!suffix.empty() && ref.name.size() > suffix.size() && ref.name.ends_with(suffix)) {
      ref.kind = "Deployment";
      ref.name.resize(ref.name.size() - suffix.size());
      break;
    }
  }
  return ref;
}

}  // namespace kpreempt::scenario
