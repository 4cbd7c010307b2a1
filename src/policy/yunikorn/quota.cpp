// SPDX-License-Identifier: Apache-2.0
// Quota preemption as apache/yunikorn-core v1.8.0 runs it: the queues it may fire for
// (queue.go shouldTriggerPreemption), their excess (quota_preemptor.go setPreemptableResources),
// its distribution below a parent (getChildQueuesPreemptableResource), the victim order
// (preemption_utilities.go SortAllocations) and the walk (preemptVictims).
#include "policy/yunikorn/quota.h"

#include "policy/yunikorn/placement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <tuple>

namespace kpreempt::policy::yunikorn {
namespace {

// math.RoundToEven
double round_half_even(double x) {
  if (std::abs(x - std::trunc(x)) == 0.5) {
    return 2.0 * std::round(x / 2.0);
  }
  return std::round(x);
}

// Compares over the union of keys in name order, missing = 0: a total order that puts a pod
// before every other pod at least as large on every key.
int lex_compare(const Res& a, const Res& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const bool from_a = j == b.size() || (i < a.size() && a[i].first <= b[j].first);
    const bool from_b = i == a.size() || (j < b.size() && b[j].first <= a[i].first);
    const std::int64_t va = from_a ? a[i++].second : 0;
    const std::int64_t vb = from_b ? b[j++].second : 0;
    if (va != vb) {
      return va < vb ? -1 : 1;
    }
  }
  return 0;
}

// Per key of either, the larger (or smaller) value, missing = 0.
Res key_wise(const Res& a, const Res& b, bool larger) {
  Res out = a;
  for (const auto& [k, v] : b) {
    set(out, k, larger ? std::max(get(a, k), v) : std::min(get(a, k), v));
  }
  for (auto& [k, v] : out) {
    if (!has(b, k)) {
      v = larger ? std::max<std::int64_t>(v, 0) : std::min<std::int64_t>(v, 0);
    }
  }
  return out;
}

bool at_most(const Res& a, const Res& b) {
  return std::all_of(a.begin(), a.end(),
                     [&](const auto& e) { return e.second <= get(b, e.first); }) &&
         std::all_of(b.begin(), b.end(),
                     [&](const auto& e) { return get(a, e.first) <= e.second; });
}

bool has_equal(const Cluster& c, std::span<const model::PodId> pods, const Res& r) {
  return std::any_of(pods.begin(), pods.end(),
                     [&](model::PodId id) { return equal_maps(c.pods[id].res, r); });
}

// Whether SortAllocations puts every pod of g[0, i) before every pod of g[i, n): each pod before
// must be above none after on any key and differ from it (an equal pair is "less" both ways).
bool separated(const Cluster& c, std::span<const model::PodId> g, std::size_t i,
               const Res& prefix_max, const Res& suffix_min) {
  if (!at_most(prefix_max, suffix_min)) {
    return false;
  }
  // With prefix_max <= suffix_min, an equal pair across the cut equals both bounds.
  return !(equal_maps(prefix_max, suffix_min) && has_equal(c, g.first(i), prefix_max) &&
           has_equal(c, g.subspan(i), suffix_min));
}

// Splits candidates equal on type, priority and creation into the runs upstream orders only by
// chance; `g` is sorted by lex_compare.
void split_ties(const Cluster& c, std::span<const model::PodId> g,
                std::vector<std::vector<model::PodId>>& ties) {
  const std::size_t n = g.size();
  if (n < 2) {
    return;
  }
  std::vector<Res> suffix_min(n);
  suffix_min[n - 1] = c.pods[g[n - 1]].res;
  for (std::size_t i = n - 1; i-- > 0;) {
    suffix_min[i] = key_wise(c.pods[g[i]].res, suffix_min[i + 1], false);
  }
  Res prefix_max = c.pods[g[0]].res;
  std::size_t start = 0;
  auto close = [&](std::size_t end) {
    if (end - start > 1) {
      ties.emplace_back(g.begin() + static_cast<std::ptrdiff_t>(start),
                        g.begin() + static_cast<std::ptrdiff_t>(end));
    }
    start = end;
  };
  for (std::size_t i = 1; i < n; ++i) {
    if (i > 1) {
      prefix_max = key_wise(prefix_max, c.pods[g[i - 1]].res, true);
    }
    if (separated(c, g, i, prefix_max, suffix_min[i])) {
      close(i);
    }
  }
  close(n);
}

// preemptVictims: take pods while the running total is below the excess; guarantee
// protection puts a pod back when the queue's usage would end within its guarantee.
void walk(const Cluster& c, const std::vector<model::PodId>& cands, QuotaLeaf& out) {
  const ORes& g = c.queues[out.queue].q.guaranteed;
  const bool guarded = g && !g->empty();
  Res alloc = c.queues[out.queue].allocated;
  Res total;
  std::map<std::string, std::vector<std::size_t>> taken;  // per application, into out.pods
  for (model::PodId id : cands) {
    const YkPod& p = c.pods[id];
    if (!fits_defined(out.excess, p.res)) {
      out.pods.push_back({id, Code::larger_than_excess,
                          fmt::format("{} does not fit in the excess {}", to_string(p.res),
                                      to_string(out.excess))});
      continue;
    }
    const bool take = greater_only_existing(out.excess, total, false);
    out.pods.push_back({id, take ? Code::quota_preemption : Code::not_needed,
                        fmt::format("the running total before it ({}) {} the excess {}",
                                    total.empty() ? "nothing" : to_string(total),
                                    take ? "is below" : "already reaches", to_string(out.excess))});
    if (take) {
      taken[p.app].push_back(out.pods.size() - 1);
      sub_from(alloc, p.res);
    }
    if (guarded && greater_only_existing(*g, alloc, false)) {
      // Drops the application's latest victim: the pod just taken (a check that holds before
      // the walk makes every pod taken and dropped; otherwise it never holds for a pod not
      // taken). Its size leaves the total although it never entered it: upstream's quirk.
      if (std::vector<std::size_t>& mine = taken[p.app]; !mine.empty()) {
        QuotaPod& back = out.pods[mine.back()];
        back.code = Code::would_drop_queue_below_guaranteed;
        back.detail = fmt::format(
            "taking it leaves the queue's usage {} within its guarantee {}: put back, "
            "and its size is taken off the running total",
            to_string(alloc), to_string(*g));
        mine.pop_back();
      }
      add_to(alloc, p.res);
      sub_from(total, p.res);
    } else {
      add_to(total, p.res);
    }
  }
  for (const QuotaPod& q : out.pods) {
    if (q.code == Code::quota_preemption) {
      out.victims.push_back(q.pod);
    }
  }
}

// setPreemptableResources: max minus (usage minus pods already being preempted), on max's keys,
// where it is negative.
Res excess_of(const Res& max, const Res& allocated, const Res& preempting) {
  Res used = allocated;
  for (auto& [k, v] : used) {
    v -= get(preempting, k);
  }
  Res out;
  if (max.empty() || used.empty()) {
    return out;
  }
  for (const auto& [k, v] : max) {
    if (const std::int64_t d = v - get(used, k); d < 0) {
      set(out, k, -d);
    }
  }
  return out;
}

void distribute_into(const Cluster& c, std::uint32_t parent, const Res& excess,
                     std::vector<LeafShare>& out) {
  std::vector<std::pair<std::uint32_t, Res>> weighed;
  Res total;
  for (std::uint32_t child : c.queues[parent].q.children) {
    const Res& used = c.queues[child].allocated;
    const Res g = c.queues[child].q.guaranteed.value_or(Res{});
    if (used.empty() || greater_only_existing(g, used, true)) {
      continue;  // no usage, or within its guarantee on every shared key
    }
    // Usage above the guarantee, on the guarantee's keys; as an absolute value, so keys still
    // under it weigh too (upstream's quirk). Without a guarantee: the usage.
    Res base;
    for (const auto& [k, v] : g.empty() ? used : g) {
      set(base, k, std::abs(g.empty() ? v : v - get(used, k)));
    }
    add_to(total, base);
    weighed.emplace_back(child, std::move(base));
  }
  for (const auto& [child, base] : weighed) {
    Res share;
    for (const auto& [k, v] : base) {
      if (!has(excess, k)) {
        continue;
      }
      // GetSharesTypeWise, then RoundToEven in float64 as upstream computes it.
      double per = 0;
      if (v != 0) {
        per = get(total, k) == 0 ? static_cast<double>(v)
                                 : static_cast<double>(v) / static_cast<double>(get(total, k));
      }
      set(share, k,
          static_cast<std::int64_t>(round_half_even(per * static_cast<double>(get(excess, k)))));
    }
    if (c.queues[child].q.leaf) {
      out.push_back({child, std::move(share), base});
    } else {
      distribute_into(c, child, share, out);
    }
  }
}

void tree_order(const Cluster& c, std::uint32_t q, std::vector<std::uint32_t>& out) {
  out.push_back(q);
  for (std::uint32_t child : c.queues[q].q.children) {
    tree_order(c, child, out);
  }
}

// Queues with a pending ask at or below them: TryAllocate only descends into those, so only
// they are checked for quota preemption in a cycle.
std::vector<bool> pending_below(const Cluster& c) {
  Cluster placed = c;  // placing a pending pod may create dynamic queues
  std::map<std::string, std::uint32_t> app_queue;
  for (const YkPod& p : c.pods) {
    if (p.yk && p.bound && p.queue != k_no_queue) {
      app_queue.emplace(p.app, p.queue);
    }
  }
  std::vector<bool> out(c.queues.size(), false);
  for (model::PodId id = 0; id < c.pods.size(); ++id) {
    const model::Pod& pod = c.snap.pods()[id];
    const YkPod& p = c.pods[id];
    if (!p.yk || p.bound || !pod.pending() || pod.terminating() || !pod.scheduling_gates.empty()) {
      continue;
    }
    std::uint32_t q = p.queue;
    if (q == k_no_queue) {
      auto it = app_queue.find(p.app);
      q = it != app_queue.end() ? it->second : place(placed, pod, false);
    }
    for (; q != k_no_queue; q = placed.queues[q].q.parent) {
      if (q < out.size()) {
        out[q] = true;
      }
    }
  }
  return out;
}

// One leaf's run (tryPreemptionInternal) over its running pods.
QuotaLeaf run_leaf(const Cluster& c, std::uint32_t leaf, const Res& excess,
                   const std::vector<model::PodId>& running) {
  QuotaLeaf out;
  out.queue = leaf;
  out.excess = excess;
  if (zero_valued(excess)) {
    return out;  // filterAllocations: nothing to free
  }
  std::vector<model::PodId> cands;
  std::vector<QuotaPod> filtered;
  for (model::PodId id : running) {
    const YkPod& p = c.pods[id];
    if (!common_key(excess, p.res)) {
      filtered.push_back({id, Code::no_common_resource,
                          fmt::format("shares no resource with the excess {}", to_string(excess))});
    } else if (p.required_node) {
      filtered.push_back({id, Code::required_node, "a DaemonSet pod: quota preemption skips it"});
    } else if (p.preempted) {
      filtered.push_back({id, Code::already_preempted, "already terminating"});
    } else {
      cands.push_back(id);
    }
  }
  sort_allocations(c, cands, out.ties);
  walk(c, cands, out);
  out.pods.insert(out.pods.end(), filtered.begin(), filtered.end());
  return out;
}

}  // namespace

void sort_allocations(const Cluster& c, std::vector<model::PodId>& pods,
                      std::vector<std::vector<model::PodId>>& ties) {
  auto key = [&](model::PodId id) {
    const YkPod& p = c.pods[id];
    return std::make_tuple(allocation_type(p), p.priority, -p.create);  // newest first
  };
  std::sort(pods.begin(), pods.end(), [&](model::PodId a, model::PodId b) {
    if (key(a) != key(b)) {
      return key(a) < key(b);
    }
    if (const int cmp = lex_compare(c.pods[a].res, c.pods[b].res); cmp != 0) {
      return cmp < 0;
    }
    const model::Pod& pa = c.snap.pods()[a];
    const model::Pod& pb = c.snap.pods()[b];
    return std::tie(pa.namespace_, pa.name) < std::tie(pb.namespace_, pb.name);
  });
  for (std::size_t start = 0; start < pods.size();) {
    std::size_t end = start + 1;
    while (end < pods.size() && key(pods[end]) == key(pods[start])) {
      ++end;
    }
    split_ties(c, std::span<const model::PodId>(pods).subspan(start, end - start), ties);
    start = end;
  }
}

std::vector<LeafShare> distribute(const Cluster& c, std::uint32_t parent, const Res& excess) {
  std::vector<LeafShare> out;
  distribute_into(c, parent, excess, out);
  return out;
}

std::vector<QuotaQueue> quota_preemption(const Cluster& c, bool runs) {
  std::vector<QuotaQueue> out;
  if (!c.rules.quota_preemption || !c.quota_preemption_enabled) {
    return out;
  }
  std::vector<std::uint32_t> order;
  tree_order(c, 0, order);
  std::vector<std::vector<model::PodId>> running;  // by queue, filled on first use
  auto running_in = [&](std::uint32_t leaf) -> const std::vector<model::PodId>& {
    if (running.empty()) {
      running.resize(c.queues.size());
      for (model::PodId id = 0; id < c.pods.size(); ++id) {
        const YkPod& p = c.pods[id];
        if (p.yk && p.bound && p.queue != k_no_queue) {
          running[p.queue].push_back(id);
        }
      }
    }
    return running[leaf];
  };
  for (std::uint32_t q : order) {
    const QueueInfo& info = c.queues[q];
    const ORes& max = q == 0 ? c.root_max : info.q.max;
    // A dynamic queue never runs it; without a delay or a max no reload starts its timer; a
    // usage within max on every shared key clears the timer.
    if (info.q.dynamic || quota_delay_ns(info.q) == 0 || empty(max) ||
        greater_only_existing(*max, info.allocated, true)) {
      continue;
    }
    QuotaQueue r;
    r.queue = q;
    r.delay = *model::find(info.q.properties, "preemption.quota.delay");
    r.max = *max;
    r.used = info.allocated;
    r.preempting = info.preempting;
    r.excess = excess_of(*max, info.allocated, info.preempting);
    if (!runs) {
      out.push_back(std::move(r));
      continue;
    }
    if (info.q.leaf) {
      r.leaves.push_back(run_leaf(c, q, r.excess, running_in(q)));
    } else if (!r.excess.empty()) {
      // With its terminating pods the parent is within max: upstream then distributes a nil
      // excess, which dereferences nil once a child is above its guarantee. Shown as nothing.
      for (LeafShare& s : distribute(c, q, r.excess)) {
        QuotaLeaf leaf = run_leaf(c, s.queue, s.share, running_in(s.queue));
        leaf.base = std::move(s.base);
        r.leaves.push_back(std::move(leaf));
      }
    }
    out.push_back(std::move(r));
  }
  if (runs && !out.empty()) {
    const std::vector<bool> pending = pending_below(c);
    for (QuotaQueue& r : out) {
      r.pending_ask = pending[r.queue];
    }
  }
  return out;
}

}  // namespace kpreempt::policy::yunikorn
