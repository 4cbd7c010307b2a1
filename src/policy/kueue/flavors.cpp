// SPDX-License-Identifier: Apache-2.0
// Flavor assignment of Kueue v0.14.8 (pkg/scheduler/flavorassigner/flavorassigner.go:
// assignFlavors, findFlavorForPodSets, fitsResourceQuota, isPreferred, shouldTryNextFlavor)
// with the preemption oracle (pkg/scheduler/preemption/preemption_oracle.go).
#include "policy/kueue/internal.h"

#include "kpreempt/model/match.h"

#include <climits>
#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy::kueue {
namespace {

struct Granular {
  PMode mode = PMode::fit;
  int borrow = 0;
};

// isPreferred: a flavor that cannot fit never wins; from v0.19.1 one whose probe found
// nobody to preempt loses to any viable one. BorrowingOverPreemption (the default) ranks the
// preemption mode before the borrowing level, PreemptionOverBorrowing the other way round.
bool preferred(Granular a, Granular b, const Context& ctx) {
  if (a.mode == PMode::no_fit) {
    return false;
  }
  if (b.mode == PMode::no_fit) {
    return true;
  }
  bool a_none = a.mode == PMode::no_candidates, b_none = b.mode == PMode::no_candidates;
  if (ctx.rules.no_candidates_last && a_none != b_none) {
    return b_none;
  }
  bool level_first = ctx.rules.fungibility_preference &&
                     ctx.quota.cq(ctx.p.cq).fungibility_preference == "PreemptionOverBorrowing";
  if (level_first && a.borrow != b.borrow) {
    return a.borrow < b.borrow;
  }
  if (a.mode != b.mode) {
    return a.mode > b.mode;
  }
  return a.borrow < b.borrow;
}

bool should_try_next(Granular m, const model::ClusterQueue& cq) {
  if (m.mode == PMode::no_fit || m.mode == PMode::no_candidates) {
    return true;
  }
  bool preempts = m.mode == PMode::preempt || m.mode == PMode::reclaim;
  if (preempts && cq.when_can_preempt == "TryNextFlavor") {
    return true;
  }
  return m.borrow > 0 && cq.when_can_borrow == "TryNextFlavor";
}

// The label keys compared: those of every flavor of the group (v0.14 flavorSelector), or
// from v0.17.6 only the flavor's own.
std::vector<std::string> label_keys(const Context& ctx, const model::KueueResourceGroup& g,
                                    const model::ResourceFlavor& own) {
  std::vector<std::string> keys;
  if (ctx.rules.own_label_keys) {
    for (const auto& [key, value] : own.node_labels) {
      keys.push_back(key);
    }
    return keys;
  }
  for (const auto& f : g.flavors) {
    if (const model::ResourceFlavor* rf = model::find_flavor(ctx.k, f.name)) {
      for (const auto& [key, value] : rf->node_labels) {
        keys.push_back(key);
      }
    }
  }
  return keys;
}

bool selector_matches(const model::KueuePodSet& ps, const model::ResourceFlavor& rf,
                      const std::vector<std::string>& keys) {
  auto allowed = [&](const std::string& k) {
    return std::find(keys.begin(), keys.end(), k) != keys.end();
  };
  model::Pod pod;
  for (const auto& kv : ps.node_selector) {
    if (allowed(kv.first)) {
      pod.node_selector.push_back(kv);
    }
  }
  std::vector<model::NodeSelectorTerm> terms;
  for (const auto& t : ps.required_node_affinity) {
    model::NodeSelectorTerm copy;
    std::copy_if(t.match_expressions.begin(), t.match_expressions.end(),
                 std::back_inserter(copy.match_expressions),
                 [&](const model::Requirement& r) { return allowed(r.key); });
    if (copy.match_expressions.empty()) {
      terms.clear();  // an emptied term matches every flavor; terms are ORed
      break;
    }
    terms.push_back(std::move(copy));
  }
  pod.has_required_node_affinity = !terms.empty();
  pod.required_node_affinity = std::move(terms);
  model::Node node;
  node.labels = rf.node_labels;
  return model::matches_node_affinity(pod, node);
}

// The flavor the replaced slice holds for the pod set's resource; null when unbound.
const std::string* slice_flavor(const Context& ctx, const std::string& pod_set,
                                const std::string& res) {
  if (!ctx.p.replaces) {
    return nullptr;
  }
  for (const auto& a : ctx.k.workloads[*ctx.p.replaces].assignments) {
    if (a.name == pod_set) {
      return model::find(a.flavors, res);
    }
  }
  return nullptr;
}

// A scale-up keeps every resource of the group on the flavor its old slice holds.
std::string slice_mismatch(const Context& ctx, const model::KueuePodSet& ps,
                           const std::string& flavor, const model::KueueResourceGroup& g) {
  for (const auto& res : g.covered_resources) {
    if (const std::string* held = slice_flavor(ctx, ps.name, res); held && *held != flavor) {
      return fmt::format("the replaced slice holds {} in flavor {}", res, *held);
    }
  }
  return "";
}

// checkFlavorForPodSets: "" when the flavor matches the pod set, else why not.
std::string flavor_mismatch(const Context& ctx, const model::KueuePodSet& ps,
                            const std::string& flavor, const model::KueueResourceGroup& g) {
  const model::ResourceFlavor* rf = model::find_flavor(ctx.k, flavor);
  if (rf == nullptr) {
    return fmt::format("flavor {} not found", flavor);
  }
  if (std::string why = slice_mismatch(ctx, ps, flavor, g); !why.empty()) {
    return why;
  }
  std::vector<model::Toleration> tolerations = ps.tolerations;
  tolerations.insert(tolerations.end(), rf->tolerations.begin(), rf->tolerations.end());
  if (const model::Taint* t = model::first_untolerated(tolerations, rf->node_taints)) {
    return fmt::format("untolerated taint {}={}:{} in flavor {}", t->key, t->value, t->effect,
                       flavor);
  }
  if (!selector_matches(ps, *rf, label_keys(ctx, g, *rf))) {
    return fmt::format("flavor {} doesn't match node affinity", flavor);
  }
  return "";
}

struct QuotaFit {
  Granular g;
  std::optional<Code> code;
  std::string detail;
};

int borrow_level(const Context& ctx, const FR& fr, std::int64_t val) {
  return ctx.quota.lowest_subtree_that_fits(ctx.p.cq, fr, val).level;
}

// The preemption oracle: a target search for this one pair decides between preempt,
// reclaim and no candidates; the borrowing level is measured with the targets removed.
QuotaFit probe(Context& ctx, const FR& fr, std::int64_t val) {
  Search s = find_targets(ctx, FRSet{fr}, FRAmounts{{fr, val}});
  if (s.targets.empty()) {
    return {{PMode::no_candidates, borrow_level(ctx, fr, val)},
            Code::no_candidates,
            "no workload to preempt for " + fr.resource + " in flavor " + fr.flavor};
  }
  bool own = false;
  for (const Target& t : s.targets) {
    ctx.quota.remove(*t.a);
    own = own || t.a->cq == ctx.p.cq;
  }
  int borrow = borrow_level(ctx, fr, val);
  for (const Target& t : s.targets) {
    ctx.quota.add(*t.a);
  }
  return {{own ? PMode::preempt : PMode::reclaim, borrow}, std::nullopt, ""};
}

QuotaFit fits_quota(Context& ctx, const FR& fr, std::int64_t val) {
  std::size_t q = ctx.p.cq;
  std::int64_t max_capacity = ctx.quota.potential_max(q, fr);
  if (val > max_capacity) {
    return {{PMode::no_fit, 0},
            Code::exceeds_max_capacity,
            fmt::format("{} in flavor {}: request {} exceeds the maximum capacity {}", fr.resource,
                        fr.flavor, val, max_capacity)};
  }
  SubtreeFit subtree = ctx.quota.lowest_subtree_that_fits(q, fr, val);
  if (val <= ctx.quota.available(q, fr)) {
    return {{PMode::fit, subtree.level}, std::nullopt, ""};
  }
  const model::ClusterQueue& cq = ctx.quota.cq(q);
  // canPreemptWhileBorrowing: borrowWithinCohort, or fair sharing with reclaimWithinCohort.
  bool bwc =
      (cq.borrow_within_cohort != "Never" && !cq.borrow_within_cohort.empty()) ||
      (ctx.fair.on && cq.reclaim_within_cohort != "Never" && !cq.reclaim_within_cohort.empty());
  // Above nominal the queue may still reclaim when a cohort below the root could hold the
  // request: what that subtree lent to the rest of the tree is its to take back
  // (mayReclaimInHierarchy).
  if (ctx.quota.quota(q, fr).nominal >= val || subtree.may_reclaim || bwc) {
    return probe(ctx, fr, val);
  }
  return {
      {PMode::no_fit, subtree.level},
      Code::request_above_nominal,
      fmt::format("{} in flavor {}: request {} is above the nominal quota {}{} and "
                  "borrowWithinCohort is off",
                  fr.resource, fr.flavor, val, ctx.quota.quota(q, fr).nominal,
                  ctx.quota.hierarchical(q) ? ", no cohort below the root could hold it," : "")};
}

struct GroupResult {
  std::vector<ResourceChoice> choices;
  Granular mode{PMode::no_fit, INT_MAX};
};

// Tries one flavor for every resource of the group; records the attempt.
GroupResult try_flavor(Context& ctx, const model::KueuePodSet& ps, const std::string& flavor,
                       const model::KueueAmounts& reqs, const FRAmounts& assigned,
                       PodSetChoice& out, const model::KueueResourceGroup& g) {
  GroupResult r;
  FlavorTry attempt{flavor, "", PMode::no_fit, 0, std::nullopt, ""};
  if (std::string why = flavor_mismatch(ctx, ps, flavor, g); !why.empty()) {
    attempt.code = Code::flavor_mismatch;
    attempt.detail = why;
    out.tries.push_back(attempt);
    return r;
  }
  r.mode = Granular{PMode::fit, 0};
  for (const auto& [res, amount] : reqs) {
    FR fr{flavor, res};
    auto it = assigned.find(fr);
    QuotaFit f = fits_quota(ctx, fr, (it == assigned.end() ? 0 : it->second) + amount);
    if (preferred(r.mode, f.g, ctx)) {
      r.mode = f.g;
    }
    if (f.code && !attempt.code) {
      attempt.code = f.code;
      attempt.detail = f.detail;
    }
    if (r.mode.mode != PMode::no_fit) {
      r.choices.push_back(ResourceChoice{res, flavor, f.g.mode, f.g.borrow, amount});
    }
  }
  attempt.mode = r.mode.mode;
  attempt.borrow = r.mode.borrow;
  out.tries.push_back(attempt);
  return r;
}

bool assign_group(Context& ctx, const model::KueuePodSet& ps, const model::KueueResourceGroup& g,
                  const model::KueueAmounts& reqs, const FRAmounts& assigned, PodSetChoice& out) {
  GroupResult best;
  const model::ClusterQueue& cq = ctx.quota.cq(ctx.p.cq);
  for (const auto& f : g.flavors) {
    GroupResult r = try_flavor(ctx, ps, f.name, reqs, assigned, out, g);
    if (!should_try_next(r.mode, cq)) {
      best = std::move(r);
      break;
    }
    if (preferred(r.mode, best.mode, ctx)) {
      best = std::move(r);
    }
  }
  if (best.mode.mode == PMode::no_fit) {
    auto it = std::find_if(out.tries.rbegin(), out.tries.rend(),
                           [](const FlavorTry& t) { return t.code.has_value(); });
    out.code = it == out.tries.rend() ? Code::no_flavor_fits : it->code;
    out.detail = it == out.tries.rend() ? "no flavor of the resource group fits" : it->detail;
    return false;
  }
  out.resources.insert(out.resources.end(), best.choices.begin(), best.choices.end());
  return true;
}

const model::KueueResourceGroup* group_of(const model::ClusterQueue& cq, const std::string& res) {
  for (const auto& g : cq.resource_groups) {
    if (std::find(g.covered_resources.begin(), g.covered_resources.end(), res) !=
        g.covered_resources.end()) {
      return &g;
    }
  }
  return nullptr;
}

PodSetChoice assign_pod_set(Context& ctx, std::size_t i, const FRAmounts& assigned) {
  const model::KueuePodSet& ps = ctx.p.pod_sets[i];
  const model::KueueAmounts& reqs = ctx.p.requests[i];
  const model::ClusterQueue& cq = ctx.quota.cq(ctx.p.cq);
  PodSetChoice out;
  out.name = ps.name;
  std::vector<const model::KueueResourceGroup*> done;
  for (const auto& [res, amount] : reqs) {
    const model::KueueResourceGroup* g = group_of(cq, res);
    if (g == nullptr && amount == 0 && ctx.rules.skip_zero_uncovered) {
      continue;  // gets no flavor and stays out of the totals
    }
    if (g == nullptr) {
      out.code = Code::resource_not_covered;
      out.detail = fmt::format("resource {} unavailable in ClusterQueue {}", res, cq.name);
      return out;
    }
    if (std::find(done.begin(), done.end(), g) != done.end()) {
      continue;  // assigned together with its group
    }
    done.push_back(g);
    model::KueueAmounts group_reqs;
    for (const auto& [r, v] : reqs) {
      if (group_of(cq, r) == g) {
        group_reqs[r] = v;
      }
    }
    if (!assign_group(ctx, ps, *g, group_reqs, assigned, out)) {
      return out;
    }
  }
  return out;
}

}  // namespace

std::string_view to_string(PMode m) {
  switch (m) {
    case PMode::no_fit:
      return "NoFit";
    case PMode::no_candidates:
      return "NoCandidates";
    case PMode::preempt:
      return "Preempt";
    case PMode::reclaim:
      return "Reclaim";
    case PMode::fit:
      return "Fit";
  }
  return "";
}

FRSet Assignment::needs_preemption() const {
  FRSet out;
  for (const auto& ps : pod_sets) {
    for (const auto& r : ps.resources) {
      if (r.mode != PMode::fit) {
        out.insert(FR{r.flavor, r.resource});
      }
    }
  }
  return out;
}

FRAmounts Assignment::search_requests(const Rules& rules) const {
  FRAmounts out = totals;
  if (rules.positive_requests_only) {
    std::erase_if(out, [](const auto& kv) { return kv.second == 0; });
  }
  return out;
}

int Assignment::borrow() const {
  int out = 0;
  for (const auto& ps : pod_sets) {
    for (const auto& r : ps.resources) {
      out = std::max(out, r.borrow);
    }
  }
  return out;
}

Assignment assign_flavors(Context& ctx) {
  Assignment out;
  for (std::size_t i = 0; i < ctx.p.pod_sets.size(); ++i) {
    PodSetChoice ps = assign_pod_set(ctx, i, out.totals);
    for (const ResourceChoice& r : ps.resources) {
      out.totals[FR{r.flavor, r.resource}] += r.amount;
      out.worst = std::min(out.worst, r.mode == PMode::fit ? PMode::fit : PMode::preempt);
    }
    bool failed = ps.code.has_value();
    out.pod_sets.push_back(std::move(ps));
    if (failed) {
      out.no_fit = true;
      out.code = out.pod_sets.back().code;
      out.detail = out.pod_sets.back().detail;
      return out;
    }
  }
  return out;
}

}  // namespace kpreempt::policy::kueue
