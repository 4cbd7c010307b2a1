// SPDX-License-Identifier: Apache-2.0
// The ElasticQuota knobs of `advise`: spec.min and spec.max per resource, of scheduler-plugins
// CapacityScheduling (scheduling.x-k8s.io) and of Koordinator (scheduling.sigs.k8s.io).
#include "policy/capacity/internal.h"
#include "policy/koordinator/quota.h"
#include "scenario/advise_knobs.h"

#include "kpreempt/model/elastic_quota.h"
#include "kpreempt/model/koordinator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kpreempt::scenario::knobs {
namespace {

namespace capacity = policy::capacity;
namespace koord = policy::koordinator;

// Threats whose quota's knobs are tried when a victim is to be saved.
constexpr std::size_t k_threats_tried = 3;

// Resource name -> amount in scheduler units (cpu in milli-cores, the rest in base units).
using Amounts = std::map<std::string, std::int64_t>;

Amounts amounts(const model::Resources& r) {
  Amounts out;
  for (const auto& [name, v] : {std::pair<std::string, std::int64_t>{"cpu", r.cpu_milli},
                                {"memory", r.memory},
                                {"ephemeral-storage", r.ephemeral_storage}}) {
    if (v > 0) {
      out[name] = v;
    }
  }
  for (const auto& [name, v] : r.scalar) {
    if (v > 0) {
      out[name] = v;
    }
  }
  return out;
}

void add_to(Amounts& sum, const Amounts& more) {
  for (const auto& [name, v] : more) {
    sum[name] = model::saturating_add(sum[name], v);
  }
}

std::vector<std::string> names(const Amounts& a) {
  std::vector<std::string> out;
  for (const auto& kv : a) {
    out.push_back(kv.first);
  }
  return out;
}

std::int64_t amount(const Amounts& a, const std::string& name) {
  const auto it = a.find(name);
  return it == a.end() ? 0 : it->second;
}

// A scheduler amount in the knob's unit, rounded up so that the knob's value covers it.
std::int64_t to_knob(std::string_view resource, std::int64_t v) {
  if (!in_mebibytes(resource)) {
    return v;
  }
  return v / k_mebi + (v % k_mebi > 0 ? 1 : 0);
}

// The list with `resource` set to `q`; the list stays sorted by name.
model::ResourceList with_amount(model::ResourceList list, const std::string& resource,
                                model::Quantity q) {
  const auto it =
      std::lower_bound(list.begin(), list.end(), resource,
                       [](const auto& e, const std::string& name) { return e.first < name; });
  if (it != list.end() && it->first == resource) {
    it->second = q;
  } else {
    list.emplace(it, resource, q);
  }
  return list;
}

// One ElasticQuota object and the group its kind belongs to.
struct QuotaObject {
  std::string group;  // scheduling.x-k8s.io or scheduling.sigs.k8s.io
  std::string namespace_, name;
  // Sets spec.min (or spec.max) of `resource` through the edit.
  std::function<void(model::SnapshotEdit&, bool max, const std::string& resource, model::Quantity)>
      set;
};

struct Bound {
  bool max = false;
  std::string resource;
  std::int64_t from = 0, limit = 0;  // scheduler units
};

Knob quota_knob(const QuotaObject& q, const Bound& b) {
  const char* spec = b.max ? "max" : "min";
  const std::string r = b.resource;
  Knob k;
  k.object = {"ElasticQuota", q.namespace_, q.name};
  k.field = fmt::format("spec.{}[{}]", spec, r);
  k.what = fmt::format("the {} {} of ElasticQuota {}/{}", r, spec, q.namespace_, q.name);
  k.from = to_knob(r, b.from);
  k.limit = std::max(k.from, to_knob(r, b.limit));
  k.apply = [set = q.set, max = b.max, r](model::SnapshotEdit& e, std::int64_t v) {
    set(e, max, r, quantity_of(r, v));
  };
  k.show = [r](std::int64_t v) { return show_amount(r, v); };
  k.command = [q, spec, r](std::int64_t v) {
    return fmt::format(
        "kubectl patch elasticquotas.{} -n {} {} --type merge -p "
        "'{{\"spec\":{{\"{}\":{{\"{}\":\"{}\"}}}}}}'",
        q.group, q.namespace_, q.name, spec, r, show_amount(r, v));
  };
  return k;
}

// ---- CapacityScheduling ------------------------------------------------------------------

QuotaObject capacity_object(const model::Snapshot& snap, const model::ElasticQuota& eq) {
  const auto i = static_cast<std::size_t>(&eq - snap.capacity().quotas.data());
  return {"scheduling.x-k8s.io", eq.namespace_, eq.name,
          [i](model::SnapshotEdit& e, bool max, const std::string& r, model::Quantity v) {
            std::optional<model::ResourceList>& list =
                max ? e.capacity().quotas[i].max : e.capacity().quotas[i].min;
            // An absent min is all zero, so a list of one resource reads the same for the rest.
            e.assign(list, std::optional(with_amount(list.value_or(model::ResourceList{}), r, v)));
          }};
}

// The request of the pending pods of a namespace (the preemptor among them): the most its
// quota may have to hold beside what runs.
Amounts pending_in(const model::Snapshot& snap, const capacity::QuotaState& quotas,
                   std::string_view ns) {
  Amounts sum;
  for (model::PodId id = 0; id < snap.pods().size(); ++id) {
    const model::Pod& p = snap.pods()[id];
    if (p.pending() && (ns.empty() ? quotas.find(p.namespace_) != nullptr : p.namespace_ == ns)) {
      add_to(sum, amounts(quotas.request(id)));
    }
  }
  return sum;
}

// Saving a victim: its namespace's min for what it uses. Preemptors of other namespaces take
// only pods of quotas over their min, and the preemptor's own namespace, held at or under its
// min, takes from borrowers elsewhere instead of from its own pods.
void capacity_save(const KnobContext& ctx, const capacity::QuotaState& quotas,
                   std::vector<Knob>& out) {
  const model::Pod& victim = ctx.snap.pods()[ctx.target.subject.pod];
  const capacity::QuotaInfo* q = quotas.find(victim.namespace_);
  if (q == nullptr) {
    return;  // a namespace without a quota: no quota preemptor takes its pods
  }
  Amounts threats;
  for (std::size_t i = 0; i < ctx.threats.size() && i < k_threats_tried; ++i) {
    if (ctx.threats[i].pod != model::k_none) {
      add_to(threats, amounts(quotas.request(ctx.threats[i].pod)));
    }
  }
  const Amounts used = amounts(q->used), min = amounts(q->min);
  for (const std::string& r : names(amounts(quotas.request(ctx.target.subject.pod)))) {
    Knob k = quota_knob(capacity_object(ctx.snap, *q->source),
                        {false, r, amount(min, r), amount(used, r) + amount(threats, r)});
    k.notes.push_back(
        "preemptors of other namespaces take only pods of quotas over their min; every "
        "namespace's min also adds to the sum that bounds all borrowing");
    out.push_back(std::move(k));
  }
}

// Placing a pending pod: its namespace's max where the pod would go over it, and its min,
// which decides whether it preempts in its namespace or takes from borrowers, and adds to the
// sum of mins that bounds all use.
void capacity_place(const KnobContext& ctx, const capacity::QuotaState& quotas,
                    std::vector<Knob>& out) {
  const model::Pod& pod = ctx.snap.pods()[ctx.target.subject.pod];
  const capacity::QuotaInfo* q = quotas.find(pod.namespace_);
  if (q == nullptr) {
    return;  // no quota: nothing bounds the pod but the nodes
  }
  const QuotaObject object = capacity_object(ctx.snap, *q->source);
  const Amounts used = amounts(q->used), min = amounts(q->min), max = amounts(q->max);
  const Amounts own = pending_in(ctx.snap, quotas, pod.namespace_);
  const Amounts all = pending_in(ctx.snap, quotas, "");
  const Amounts total_used = amounts(quotas.total_used()), total_min = amounts(quotas.total_min());
  for (const std::string& r : names(amounts(quotas.request(ctx.target.subject.pod)))) {
    const std::int64_t need = amount(used, r) + amount(own, r);
    // An absent max is unlimited, and so is a scalar resource the max does not list; a merge
    // patch would make the list present and cap everything else at 0.
    const bool capped = q->source->max && (r == "cpu" || r == "memory" ||
                                           r == "ephemeral-storage" || max.contains(r));
    if (capped && need > amount(max, r)) {
      Knob k = quota_knob(object, {true, r, amount(max, r), need});
      k.notes.push_back("max caps the namespace's use, borrowed or not");
      out.push_back(std::move(k));
    }
    const std::int64_t shortfall = amount(total_used, r) + amount(all, r) - amount(total_min, r);
    const std::int64_t limit =
        std::max(need, amount(min, r) + std::max<std::int64_t>(0, shortfall));
    if (limit > amount(min, r)) {
      Knob k = quota_knob(object, {false, r, amount(min, r), limit});
      k.notes.push_back(
          "min adds to the sum of all quotas' mins that bounds all use, and under its min a "
          "namespace takes from borrowers elsewhere rather than from its own pods");
      out.push_back(std::move(k));
    }
  }
}

// ---- Koordinator ---------------------------------------------------------------------------

QuotaObject koord_object(const model::Snapshot& snap, const model::KoordElasticQuota& eq) {
  const auto i = static_cast<std::size_t>(&eq - snap.koordinator().quotas.data());
  return {"scheduling.sigs.k8s.io", eq.namespace_, eq.name,
          [i](model::SnapshotEdit& e, bool max, const std::string& r, model::Quantity v) {
            model::ResourceList& list =
                max ? e.koordinator().quotas[i].max : e.koordinator().quotas[i].min;
            e.assign(list, with_amount(list, r, v));
          }};
}

// Whether the quota holds the preemptors back in `r`: their request beside what runs goes over
// the quota's limit, or, for a non-preemptible one, the non-preemptible use goes over min.
bool binding(const koord::QuotaModel& model, const koord::QuotaNode& q, const std::string& r,
             std::int64_t asked, bool non_preemptible) {
  const std::optional<koord::ResVec> limit = model.limit(q);
  if (limit && limit->contains(r) && amount(q.used, r) + asked > amount(*limit, r)) {
    return true;
  }
  return non_preemptible && q.min.contains(r) &&
         amount(q.non_preemptible_used, r) + asked > amount(q.min, r);
}

void koord_notes(const koord::QuotaNode& q, bool max, const std::string& r, std::int64_t need,
                 std::vector<std::string>& notes) {
  notes.emplace_back(
      "the quota's runtime limit is its min (scaled down when the mins add up to more than the "
      "cluster) plus a share of what the cluster leaves, by shared-weight, never above its max "
      "or its parent's runtime");
  if (max) {
    if (q.object->shared_weight.empty()) {
      notes.emplace_back(
          "without a shared-weight annotation max is also the quota's weight: a larger max "
          "takes a larger share from its siblings");
    }
    return;
  }
  notes.emplace_back("pods labelled preemptible \"false\" must fit in the min");
  if (need > amount(q.max, r)) {
    notes.emplace_back(
        "Koordinator's webhook refuses a min above the max: raise the max with it if it must "
        "go that far");
  }
  if (q.parent != model::k_koord_root_quota) {
    notes.emplace_back(fmt::format(
        "the webhook also refuses children's mins that add up to more than the min of {}",
        q.parent));
  }
}

// The knobs of the quota a preemptor is charged to. Koordinator takes victims only from that
// quota, for the node or for the quota's limit (its runtime: min plus a share of what others
// leave, capped at max), and the limit admits the preemptor in PreFilter. min and max matter
// only where that limit holds the preemptors back.
void koord_quota(const KnobContext& ctx, const koord::QuotaModel& model,
                 const std::vector<model::PodId>& preemptors, std::vector<Knob>& out) {
  std::set<std::string> seen;
  for (model::PodId p : preemptors) {
    const koord::QuotaNode* q = model.find(model.quota_of(p));
    if (q == nullptr || q->object == nullptr || !seen.insert(q->name).second) {
      continue;  // the built-in quotas have no object to edit
    }
    Amounts asked;
    bool non_preemptible = false;
    for (model::PodId other : preemptors) {
      if (model.quota_of(other) == q->name) {
        add_to(asked, model.masked_request(other, *q));
        non_preemptible = non_preemptible || koord::non_preemptible(ctx.snap.pods()[other]);
      }
    }
    const QuotaObject object = koord_object(ctx.snap, *q->object);
    // Keys outside max are neither counted nor limited: the masked request has none.
    for (const auto& [r, v] : asked) {
      if (v <= 0 || !binding(model, *q, r, v, non_preemptible)) {
        continue;
      }
      const std::int64_t need = std::max(amount(q->used, r) + v, amount(q->request, r));
      for (bool max : {true, false}) {
        const std::int64_t from = amount(max ? q->max : q->min, r);
        if (from >= need) {
          continue;
        }
        Knob k = quota_knob(object, {max, r, from, need});
        koord_notes(*q, max, r, need, k.notes);
        out.push_back(std::move(k));
      }
    }
  }
}

void koordinator_knobs(const KnobContext& ctx, std::vector<Knob>& out) {
  // The dump's scheduler configuration, without --set: the knobs only pick which objects to
  // try, and the search runs the policy with its real args.
  const policy::Args none;
  const koord::KoordArgs args = koord::read_args(policy::Input{
      ctx.snap, ctx.target.subject.pod, model::Instant{}, none, model::k_none, false});
  const koord::QuotaModel model(ctx.snap, args);
  std::vector<model::PodId> preemptors;
  if (ctx.target.goal == AdviseGoal::save) {
    for (std::size_t i = 0; i < ctx.threats.size() && i < k_threats_tried; ++i) {
      if (ctx.threats[i].pod != model::k_none) {
        preemptors.push_back(ctx.threats[i].pod);
      }
    }
  } else if (ctx.target.subject.pod != model::k_none) {
    preemptors.push_back(ctx.target.subject.pod);
  }
  koord_quota(ctx, model, preemptors, out);
}

}  // namespace

void elastic_quota(const KnobContext& ctx, std::vector<Knob>& out) {
  if (ctx.target.subject.pod == model::k_none) {
    return;
  }
  if (ctx.entry.name == "koordinator") {
    koordinator_knobs(ctx, out);
    return;
  }
  const capacity::QuotaState quotas(ctx.snap);
  if (ctx.target.goal == AdviseGoal::save) {
    capacity_save(ctx, quotas, out);
  } else {
    capacity_place(ctx, quotas, out);
  }
}

}  // namespace kpreempt::scenario::knobs
