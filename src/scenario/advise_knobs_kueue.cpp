// SPDX-License-Identifier: Apache-2.0
// The Kueue knobs of `advise`: the quotas of the ClusterQueue a Workload is charged to and of
// the cohort it borrows from, the preemption policies of a threat's ClusterQueue, and
// WorkloadPriorityClass values.
#include "scenario/advise_knobs.h"

#include "kpreempt/model/kueue.h"
#include "kpreempt/model/quantity.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

namespace kpreempt::scenario::knobs {
namespace {

using model::KueueAmounts;
using model::KueueObjects;

// Threats whose ClusterQueue's policies are tried when a victim is to be saved.
constexpr std::size_t k_threats_tried = 3;
// Kueue's amount (cpu in milli-cores, every other resource in whole units) in the knob's unit.
std::int64_t knob_amount(std::string_view resource, std::int64_t amount) {
  return in_mebibytes(resource) ? (amount + k_mebi - 1) / k_mebi : amount;
}

std::int64_t knob_value(std::string_view resource, model::Quantity q) {
  return knob_amount(resource, model::kueue_amount(resource, q));
}

std::string show_int(std::int64_t v) {
  return std::to_string(v);
}

// A (flavor, resource) entry of a ClusterQueue, by its indexes in the spec: the loader keeps
// the manifest's order, so they are the indexes a JSON patch names.
struct Entry {
  std::uint32_t cq = 0;
  std::size_t group = 0, flavor = 0, resource = 0;
};

const model::KueueFlavorQuotas& flavor_of(const KueueObjects& k, const Entry& e) {
  return k.cluster_queues[e.cq].resource_groups[e.group].flavors[e.flavor];
}

const model::KueueQuota& quota_of(const KueueObjects& k, const Entry& e) {
  return flavor_of(k, e).resources[e.resource];
}

model::KueueQuota& quota_of(KueueObjects& k, const Entry& e) {
  return k.cluster_queues[e.cq].resource_groups[e.group].flavors[e.flavor].resources[e.resource];
}

using Pair = std::pair<std::string, std::string>;  // flavor, resource

Pair pair_of(const KueueObjects& k, const Entry& e) {
  return {flavor_of(k, e).name, quota_of(k, e).resource};
}

// The entries of the ClusterQueue that `keep` accepts, in spec order.
template <class Keep>
std::vector<Entry> entries(const KueueObjects& k, std::uint32_t cq, Keep keep) {
  std::vector<Entry> out;
  const auto& groups = k.cluster_queues[cq].resource_groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::size_t f = 0; f < groups[g].flavors.size(); ++f) {
      for (std::size_t r = 0; r < groups[g].flavors[f].resources.size(); ++r) {
        const Entry e{cq, g, f, r};
        if (keep(pair_of(k, e))) {
          out.push_back(e);
        }
      }
    }
  }
  return out;
}

std::optional<std::uint32_t> cq_index(const KueueObjects& k, std::string_view name) {
  for (std::uint32_t i = 0; i < k.cluster_queues.size(); ++i) {
    if (k.cluster_queues[i].name == name) {
      return i;
    }
  }
  return std::nullopt;
}

// The ClusterQueue a preemptor is queued to, or an admitted Workload is charged to.
std::optional<std::uint32_t> queue_of(const model::Snapshot& snap, const PendingRef& p) {
  const KueueObjects& k = snap.kueue();
  std::string ns, queue;
  if (p.workload != model::k_none) {
    const model::Workload& w = k.workloads[p.workload];
    if (w.admitted) {
      return cq_index(k, w.admission_cluster_queue);
    }
    ns = w.namespace_;
    queue = w.queue_name;
  } else {
    const model::Pod& pod = snap.pods()[p.pod];
    const std::string* label = model::find(pod.labels, model::k_kueue_queue_label);
    if (label == nullptr) {
      return std::nullopt;
    }
    ns = pod.namespace_;
    queue = *label;
  }
  const model::LocalQueue* lq = model::find_local_queue(k, ns, queue);
  return lq != nullptr ? cq_index(k, lq->cluster_queue) : std::nullopt;
}

// The top of the cohort tree a cohort belongs to; a cycle of parents ends where it closes.
std::string root_cohort(const KueueObjects& k, std::string name) {
  std::set<std::string> seen;
  while (seen.insert(name).second) {
    auto it = std::find_if(k.cohorts.begin(), k.cohorts.end(),
                           [&](const model::KueueCohort& c) { return c.name == name; });
    if (it == k.cohorts.end() || it->parent.empty()) {
      break;
    }
    name = it->parent;
  }
  return name;
}

// The ClusterQueues of cq's cohort tree, cq among them (alone without a cohort).
std::vector<std::uint32_t> tree_of(const KueueObjects& k, std::uint32_t cq) {
  const std::string& cohort = k.cluster_queues[cq].cohort;
  if (cohort.empty()) {
    return {cq};
  }
  const std::string root = root_cohort(k, cohort);
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < k.cluster_queues.size(); ++i) {
    const std::string& c = k.cluster_queues[i].cohort;
    if (!c.empty() && root_cohort(k, c) == root) {
      out.push_back(i);
    }
  }
  return out;
}

bool in_tree(const std::vector<std::uint32_t>& tree, std::uint32_t cq) {
  return std::find(tree.begin(), tree.end(), cq) != tree.end();
}

void add_pod(const model::Pod& pod, KueueAmounts& out) {
  for (const model::Container& c : pod.containers) {
    for (const auto& [name, q] : c.requests) {
      out[name] += model::kueue_amount(name, q);
    }
  }
  out["pods"] += 1;
}

// What the preemptor asks for in all, the pods of a pod group together.
KueueAmounts requests_of(const model::Snapshot& snap, const PendingRef& p) {
  KueueAmounts out;
  if (p.workload != model::k_none) {
    for (const model::KueuePodSet& ps : snap.kueue().workloads[p.workload].pod_sets) {
      for (const auto& [name, v] : model::pod_set_requests(ps, ps.count)) {
        out[name] += v;
      }
      out["pods"] += ps.count;
    }
    return out;
  }
  const model::Pod& pod = snap.pods()[p.pod];
  const std::string* group = model::find(pod.labels, model::k_kueue_pod_group_label);
  if (group == nullptr) {
    add_pod(pod, out);
    return out;
  }
  for (const model::Pod& other : snap.pods()) {
    const std::string* g = model::find(other.labels, model::k_kueue_pod_group_label);
    if (g != nullptr && *g == *group && other.namespace_ == pod.namespace_ && other.pending()) {
      add_pod(other, out);
    }
  }
  return out;
}

// What the admitted Workloads of the ClusterQueues use of a pair, in Kueue's unit.
std::int64_t usage_of(const KueueObjects& k, const std::vector<std::uint32_t>& cqs,
                      const Pair& pair) {
  std::int64_t out = 0;
  for (const model::Workload& w : k.workloads) {
    const auto cq = w.admitted ? cq_index(k, w.admission_cluster_queue) : std::nullopt;
    if (!cq || !in_tree(cqs, *cq)) {
      continue;
    }
    for (const model::KueuePodSetAssignment& a : w.assignments) {
      const std::string* flavor = model::find(a.flavors, pair.second);
      if (flavor != nullptr && *flavor == pair.first) {
        out += model::kueue_amount(pair.second, model::get(a.resource_usage, pair.second));
      }
    }
  }
  return out;
}

// The nominal quota of a pair over the cohort tree of `cq`, cq's own left out: the most it
// could ever borrow.
std::int64_t others_nominal(const KueueObjects& k, std::uint32_t cq, const Pair& pair) {
  std::int64_t out = 0;
  auto add = [&](const std::vector<model::KueueResourceGroup>& groups) {
    for (const auto& g : groups) {
      for (const auto& f : g.flavors) {
        for (const auto& q : f.resources) {
          if (f.name == pair.first && q.resource == pair.second) {
            out += model::kueue_amount(q.resource, q.nominal);
          }
        }
      }
    }
  };
  for (std::uint32_t o : tree_of(k, cq)) {
    if (o != cq) {
      add(k.cluster_queues[o].resource_groups);
    }
  }
  const std::string root = root_cohort(k, k.cluster_queues[cq].cohort);
  for (const model::KueueCohort& c : k.cohorts) {
    if (root_cohort(k, c.name) == root) {
      add(c.resource_groups);
    }
  }
  return out;
}

enum class Limit : std::uint8_t { nominal, borrowing, lending };

std::string_view field_name(Limit l) {
  switch (l) {
    case Limit::nominal:
      return "nominalQuota";
    case Limit::borrowing:
      return "borrowingLimit";
    case Limit::lending:
      return "lendingLimit";
  }
  return "nominalQuota";
}

std::string json_path(const Entry& e, Limit l) {
  return fmt::format("/spec/resourceGroups/{}/flavors/{}/resources/{}/{}", e.group, e.flavor,
                     e.resource, field_name(l));
}

// One quota of one entry, moved from `from` toward `limit` in the knob's unit.
Knob quota_knob(const KueueObjects& k, const Entry& at, Limit which, std::int64_t from,
                std::int64_t limit) {
  const model::ClusterQueue& cq = k.cluster_queues[at.cq];
  const auto [flavor, resource] = pair_of(k, at);
  Knob kn;
  kn.object = {"ClusterQueue", "", cq.name};
  kn.field = fmt::format("spec.resourceGroups[{}].flavors[{}].resources[{}].{}", at.group, flavor,
                         resource, field_name(which));
  kn.what = fmt::format("the {} {} of flavor {} in ClusterQueue {}", resource, field_name(which),
                        flavor, cq.name);
  kn.from = from;
  kn.limit = limit;
  kn.apply = [at, which, r = resource](model::SnapshotEdit& e, std::int64_t v) {
    model::KueueQuota& q = quota_of(e.kueue(), at);
    const model::Quantity amount = quantity_of(r, v);
    switch (which) {
      case Limit::nominal:
        e.assign(q.nominal, amount);
        break;
      case Limit::borrowing:
        e.assign(q.borrowing_limit, std::optional<model::Quantity>(amount));
        break;
      case Limit::lending:
        e.assign(q.lending_limit, std::optional<model::Quantity>(amount));
        break;
    }
  };
  kn.show = [r = resource](std::int64_t v) { return show_amount(r, v); };
  // "add" sets a limit whether or not the manifest has one; nominalQuota is always there.
  const char* op = which == Limit::nominal ? "replace" : "add";
  kn.command = [name = cq.name, op, path = json_path(at, which), r = resource](std::int64_t v) {
    return fmt::format(
        R"(kubectl patch clusterqueue {} --type json -p '[{{"op":"{}","path":"{}","value":"{}"}}]')",
        name, op, path, show_amount(r, v));
  };
  return kn;
}

// A WorkloadPriorityClass's value, and the priority of every Workload that names it.
void set_class_value(model::SnapshotEdit& e, std::uint32_t cls, std::int32_t v) {
  KueueObjects& k = e.kueue();
  e.assign(k.priority_classes[cls].value, v);
  for (model::Workload& w : k.workloads) {
    if (w.priority_class_source == model::k_wpc_source &&
        w.priority_class_name == k.priority_classes[cls].name) {
      e.assign(w.priority, v);
      e.assign(w.spec_priority, std::optional<std::int32_t>(v));
    }
  }
}

Knob class_knob(const KueueObjects& k, std::uint32_t cls, std::int64_t limit,
                std::vector<std::int64_t> landmarks) {
  const model::WorkloadPriorityClass& c = k.priority_classes[cls];
  Knob kn;
  kn.object = {"WorkloadPriorityClass", "", c.name};
  kn.field = "value";
  kn.what = fmt::format("WorkloadPriorityClass {}", c.name);
  kn.from = c.value;
  kn.limit = limit;
  for (const model::WorkloadPriorityClass& other : k.priority_classes) {
    landmarks.push_back(other.value);
  }
  kn.landmarks = std::move(landmarks);
  kn.apply = [cls](model::SnapshotEdit& e, std::int64_t v) {
    set_class_value(e, cls, static_cast<std::int32_t>(v));
  };
  kn.show = show_int;
  kn.command = [name = c.name](std::int64_t v) {
    return fmt::format(R"(kubectl patch workloadpriorityclass {} --type merge -p '{{"value":{}}}')",
                       name, v);
  };
  // kubernetes-sigs/kueue#8442 (v0.16.0): the WorkloadPriorityClass controller writes a
  // changed value into the Workloads that reference the class.
  kn.notes.push_back(
      "every Workload of the class takes the new value: Kueue v0.16 and later copy it into "
      "spec.priority of the Workloads that reference the class; before v0.16 existing "
      "Workloads keep theirs and only new ones take it");
  return kn;
}

std::optional<std::uint32_t> class_index(const KueueObjects& k, std::string_view name) {
  for (std::uint32_t i = 0; i < k.priority_classes.size(); ++i) {
    if (k.priority_classes[i].name == name) {
      return i;
    }
  }
  return std::nullopt;
}

// The WorkloadPriorityClass the preemptor or Workload takes its priority from, if any.
std::optional<std::uint32_t> class_of(const model::Snapshot& snap, const PendingRef& p) {
  const KueueObjects& k = snap.kueue();
  if (p.workload != model::k_none) {
    const model::Workload& w = k.workloads[p.workload];
    return w.priority_class_source == model::k_wpc_source ? class_index(k, w.priority_class_name)
                                                          : std::nullopt;
  }
  const std::string* label = model::find(snap.pods()[p.pod].labels, model::k_kueue_priority_label);
  return label != nullptr ? class_index(k, *label) : std::nullopt;
}

// The priority Kueue gives the preemptor.
std::int64_t priority_of(const model::Snapshot& snap, const PendingRef& p) {
  if (p.workload != model::k_none) {
    return snap.kueue().workloads[p.workload].priority;
  }
  if (auto cls = class_of(snap, p)) {
    return snap.kueue().priority_classes[*cls].value;
  }
  return snap.facts(p.pod).priority;
}

// The borrowing limit of a pair of the preemptor's ClusterQueue, raised up to what the rest
// of its cohort tree holds.
void borrowing_knob(const KueueObjects& k, const Entry& at, std::vector<Knob>& out) {
  const Pair pr = pair_of(k, at);
  const model::KueueQuota& q = quota_of(k, at);
  if (k.cluster_queues[at.cq].cohort.empty() || !q.borrowing_limit) {
    return;
  }
  const std::int64_t bl = knob_value(pr.second, *q.borrowing_limit);
  const std::int64_t most = knob_amount(pr.second, others_nominal(k, at.cq, pr));
  if (most > bl) {
    Knob b = quota_knob(k, at, Limit::borrowing, bl, most);
    b.notes.push_back(
        fmt::format("from {} on it is as good as no limit: the op \"remove\" on the same path "
                    "drops it",
                    show_amount(pr.second, most)));
    out.push_back(std::move(b));
  }
}

// The lending limits of the other ClusterQueues of the tree, for the pairs `own` the
// preemptor's ClusterQueue lists, raised up to their nominal quota.
void lending_knobs(const KueueObjects& k, std::uint32_t cq, const std::set<Pair>& own,
                   std::vector<Knob>& out) {
  for (std::uint32_t o : tree_of(k, cq)) {
    if (o == cq) {
      continue;
    }
    for (const Entry& at : entries(k, o, [&](const Pair& pr) { return own.contains(pr); })) {
      const model::KueueQuota& q = quota_of(k, at);
      if (!q.lending_limit) {
        continue;
      }
      const std::int64_t ll = knob_value(q.resource, *q.lending_limit);
      const std::int64_t nominal = knob_value(q.resource, q.nominal);
      if (ll < nominal) {
        Knob l = quota_knob(k, at, Limit::lending, ll, nominal);
        l.notes.push_back(fmt::format("ClusterQueue {} then keeps less of its quota to itself",
                                      k.cluster_queues[o].name));
        out.push_back(std::move(l));
      }
    }
  }
}

// The preemptor's nominal quotas and borrowing limits, and the lending limits of the others
// of its cohort tree, for the pairs it requests.
void quota_knobs(const model::Snapshot& snap, const PendingRef& p, std::uint32_t cq,
                 std::vector<Knob>& out) {
  const KueueObjects& k = snap.kueue();
  const KueueAmounts req = requests_of(snap, p);
  const std::vector<std::uint32_t> tree = tree_of(k, cq);
  const std::string& cohort = k.cluster_queues[cq].cohort;
  auto requested = [&](const Pair& pr) {
    auto it = req.find(pr.second);
    return it != req.end() && it->second > 0;
  };
  std::set<Pair> own;
  for (const Entry& at : entries(k, cq, requested)) {
    const Pair pr = pair_of(k, at);
    own.insert(pr);
    const std::string& r = pr.second;
    // With the whole request and all the tree uses on top, the pair fits by itself.
    const std::int64_t from = knob_value(r, quota_of(k, at).nominal);
    Knob n = quota_knob(k, at, Limit::nominal, from,
                        from + knob_amount(r, req.at(r) + usage_of(k, tree, pr)));
    if (!cohort.empty()) {
      n.notes.push_back(fmt::format(
          "the added quota is also lent to the other ClusterQueues of cohort {}, up to a "
          "lendingLimit",
          cohort));
    }
    out.push_back(std::move(n));
    borrowing_knob(k, at, out);
  }
  lending_knobs(k, cq, own, out);
}

// Whether a higher priority could let the preemptor take quota from admitted Workloads.
bool priority_matters(const model::ClusterQueue& cq) {
  return cq.within_cluster_queue != "Never" ||
         (!cq.cohort.empty() &&
          (cq.reclaim_within_cohort == "LowerPriority" || cq.borrow_within_cohort != "Never"));
}

// The preemptor's WorkloadPriorityClass, raised until it is above every admitted Workload of
// its cohort tree.
void preemptor_class_knob(const model::Snapshot& snap, const PendingRef& p, std::uint32_t cq,
                          std::vector<Knob>& out) {
  const KueueObjects& k = snap.kueue();
  const auto cls = class_of(snap, p);
  if (!cls || !priority_matters(k.cluster_queues[cq])) {
    return;
  }
  const std::vector<std::uint32_t> tree = tree_of(k, cq);
  std::vector<std::int64_t> marks;
  std::int64_t top = k.priority_classes[*cls].value;
  for (const model::Workload& w : k.workloads) {
    const auto at = w.admitted ? cq_index(k, w.admission_cluster_queue) : std::nullopt;
    if (at && in_tree(tree, *at)) {
      // Kueue preempts only a lower priority (or an equal, newer one): one above is the step.
      marks.push_back(std::int64_t{w.priority} + 1);
      top = std::max(top, std::int64_t{w.priority} + 1);
    }
  }
  if (top > k.priority_classes[*cls].value) {
    out.push_back(class_knob(k, *cls, top, std::move(marks)));
  }
}

enum class Policy : std::uint8_t { within, reclaim, borrow };

std::string_view policy_field(Policy p) {
  switch (p) {
    case Policy::within:
      return "withinClusterQueue";
    case Policy::reclaim:
      return "reclaimWithinCohort";
    case Policy::borrow:
      return "borrowWithinCohort.policy";
  }
  return "";
}

std::vector<std::string> policy_choices(Policy p) {
  switch (p) {
    case Policy::within:
      return {"Never", "LowerPriority", "LowerOrNewerEqualPriority"};
    case Policy::reclaim:
      return {"Never", "LowerPriority", "Any"};
    case Policy::borrow:
      return {"Never", "LowerPriority"};
  }
  return {};
}

// The members of spec.preemption that set the policy, as JSON.
std::string policy_json(Policy p, const std::string& value) {
  return p == Policy::borrow ? fmt::format(R"("borrowWithinCohort":{{"policy":"{}"}})", value)
                             : fmt::format(R"("{}":"{}")", policy_field(p), value);
}

template <class ClusterQueue>
auto& policy_of(ClusterQueue& cq, Policy p) {
  return p == Policy::within    ? cq.within_cluster_queue
         : p == Policy::reclaim ? cq.reclaim_within_cohort
                                : cq.borrow_within_cohort;
}

// One preemption policy of a ClusterQueue, as a choice among its values.
Knob policy_knob(const KueueObjects& k, std::uint32_t cq, Policy which) {
  const model::ClusterQueue& q = k.cluster_queues[cq];
  Knob kn;
  kn.object = {"ClusterQueue", "", q.name};
  kn.field = fmt::format("spec.preemption.{}", policy_field(which));
  kn.what = fmt::format("the {} preemption of ClusterQueue {}", policy_field(which), q.name);
  kn.choices = policy_choices(which);
  auto it = std::find(kn.choices.begin(), kn.choices.end(), policy_of(q, which));
  kn.from = it != kn.choices.end() ? it - kn.choices.begin() : 0;
  // Kueue's CRD rejects reclaimWithinCohort: Never with borrowWithinCohort.policy other than
  // Never, so that choice turns both off.
  const bool both = which == Policy::reclaim && q.borrow_within_cohort != "Never";
  kn.apply = [cq, which, both, choices = kn.choices](model::SnapshotEdit& e, std::int64_t v) {
    model::ClusterQueue& c = e.kueue().cluster_queues[cq];
    const std::string& value = choices[static_cast<std::size_t>(v)];
    e.assign(policy_of(c, which), value);
    if (both && value == "Never") {
      e.assign(c.borrow_within_cohort, std::string("Never"));
    }
  };
  kn.command = [name = q.name, which, both, choices = kn.choices](std::int64_t v) {
    const std::string& value = choices[static_cast<std::size_t>(v)];
    std::string fields = policy_json(which, value);
    if (both && value == "Never") {
      fields += "," + policy_json(Policy::borrow, "Never");
    }
    return fmt::format(
        R"(kubectl patch clusterqueue {} --type merge -p '{{"spec":{{"preemption":{{{}}}}}}}')",
        name, fields);
  };
  if (both) {
    kn.notes.push_back(
        "Kueue accepts reclaimWithinCohort: Never only with borrowWithinCohort.policy: Never, so "
        "the command sets both");
  }
  kn.notes.push_back(fmt::format(
      "the policy holds for every Workload queued to ClusterQueue {}, not only this one", q.name));
  return kn;
}

void admit_knobs(const KnobContext& ctx, std::vector<Knob>& out) {
  const PendingRef& p = ctx.target.subject;
  const auto cq = queue_of(ctx.snap, p);
  if (!cq) {
    return;
  }
  quota_knobs(ctx.snap, p, *cq, out);
  if (ctx.target.goal != AdviseGoal::fit) {
    preemptor_class_knob(ctx.snap, p, *cq, out);
  }
}

// The pairs an admitted Workload's podSetAssignments name.
std::set<Pair> pairs_used(const model::Workload& w) {
  std::set<Pair> out;
  for (const model::KueuePodSetAssignment& a : w.assignments) {
    for (const auto& [resource, flavor] : a.flavors) {
      out.insert({flavor, resource});
    }
  }
  return out;
}

// The victim's ClusterQueue's nominal quotas of the pairs it uses: at nominal it is no longer
// borrowing, so no other ClusterQueue reclaims from it.
void victim_quota_knobs(const KnobContext& ctx, std::uint32_t cq, std::vector<Knob>& out) {
  const KueueObjects& k = ctx.snap.kueue();
  const std::set<Pair> used = pairs_used(k.workloads[ctx.target.subject.workload]);
  KueueAmounts wanted;
  for (const PendingRef& t : ctx.threats) {
    for (const auto& [r, amount] : requests_of(ctx.snap, t)) {
      wanted[r] += amount;
    }
  }
  const std::vector<std::uint32_t> tree = tree_of(k, cq);
  for (const Entry& at : entries(k, cq, [&](const Pair& pr) { return used.contains(pr); })) {
    const Pair pr = pair_of(k, at);
    const std::string& r = pr.second;
    const std::int64_t from = knob_value(r, quota_of(k, at).nominal);
    auto it = wanted.find(r);
    const std::int64_t threats = it != wanted.end() ? it->second : 0;
    Knob n = quota_knob(k, at, Limit::nominal, from,
                        from + knob_amount(r, usage_of(k, tree, pr) + threats));
    if (tree.size() > 1) {
      n.notes.push_back(
          "the added quota is also lent to the other ClusterQueues of the cohort, up to a "
          "lendingLimit");
    }
    out.push_back(std::move(n));
  }
}

// The victim's ClusterQueue's lending limits, lowered: what it keeps to itself is no longer
// there for a threat of another ClusterQueue to borrow once the victim is gone.
void victim_lending_knobs(const KnobContext& ctx, std::uint32_t cq,
                          const std::vector<std::uint32_t>& threat_cqs, std::vector<Knob>& out) {
  const KueueObjects& k = ctx.snap.kueue();
  const std::vector<std::uint32_t> tree = tree_of(k, cq);
  if (!std::any_of(threat_cqs.begin(), threat_cqs.end(),
                   [&](std::uint32_t t) { return t != cq && in_tree(tree, t); })) {
    return;
  }
  const std::set<Pair> used = pairs_used(k.workloads[ctx.target.subject.workload]);
  for (const Entry& at : entries(k, cq, [&](const Pair& pr) { return used.contains(pr); })) {
    const model::KueueQuota& q = quota_of(k, at);
    const std::int64_t from = knob_value(q.resource, q.lending_limit.value_or(q.nominal));
    if (from <= 0) {
      continue;
    }
    Knob l = quota_knob(k, at, Limit::lending, from, 0);
    if (!q.lending_limit) {
      l.notes.push_back("unset today: the whole nominalQuota is lent");
    }
    l.notes.push_back("the cohort then has less to lend to every other ClusterQueue");
    out.push_back(std::move(l));
  }
}

// The preemption policies of the threats' ClusterQueues that reach the victim: within the
// victim's own ClusterQueue, or across the cohort from another.
void threat_policy_knobs(const KnobContext& ctx, std::uint32_t cq,
                         const std::vector<std::uint32_t>& threat_cqs, std::vector<Knob>& out) {
  const KueueObjects& k = ctx.snap.kueue();
  const std::vector<std::uint32_t> tree = tree_of(k, cq);
  for (std::uint32_t t : threat_cqs) {
    if (t == cq) {
      out.push_back(policy_knob(k, t, Policy::within));
    } else if (in_tree(tree, t)) {
      out.push_back(policy_knob(k, t, Policy::reclaim));
      if (k.cluster_queues[t].reclaim_within_cohort != "Never") {
        out.push_back(policy_knob(k, t, Policy::borrow));
      }
    }
  }
}

// The victim's WorkloadPriorityClass, raised until it is above every threat.
void victim_class_knob(const KnobContext& ctx, std::vector<Knob>& out) {
  const KueueObjects& k = ctx.snap.kueue();
  const auto cls = class_of(ctx.snap, ctx.target.subject);
  if (!cls) {
    return;
  }
  std::vector<std::int64_t> marks;
  std::int64_t top = k.priority_classes[*cls].value;
  for (const PendingRef& t : ctx.threats) {
    const std::int64_t prio = priority_of(ctx.snap, t);
    marks.push_back(prio);
    marks.push_back(prio + 1);
    top = std::max(top, prio + 1);
  }
  if (top > k.priority_classes[*cls].value) {
    out.push_back(class_knob(k, *cls, top, std::move(marks)));
  }
}

void save_knobs(const KnobContext& ctx, std::vector<Knob>& out) {
  if (ctx.target.subject.workload == model::k_none) {
    return;
  }
  const auto cq = queue_of(ctx.snap, ctx.target.subject);
  if (!cq) {
    return;
  }
  std::vector<std::uint32_t> threat_cqs;
  for (std::size_t i = 0; i < ctx.threats.size() && i < k_threats_tried; ++i) {
    const auto t = queue_of(ctx.snap, ctx.threats[i]);
    if (t && std::find(threat_cqs.begin(), threat_cqs.end(), *t) == threat_cqs.end()) {
      threat_cqs.push_back(*t);
    }
  }
  victim_quota_knobs(ctx, *cq, out);
  threat_policy_knobs(ctx, *cq, threat_cqs, out);
  victim_class_knob(ctx, out);
  victim_lending_knobs(ctx, *cq, threat_cqs, out);
}

}  // namespace

void kueue(const KnobContext& ctx, std::vector<Knob>& out) {
  if (ctx.target.goal == AdviseGoal::save) {
    save_knobs(ctx, out);
  } else {
    admit_knobs(ctx, out);
  }
}

}  // namespace kpreempt::scenario::knobs
