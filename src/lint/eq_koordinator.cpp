// SPDX-License-Identifier: Apache-2.0
// EQ004: the Koordinator quota tree as koordinator v1.6 pkg/webhook/elasticquota
// (quota_topology.go ValidAddQuota / checkParentQuotaInfo / checkMinQuotaSum) validates it:
// names are unique across namespaces, parents exist and are marked is-parent, children's min
// fit in the parent's min, max covers min, and a child's max keys exist in the parent's max.
#include "lint/checks.h"
#include "lint/eq_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace kpreempt::lint {
namespace {

constexpr std::string_view k_root = "koordinator-root-quota";

std::string label(const Obj& o, std::string_view name) {
  return o.label(std::string(k_koord_prefix) + std::string(name)).str();
}

void check_parent(const Obj& q, const std::map<std::string, const Obj*>& by_name, Report& r) {
  Node at = q.label(std::string(k_koord_prefix) + "parent");
  std::string parent = at.str();
  if (parent.empty() || parent == k_root) {
    return;
  }
  auto it = by_name.find(parent);
  if (it == by_name.end()) {
    r.add(q, at,
          fmt::format("parent quota {} is in neither the input nor the baseline", quote(parent)));
    return;
  }
  const Obj& p = *it->second;
  if (label(p, "is-parent") != "true") {
    r.add(q, at,
          fmt::format("parent quota {} lacks the label quota.scheduling.koordinator.sh/"
                      "is-parent: \"true\"",
                      parent));
  }
  Node pmax = p["spec"]["max"];
  if (!pmax.is_map()) {
    return;
  }
  for (const Node& m : q["spec"]["max"].children()) {
    if (!pmax[m.key()].exists()) {
      r.add(q, m, fmt::format("max has {} but parent quota {} has no max for it", m.key(), parent));
    }
  }
}

void check_children_min(const Obj& p, const std::vector<QuotaView>& all, Report& r) {
  std::map<std::string, model::Quantity> sum;
  std::set<std::pair<std::string, std::string>> counted;  // a child declared twice counts once
  for (const QuotaView& c : all) {
    if (label(*c.obj, "parent") != p.name || !counted.insert({c.obj->ns, c.obj->name}).second) {
      continue;
    }
    for (const Node& m : (*c.obj)["spec"]["min"].children()) {
      if (auto v = quantity_of(m)) {
        model::Quantity& slot = sum[std::string(m.key())];
        slot = slot + *v;
      }
    }
  }
  for (const auto& [res, total] : sum) {
    Node own = p["spec"]["min"][res];
    auto cap = quantity_of(own);
    if (cap && total > *cap) {
      r.add(p, own,
            fmt::format("the children's min {} add up to {}, above this quota's min {}", res,
                        show(res, total), own.text()));
    }
  }
}

}  // namespace

void check_eq004(const Context& c, Report& r) {
  std::vector<QuotaView> all;
  for (const QuotaView& q : quotas(c, true)) {
    if (q.kind == QuotaKind::koordinator) {
      all.push_back(q);
    }
  }
  std::map<std::string, const Obj*> by_name;
  for (const QuotaView& q : all) {
    by_name.emplace(q.obj->name, q.obj);  // input first
  }
  std::vector<QuotaView> input;
  std::copy_if(all.begin(), all.end(), std::back_inserter(input),
               [](const QuotaView& q) { return !q.obj->baseline; });
  std::sort(input.begin(), input.end(), [](const QuotaView& a, const QuotaView& b) {
    return std::tie(a.obj->name, a.obj->ns) < std::tie(b.obj->name, b.obj->ns);
  });
  for (std::size_t i = 0; i < input.size(); ++i) {
    const Obj& q = *input[i].obj;
    if (i > 0 && input[i - 1].obj->name == q.name && input[i - 1].obj->ns != q.ns) {
      r.add(q, q["metadata"]["name"],
            fmt::format("quota name {} is used in namespace {} already: Koordinator quota names "
                        "are unique across the tree",
                        q.name, input[i - 1].obj->ns));
    }
    check_parent(q, by_name, r);
    if (label(q, "is-parent") == "true") {
      check_children_min(q, all, r);
    }
    Node max = q["spec"]["max"];
    for (const Node& m : q["spec"]["min"].children()) {
      if (!max[m.key()].exists()) {
        r.add(q, m, fmt::format("min has {} but max does not", m.key()));
      }
    }
  }
}

}  // namespace kpreempt::lint
