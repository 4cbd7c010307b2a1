// SPDX-License-Identifier: Apache-2.0
// ElasticQuota rules for both implementations: kubernetes-sigs/scheduler-plugins v0.31
// pkg/capacityscheduling (one quota per namespace, min <= max) and koordinator v1.6
// pkg/webhook/elasticquota (min <= max, non-negative).
#include "lint/checks.h"
#include "lint/eq_view.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::lint {
namespace {

bool koordinator_labelled(const Obj& o) {
  for (const Node& l : o["metadata"]["labels"].children()) {
    if (l.key().starts_with(k_koord_prefix)) {
      return true;
    }
  }
  return false;
}

// scheduling.sigs.k8s.io is Koordinator's ElasticQuota group today (koordinator
// config/crd/bases/scheduling.sigs.k8s.io_elasticquotas.yaml); scheduler-plugins left it in
// v0.25.7 (apis/scheduling/groupversion_info.go). A quota of that group is an old
// CapacityScheduling quota only with evidence of CapacityScheduling in the run.
bool capacity_scheduling_evident(const Context& c) {
  if (c.policy_given("koordinator")) {
    return false;
  }
  if (c.policy_given("capacity")) {
    return true;
  }
  return std::any_of(c.corpus().input().begin(), c.corpus().input().end(),
                     [](const Obj& o) { return o.group == "scheduling.x-k8s.io"; });
}

void add_views(const Context& c, const std::vector<const Obj*>& objs, std::vector<QuotaView>& out) {
  bool capacity = capacity_scheduling_evident(c);
  for (const Obj* o : objs) {
    if (o->group == "scheduling.x-k8s.io") {
      out.push_back(QuotaView{o, QuotaKind::capacity});
    } else if (o->group == "scheduling.sigs.k8s.io") {
      bool koord = koordinator_labelled(*o) || !capacity;
      out.push_back(QuotaView{o, koord ? QuotaKind::koordinator : QuotaKind::old_capacity});
    }
  }
}

bool by_ns_name(const QuotaView& a, const QuotaView& b) {
  return std::tie(a.obj->ns, a.obj->name) < std::tie(b.obj->ns, b.obj->name);
}

}  // namespace

std::vector<QuotaView> quotas(const Context& c, bool with_baseline) {
  std::vector<QuotaView> out;
  add_views(c, c.corpus().of("ElasticQuota"), out);
  if (with_baseline) {
    add_views(c, c.corpus().baseline_of("ElasticQuota"), out);
  }
  return out;
}

std::optional<model::Quantity> quantity_of(const Node& n) {
  if (!n.is_scalar() || n.null()) {
    return std::nullopt;
  }
  return model::parse_quantity(n.text()).value;
}

std::string show(std::string_view resource, model::Quantity q) {
  bool bytes = resource.find("memory") != std::string_view::npos ||
               resource.find("storage") != std::string_view::npos;
  return model::to_string(q, bytes);
}

void check_eq001(const Context& c, Report& r) {
  for (const QuotaView& q : quotas(c, false)) {
    Node min = (*q.obj)["spec"]["min"], max = (*q.obj)["spec"]["max"];
    for (const Node& side : {min, max}) {
      for (const Node& m : side.children()) {
        std::optional<model::Quantity> v = quantity_of(m);
        if (v && v->milli() < 0) {
          r.add(*q.obj, m, fmt::format("{} {} {} is negative", side.key(), m.key(), m.text()));
        }
      }
    }
    for (const Node& m : min.children()) {
      std::optional<model::Quantity> lo = quantity_of(m), hi = quantity_of(max[m.key()]);
      if (lo && hi && *lo > *hi) {
        r.add(*q.obj, m,
              fmt::format("min {} {} is above max {}", m.key(), m.text(), max[m.key()].text()));
      }
    }
  }
}

void check_eq002(const Context& c, Report& r) {
  std::vector<QuotaView> qs;
  for (const QuotaView& q : quotas(c, false)) {
    if (q.kind != QuotaKind::koordinator) {
      qs.push_back(q);
    }
  }
  std::sort(qs.begin(), qs.end(), by_ns_name);
  for (std::size_t i = 0; i < qs.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (qs[j].obj->ns == qs[i].obj->ns && qs[j].obj->group == qs[i].obj->group) {
        r.add(*qs[i].obj, (*qs[i].obj)["metadata"]["name"],
              fmt::format("namespace {} already has ElasticQuota {}: CapacityScheduling keeps "
                          "one quota per namespace, whichever its informer delivers first, and "
                          "ignores the others (so which limits apply depends on that order)",
                          qs[i].obj->ns, qs[j].obj->name));
        break;
      }
    }
  }
}

void check_eq005(const Context& c, Report& r) {
  for (const QuotaView& q : quotas(c, false)) {
    if (q.kind == QuotaKind::old_capacity) {
      r.add(*q.obj, (*q.obj)["apiVersion"],
            fmt::format("{} is the ElasticQuota group of scheduler-plugins before v0.25; current "
                        "CapacityScheduling reads scheduling.x-k8s.io/v1alpha1 only, so namespace "
                        "{} behaves as if it had no quota (for Koordinator, add a "
                        "quota.scheduling.koordinator.sh/ label or pass --policy koordinator)",
                        q.obj->api_version, q.obj->ns));
    }
  }
}

void check_eq003(const Context& c, Report& r) {
  std::map<std::string, model::Quantity> allocatable;
  std::vector<const Obj*> nodes = c.corpus().of("Node");
  for (const Obj* n : c.corpus().baseline_of("Node")) {
    nodes.push_back(n);
  }
  // Node manifests without a status (as written to be applied, not dumped) say nothing about
  // capacity: only nodes with status.allocatable count, and without any there is no check.
  std::size_t measured = 0;
  for (const Obj* n : nodes) {
    Node status_allocatable = (*n)["status"]["allocatable"];
    measured += status_allocatable.null() ? 0 : 1;
    for (const Node& a : status_allocatable.children()) {
      if (auto q = quantity_of(a)) {
        auto& sum = allocatable[std::string(a.key())];
        sum = sum + *q;
      }
    }
  }
  if (measured == 0) {
    return;
  }
  std::vector<QuotaView> qs = quotas(c, false);
  std::sort(qs.begin(), qs.end(), by_ns_name);
  for (bool koord : {false, true}) {
    std::map<std::string, std::pair<model::Quantity, std::size_t>> sums;  // total, count
    std::map<std::string, std::pair<const Obj*, Node>> last;              // where to report
    for (const QuotaView& q : qs) {
      std::string parent = q.obj->label(std::string(k_koord_prefix) + "parent").str();
      if ((q.kind == QuotaKind::koordinator) != koord ||
          (koord && !parent.empty() && parent != "koordinator-root-quota")) {
        continue;  // Koordinator children are counted inside their parent's min
      }
      for (const Node& m : (*q.obj)["spec"]["min"].children()) {
        if (auto v = quantity_of(m)) {
          auto& [total, count] = sums[std::string(m.key())];
          total = total + *v;
          ++count;
          last[std::string(m.key())] = {q.obj, m};
        }
      }
    }
    for (const auto& [res, tc] : sums) {
      model::Quantity cap = allocatable.contains(res) ? allocatable.at(res) : model::Quantity();
      if (tc.first > cap) {
        const auto& [obj, at] = last.at(res);
        r.add(*obj, at,
              fmt::format("the min {} of {} {} ElasticQuotas adds up to {}, above the {} "
                          "allocatable on the nodes: the guarantees cannot all be honoured and "
                          "preemption outcomes depend on arrival order",
                          res, tc.second, koord ? "Koordinator" : "CapacityScheduling",
                          show(res, tc.first), show(res, cap)));
      }
    }
  }
}

}  // namespace kpreempt::lint
