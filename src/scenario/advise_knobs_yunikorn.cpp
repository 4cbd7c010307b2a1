// SPDX-License-Identifier: Apache-2.0
// The YuniKorn knobs of `advise`: the guaranteed and max resources, preemption policies and
// priority offsets of the queues that decide the target, and a victim's allow-preemption
// annotation. Queues are found as the policy finds them (its cluster view); edits go to the
// queue file the snapshot holds, which the policy reads again for every decision, so no derived
// table needs keeping.
#include "policy/yunikorn/cluster.h"
#include "scenario/advise_knobs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <optional>
#include <utility>

namespace kpreempt::scenario::knobs {
namespace {

namespace yk = policy::yunikorn;
using model::YkQueueConfig;

// The knobs' ranges come from queues, placement and usage, which the release lines the policy
// models read alike (pod-level hugepages aside): the newest line's rules (an unset line) serve.
constexpr policy::ReleaseLine k_any_line{};

// Threats whose queues are tried for a fence; more only repeat the idea.
constexpr std::size_t k_threats_tried = 3;
// priority.offset is parsed as a 32-bit integer (queue.go strconv.ParseInt(v, 10, 32)).
constexpr std::int64_t k_highest_offset = std::numeric_limits<std::int32_t>::max();

// A configured queue as indexes into the queue file, from the partition's list down: an edit
// finds it again in the snapshot it changes.
struct ConfigQueue {
  bool defaults = false;  // in yunikorn-defaults, there being no yunikorn-configs
  std::size_t partition = 0;
  std::vector<std::size_t> steps;
  std::string path;  // root.a.b
};

template <class Objects>
auto& partition_of(Objects& o, const ConfigQueue& at) {
  return (at.defaults ? *o.defaults : *o.configs).partitions[at.partition];
}

template <class Partition>
auto& queue_in(Partition& p, const std::vector<std::size_t>& steps) {
  auto* level = &p.queues;
  decltype(&p.queues.front()) q = nullptr;
  for (std::size_t i : steps) {
    q = &(*level)[i];
    level = &q->queues;
  }
  return *q;
}

template <class Objects>
auto& resolve(Objects& o, const ConfigQueue& at) {
  return queue_in(partition_of(o, at), at.steps);
}

// Where queue `q` of the policy's view is written in the queue file; nullopt for root (it may
// carry no resources) and for queues a placement rule made (they are not in the file).
std::optional<ConfigQueue> locate(const model::Snapshot& snap, const yk::Cluster& c,
                                  std::uint32_t q) {
  const model::YunikornConfig* cfg = snap.yunikorn().config();
  const model::YkQueue& yq = c.queues[q].q;
  const model::YkPartition* p = cfg != nullptr ? model::default_partition(*cfg) : nullptr;
  if (p == nullptr || yq.dynamic || yq.parent == yk::k_no_queue) {
    return std::nullopt;
  }
  ConfigQueue at{.defaults = !snap.yunikorn().configs,
                 .partition = static_cast<std::size_t>(p - cfg->partitions.data()),
                 .steps = {},
                 .path = yq.path};
  std::vector<std::string> names;
  for (std::uint32_t a = q; c.queues[a].q.parent != yk::k_no_queue; a = c.queues[a].q.parent) {
    names.push_back(c.queues[a].q.name);
  }
  const std::vector<YkQueueConfig>* level = &p->queues;
  // config.go checkQueuesStructure inserts root unless the file lists root alone.
  if (level->size() == 1 && lower(level->front().name) == "root") {
    at.steps.push_back(0);
    level = &level->front().queues;
  }
  for (auto name = names.rbegin(); name != names.rend(); ++name) {
    auto it = std::find_if(level->begin(), level->end(),
                           [&](const YkQueueConfig& x) { return lower(x.name) == *name; });
    if (it == level->end()) {
      return std::nullopt;
    }
    at.steps.push_back(static_cast<std::size_t>(it - level->begin()));
    level = &it->queues;
  }
  return at;
}

// checkQueueResource (configs/configvalidator.go): max within the parent's, guaranteed within
// max, the children's guarantees within the queue's guarantee and max. The guarantee the parent
// adds up, or nullopt when the scheduler would reject the file.
std::optional<yk::Res> checked(const YkQueueConfig& q, const yk::ORes& parent_max) {
  const yk::ORes& g = q.resources.guaranteed;
  const yk::ORes& m = q.resources.max;
  if ((m && !yk::fits_defined(parent_max, *m)) || (g && !yk::fits_defined(m, *g))) {
    return std::nullopt;
  }
  const yk::ORes max = yk::cmin(m, parent_max);
  yk::Res sum;
  for (const YkQueueConfig& child : q.queues) {
    const std::optional<yk::Res> cg = checked(child, max);
    if (!cg) {
      return std::nullopt;
    }
    yk::add_to(sum, *cg);
  }
  if (!yk::fits_defined(g, sum) || !yk::fits_defined(max, sum)) {
    return std::nullopt;
  }
  return g ? *g : sum;
}

bool accepted(const model::YkPartition& p) {
  return std::all_of(p.queues.begin(), p.queues.end(),
                     [](const YkQueueConfig& q) { return checked(q, std::nullopt).has_value(); });
}

using Setter = std::function<void(YkQueueConfig&, std::int64_t)>;

// The farthest value from `from` toward `want` that the scheduler still accepts with `set`
// applied: it rejects a file that breaks a limit and keeps its previous queues. A raise only
// tightens the limits, so the accepted values are the ones up to a bound.
std::int64_t accepted_limit(const model::Snapshot& snap, const ConfigQueue& at, std::int64_t from,
                            std::int64_t want, const Setter& set) {
  model::YkPartition p = partition_of(snap.yunikorn(), at);
  if (!accepted(p)) {
    return want;  // rejected as it is: the limits tell nothing
  }
  YkQueueConfig& q = queue_in(p, at.steps);
  auto ok = [&](std::int64_t v) {
    set(q, v);
    return accepted(p);
  };
  if (ok(want)) {
    return want;
  }
  std::int64_t yes = from, no = want;
  while (no - yes > 1) {
    const std::int64_t mid = yes + (no - yes) / 2;
    (ok(mid) ? yes : no) = mid;
  }
  return yes;
}

// Bytes are searched in MiB, as manifests write them; vcore in millicores.
std::int64_t scale_of(std::string_view key) {
  return key == "memory" || key == "ephemeral-storage" || key.starts_with("hugepages-") ? k_mebi
                                                                                        : 1;
}

template <class Q>
auto& bound_of(Q& q, bool guaranteed) {
  return guaranteed ? q.resources.guaranteed : q.resources.max;
}

// A map with one value changed; a map with no value above zero is discarded, as the queue file
// reader does.
yk::ORes with_amount(const yk::ORes& m, const std::string& key, std::int64_t value) {
  yk::Res r = m.value_or(yk::Res{});
  yk::set(r, key, value);
  const bool any = std::any_of(r.begin(), r.end(), [](const auto& e) { return e.second > 0; });
  return any ? yk::ORes(std::move(r)) : std::nullopt;
}

model::StringMap with_property(model::StringMap m, const std::string& key,
                               const std::string& value) {
  model::set(m, key, value);
  return m;
}

// The ConfigMap that holds the queue file, and the file's key in it.
struct QueueFile {
  model::ObjectRef object;
  std::string key;
  bool bare = false;  // read from a queues.yaml of its own
};

QueueFile queue_file(const model::Snapshot& snap, const ConfigQueue& at) {
  const model::YunikornConfig& cfg =
      at.defaults ? *snap.yunikorn().defaults : *snap.yunikorn().configs;
  QueueFile f{{"ConfigMap", "yunikorn", at.defaults ? "yunikorn-defaults" : "yunikorn-configs"},
              "queues.yaml",
              !cfg.source.starts_with("ConfigMap ")};
  // The loader names it "ConfigMap yunikorn/<name>: data.<service.policyGroup>.yaml".
  if (const std::size_t d = cfg.source.find(": data."); !f.bare && d != std::string::npos) {
    f.key = cfg.source.substr(d + 7);
  }
  return f;
}

// A knob on one queue of the file: object, field, command and the notes every such edit needs.
Knob queue_knob(const model::Snapshot& snap, const ConfigQueue& at, const std::string& field) {
  const QueueFile f = queue_file(snap, at);
  Knob k;
  k.object = f.object;
  k.field = fmt::format("data.{}[{}].{}", f.key, at.path, field);
  k.notes.push_back(fmt::format(
      "in {}, partition default, queue {}: the scheduler reloads the file when the ConfigMap "
      "changes, and keeps its previous queues if it rejects the file",
      f.key, at.path));
  if (f.bare) {
    k.notes.push_back(
        "the queues were read from a bare queues.yaml: the scheduler reads them from ConfigMap "
        "yunikorn/yunikorn-configs, key queues.yaml");
  }
  return k;
}

std::string edit_command(const model::ObjectRef& config_map, const std::string& change) {
  return fmt::format("kubectl edit configmap -n {} {}  # {}", config_map.namespace_,
                     config_map.name, change);
}

// Raising one value of a queue's guaranteed or max map toward `want` (scheduler units); nullopt
// when the scheduler would accept no raise at all.
std::optional<Knob> amount_knob(const model::Snapshot& snap, const ConfigQueue& at, bool guaranteed,
                                const std::string& key, std::int64_t want) {
  const char* which = guaranteed ? "guaranteed" : "max";
  const yk::ORes& today = bound_of(resolve(snap.yunikorn(), at), guaranteed);
  const bool set = today && yk::has(*today, key);
  const std::int64_t scale = scale_of(key), now = set ? yk::get(*today, key) : 0;
  const Setter setter = [guaranteed, key, scale](YkQueueConfig& q, std::int64_t v) {
    bound_of(q, guaranteed) = with_amount(bound_of(q, guaranteed), key, v * scale);
  };
  Knob k = queue_knob(snap, at, fmt::format("resources.{}.{}", which, key));
  k.from = now / scale;
  k.limit = accepted_limit(snap, at, k.from, (want + scale - 1) / scale, setter);
  if (k.limit <= k.from) {
    return std::nullopt;
  }
  k.what = fmt::format("the {} {} of queue {}", which, key, at.path);
  k.notes.push_back(
      "the values tried keep what the scheduler checks before it accepts a file: guaranteed "
      "within max, max within the parent's, the children's guarantees within their parent's "
      "guarantee and max");
  k.apply = [at, guaranteed, key, scale](model::SnapshotEdit& e, std::int64_t v) {
    auto& field = bound_of(resolve(e.yunikorn(), at), guaranteed);
    e.assign(field, with_amount(field, key, v * scale));
  };
  const std::int64_t from = k.from;
  k.show = [key, from, set, now, scale](std::int64_t v) {
    if (v != from) {
      return show_amount(key, v);
    }
    return !set ? std::string("unset")
                : (now % scale == 0 ? show_amount(key, v) : std::to_string(now));
  };
  k.command = [cm = k.object, at, which, key](std::int64_t v) {
    return edit_command(
        cm, fmt::format("{}: resources.{}.{}: {}", at.path, which, key, show_amount(key, v)));
  };
  return k;
}

constexpr const char* k_reload_properties =
    "YuniKorn v1.8 and earlier give a queue only its own properties when the file is reloaded: "
    "what it inherits from a parent (preemption.policy disabled, preemption.delay) comes back "
    "at the next scheduler restart";

// Setting one property of a queue to `target`: a choice between today's value and it.
Knob property_knob(const model::Snapshot& snap, const ConfigQueue& at, const std::string& key,
                   const std::string& today, const std::string& target) {
  Knob k = queue_knob(snap, at, fmt::format("properties[{}]", key));
  k.what = fmt::format("the {} of queue {}", key, at.path);
  k.choices = {today.empty() ? "default" : today, target};
  k.from = 0;
  k.apply = [at, key, target](model::SnapshotEdit& e, std::int64_t v) {
    if (v == 1) {
      model::StringMap& props = resolve(e.yunikorn(), at).properties;
      e.assign(props, with_property(props, key, target));
    }
  };
  k.command = [cm = k.object, at, key, target](std::int64_t) {
    return edit_command(cm, fmt::format("{}: properties: {}: {}", at.path, key, target));
  };
  k.notes.push_back(k_reload_properties);
  return k;
}

Knob offset_knob(const model::Snapshot& snap, const yk::Cluster& c, std::uint32_t q,
                 const ConfigQueue& at) {
  Knob k = queue_knob(snap, at, "properties[priority.offset]");
  k.what = fmt::format("the priority.offset of queue {}", at.path);
  k.from = yk::priority_offset(c.queues[q].q);
  k.limit = k_highest_offset;
  k.apply = [at](model::SnapshotEdit& e, std::int64_t v) {
    model::StringMap& props = resolve(e.yunikorn(), at).properties;
    e.assign(props, with_property(props, "priority.offset", std::to_string(v)));
  };
  k.show = [](std::int64_t v) { return std::to_string(v); };
  k.command = [cm = k.object, at](std::int64_t v) {
    return edit_command(cm, fmt::format("{}: properties: priority.offset: \"{}\"", at.path, v));
  };
  k.notes.push_back(
      "the offset is added to the priority of the queue's pods as preemption compares them "
      "with other queues; it is not inherited by child queues");
  return k;
}

// The resources a guarantee is worth raising on: those the pod uses, "pods" only when the
// guarantee already names it (every pod counts one).
std::vector<std::string> guarantee_keys(const yk::Res& pod, const yk::ORes& guaranteed) {
  std::vector<std::string> out;
  for (const auto& [key, v] : pod) {
    if (v > 0 && (key != "pods" || (guaranteed && yk::has(*guaranteed, key)))) {
      out.push_back(key);
    }
  }
  return out;
}

void guarantee_knobs(const model::Snapshot& snap, const yk::Cluster& c, const ConfigQueue& at,
                     std::uint32_t q, const yk::Res& pod,
                     const std::function<std::int64_t(const std::string&)>& want,
                     std::vector<Knob>& out) {
  for (const std::string& key : guarantee_keys(pod, c.queues[q].q.guaranteed)) {
    if (std::optional<Knob> k = amount_knob(snap, at, true, key, want(key))) {
      out.push_back(std::move(*k));
    }
  }
}

std::optional<Knob> opt_out_knob(const model::Snapshot& snap, const yk::Cluster& c,
                                 model::PodId id) {
  if (!c.pods[id].allow_preempt_self) {
    return std::nullopt;
  }
  const model::Pod& pod = snap.pods()[id];
  const std::string key(yk::k_allow_preemption);
  const std::string* today = model::find(pod.annotations, key);
  Knob k;
  k.object = {"Pod", pod.namespace_, pod.name};
  k.field = fmt::format("metadata.annotations[{}]", key);
  k.what = fmt::format("the {} annotation of {}", key, pod_name(pod));
  k.choices = {today != nullptr ? *today : "unset", "false"};
  k.from = 0;
  k.apply = [id, key](model::SnapshotEdit& e, std::int64_t v) {
    if (v == 1) {
      e.set_annotation(id, key, "false");
    }
  };
  k.command = [&pod, key](std::int64_t) {
    return fmt::format("kubectl annotate pod -n {} {} {}=false --overwrite", pod.namespace_,
                       pod.name, key);
  };
  k.notes.push_back(
      "the shim hands allow-preemption to the scheduler core when it first submits the pod and "
      "does not resend it for an annotation change: on a running pod the new value counts "
      "after a scheduler restart (it recovers allocations from the pods) or when the pod is "
      "recreated");
  k.notes.push_back(
      "the admission controller writes the annotation on new pods from their PriorityClass's "
      "yunikorn.apache.org/allow-preemption annotation unless the pod sets it: set it on the "
      "pod template or the class for the pods to come");
  k.notes.push_back("an opted-out pod is only taken after the others; it is not protected");
  return k;
}

bool ancestor_or_self(const std::string& queue, const std::string& of) {
  return of == queue || of.starts_with(queue + ".");
}

// A preemption fence on the threat's side: the highest configured queue of its path that is not
// an ancestor of the victim's queue. Preemption looks for victims below the first fence above
// the preemptor's queue, so the victim is then out of reach.
std::optional<Knob> fence_knob(const model::Snapshot& snap, model::PodId threat,
                               const std::string& victim_queue) {
  const yk::Cluster c = yk::build_cluster(snap, threat, k_any_line);
  std::uint32_t best = yk::k_no_queue;
  for (std::uint32_t q = c.pods[threat].queue; q != yk::k_no_queue; q = c.queues[q].q.parent) {
    if (ancestor_or_self(c.queues[q].q.path, victim_queue)) {
      break;
    }
    if (!c.queues[q].q.dynamic) {
      best = q;
    }
  }
  if (best == yk::k_no_queue ||
      yk::preemption_policy(c.queues[best].q) == yk::PreemptionPolicy::fence) {
    return std::nullopt;
  }
  const std::optional<ConfigQueue> at = locate(snap, c, best);
  if (!at) {
    return std::nullopt;
  }
  const std::string* today = model::find(c.queues[best].q.properties, "preemption.policy");
  Knob k = property_knob(snap, *at, "preemption.policy", today != nullptr ? *today : "", "fence");
  k.notes.push_back(
      "a fence keeps the queue's pods from preempting outside it; pods outside may still "
      "preempt inside it");
  return k;
}

void save_knobs(const KnobContext& ctx, std::vector<Knob>& out) {
  const model::PodId id = ctx.target.subject.pod;
  const yk::Cluster c = yk::build_cluster(ctx.snap, model::k_none, k_any_line);
  const yk::YkPod& victim = c.pods[id];
  if (!victim.yk || !victim.bound || victim.queue == yk::k_no_queue) {
    return;
  }
  const std::uint32_t q = victim.queue;
  if (const std::optional<ConfigQueue> at = locate(ctx.snap, c, q)) {
    // At its guarantee a queue is left out of preemption; its usage is as far as it helps.
    guarantee_knobs(
        ctx.snap, c, *at, q, victim.res,
        [&](const std::string& key) { return yk::get(c.queues[q].allocated, key); }, out);
    if (yk::preemption_policy(c.queues[q].q) != yk::PreemptionPolicy::disabled) {
      const std::string* today = model::find(c.queues[q].q.properties, "preemption.policy");
      out.push_back(property_knob(ctx.snap, *at, "preemption.policy",
                                  today != nullptr ? *today : "", "disabled"));
    }
    out.push_back(offset_knob(ctx.snap, c, q, *at));
  }
  if (std::optional<Knob> k = opt_out_knob(ctx.snap, c, id)) {
    out.push_back(std::move(*k));
  }
  std::vector<std::string> fenced;
  for (std::size_t i = 0; i < ctx.threats.size() && i < k_threats_tried; ++i) {
    if (ctx.threats[i].pod == model::k_none) {
      continue;
    }
    std::optional<Knob> k = fence_knob(ctx.snap, ctx.threats[i].pod, c.queues[q].q.path);
    if (k && std::find(fenced.begin(), fenced.end(), k->field) == fenced.end()) {
      fenced.push_back(k->field);
      out.push_back(std::move(*k));
    }
  }
}

// Max values on the preemptor's path that leave less room than it asks for: raised to usage
// plus the ask, the queue's headroom holds it.
void max_knobs(const model::Snapshot& snap, const yk::Cluster& c, model::PodId id,
               std::vector<Knob>& out) {
  const yk::Res& ask = c.pods[id].res;
  for (std::uint32_t q = c.pods[id].queue; q != yk::k_no_queue; q = c.queues[q].q.parent) {
    const yk::ORes& max = c.queues[q].q.max;
    const std::optional<ConfigQueue> at = max ? locate(snap, c, q) : std::nullopt;
    if (!at) {
      continue;
    }
    for (const auto& [key, v] : ask) {
      const std::int64_t need = yk::get(c.queues[q].allocated, key) + v;
      if (yk::has(*max, key) && need > yk::get(*max, key)) {
        if (std::optional<Knob> k = amount_knob(snap, *at, false, key, need)) {
          out.push_back(std::move(*k));
        }
      }
    }
  }
}

void pending_knobs(const KnobContext& ctx, std::vector<Knob>& out) {
  const model::PodId id = ctx.target.subject.pod;
  const yk::Cluster c = yk::build_cluster(ctx.snap, id, k_any_line);
  const std::uint32_t q = c.pods[id].queue;
  if (q == yk::k_no_queue) {
    return;
  }
  max_knobs(ctx.snap, c, id, out);
  const std::optional<ConfigQueue> at = locate(ctx.snap, c, q);
  if (ctx.target.goal != AdviseGoal::place || !at) {
    return;  // a guarantee or an offset only lets it preempt
  }
  // Preemption needs the preemptor's queue within its guarantee, its victims counted in; more
  // than the cluster holds cannot matter.
  guarantee_knobs(
      ctx.snap, c, *at, q, c.pods[id].res,
      [&](const std::string& key) { return c.root_max ? yk::get(*c.root_max, key) : 0; }, out);
  out.push_back(offset_knob(ctx.snap, c, q, *at));
}

}  // namespace

void yunikorn(const KnobContext& ctx, std::vector<Knob>& out) {
  if (ctx.target.subject.pod == model::k_none) {
    return;
  }
  if (ctx.target.goal == AdviseGoal::save) {
    save_knobs(ctx, out);
  } else if (ctx.target.goal == AdviseGoal::fit || ctx.target.goal == AdviseGoal::place) {
    pending_knobs(ctx, out);
  }
}

}  // namespace kpreempt::scenario::knobs
