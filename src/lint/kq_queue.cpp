// SPDX-License-Identifier: Apache-2.0
// Kueue ClusterQueue and Cohort shape rules. Mirrors kubernetes-sigs/kueue v0.14
// apis/kueue/v1beta1/clusterqueue_types.go (CRD enums and x-kubernetes-validations) and
// pkg/webhooks/clusterqueue_webhook.go (ValidateClusterQueue).
#include "lint/checks.h"
#include "lint/kueue_view.h"

#include "kpreempt/model/quantity.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace kpreempt::lint {
namespace {

std::optional<model::Quantity> quantity(const Node& n) {
  if (!n.is_scalar() || n.null()) {
    return std::nullopt;
  }
  return model::parse_quantity(n.text()).value;
}

}  // namespace

std::string cohort_of(const Obj& cq) {
  Node spec = cq["spec"];
  return !spec["cohortName"].null() ? spec["cohortName"].str() : spec["cohort"].str();
}

std::vector<const Obj*> kueue_objects(const Corpus& c, std::string_view kind, bool with_baseline) {
  std::vector<const Obj*> out = c.of(kind, "kueue.x-k8s.io");
  if (with_baseline) {
    for (const Obj* o : c.baseline_of(kind, "kueue.x-k8s.io")) {
      out.push_back(o);
    }
  }
  return out;
}

void each_flavor_resource(const Obj& o, const std::function<void(const Node&, const Node&)>& f) {
  for (const Node& g : o["spec"]["resourceGroups"].children()) {
    for (const Node& flavor : g["flavors"].children()) {
      for (const Node& res : flavor["resources"].children()) {
        f(flavor, res);
      }
    }
  }
}

void check_kq001(const Context& c, Report& r) {
  auto check = [&](const Obj& o, const std::string& why) {
    each_flavor_resource(o, [&](const Node&, const Node& res) {
      for (const char* limit : {"borrowingLimit", "lendingLimit"}) {
        if (!res[limit].null()) {
          r.add(o, res[limit],
                fmt::format("{} for {} is set but {}: limits need a cohort to borrow from or "
                            "lend to",
                            limit, quote(res["name"].text()), why));
        }
      }
    });
  };
  for (const Obj* cq : c.corpus().of("ClusterQueue", "kueue.x-k8s.io")) {
    if (cohort_of(*cq).empty()) {
      check(*cq, "the ClusterQueue has no cohort");
    }
  }
  for (const Obj* co : c.corpus().of("Cohort", "kueue.x-k8s.io")) {
    if (co->root()["spec"]["parentName"].null()) {
      check(*co, "the Cohort has no parentName");
    }
  }
}

void check_kq002(const Context& c, Report& r) {
  auto check = [&](const Obj& o, bool cluster_queue) {
    each_flavor_resource(o, [&](const Node&, const Node& res) {
      for (const char* field : {"nominalQuota", "borrowingLimit", "lendingLimit"}) {
        std::optional<model::Quantity> q = quantity(res[field]);
        if (q && q->milli() < 0) {
          r.add(o, res[field], fmt::format("{} {} is negative", field, res[field].text()));
        }
      }
      std::optional<model::Quantity> nominal = quantity(res["nominalQuota"]);
      std::optional<model::Quantity> lending = quantity(res["lendingLimit"]);
      if (cluster_queue && lending && *lending > nominal.value_or(model::Quantity())) {
        r.add(o, res["lendingLimit"],
              fmt::format("lendingLimit {} for {} is greater than nominalQuota {}",
                          res["lendingLimit"].text(), quote(res["name"].text()),
                          res["nominalQuota"].null() ? "0" : res["nominalQuota"].str()));
      }
    });
  };
  for (const Obj* cq : c.corpus().of("ClusterQueue", "kueue.x-k8s.io")) {
    check(*cq, true);
  }
  for (const Obj* co : c.corpus().of("Cohort", "kueue.x-k8s.io")) {
    check(*co, false);
  }
}

void check_kq003(const Context& c, Report& r) {
  for (const Obj* cq : c.corpus().of("ClusterQueue", "kueue.x-k8s.io")) {
    Node pre = (*cq)["spec"]["preemption"];
    Node reclaim = pre["reclaimWithinCohort"];
    Node borrow = pre["borrowWithinCohort"]["policy"];
    // reclaimWithinCohort defaults to Never, so omitting it counts.
    bool reclaim_never = reclaim.null() || reclaim.text() == "Never";
    if (reclaim_never && !borrow.null() && borrow.text() != "Never") {
      r.add(*cq, borrow,
            fmt::format("borrowWithinCohort.policy {} while reclaimWithinCohort is {}: "
                        "preempting to borrow while never reclaiming is refused; set "
                        "reclaimWithinCohort to LowerPriority or Any, or the policy to Never",
                        borrow.text(), reclaim.null() ? "omitted (Never)" : "Never"));
    }
  }
}

void check_kq007(const Context& c, Report& r) {
  for (const Obj* cq : c.corpus().of("ClusterQueue", "kueue.x-k8s.io")) {
    Node spec = (*cq)["spec"];
    if (spec["namespaceSelector"].null()) {
      Node at = spec["namespaceSelector"].exists() ? spec["namespaceSelector"]
                : spec.exists()                    ? spec
                                                   : (*cq)["metadata"]["name"];
      r.add_at(cq->ref(), ".spec.namespaceSelector", at.loc(),
               "namespaceSelector is omitted, which matches no namespace: no LocalQueue can "
               "submit to this ClusterQueue; use {} to admit every namespace");
    }
  }
}

void check_kq005(const Context& c, Report& r) {
  struct Enum {
    std::vector<std::string_view> path;
    std::vector<std::string_view> values;
  };
  for (const Obj* cq : c.corpus().of("ClusterQueue", "kueue.x-k8s.io")) {
    // v1beta1 still accepts the deprecated Borrow / Preempt fungibility values.
    bool v1beta1 = cq->api_version == "kueue.x-k8s.io/v1beta1";
    std::vector<Enum> enums = {
        {{"preemption", "reclaimWithinCohort"}, {"Never", "LowerPriority", "Any"}},
        {{"preemption", "withinClusterQueue"},
         {"Never", "LowerPriority", "LowerOrNewerEqualPriority"}},
        {{"preemption", "borrowWithinCohort", "policy"}, {"Never", "LowerPriority"}},
        {{"queueingStrategy"}, {"StrictFIFO", "BestEffortFIFO"}},
        {{"flavorFungibility", "whenCanBorrow"}, {"MayStopSearch", "TryNextFlavor"}},
        {{"flavorFungibility", "whenCanPreempt"}, {"MayStopSearch", "TryNextFlavor"}},
    };
    if (v1beta1) {
      enums[4].values.push_back("Borrow");
      enums[5].values.push_back("Preempt");
    }
    for (const Enum& e : enums) {
      Node n = (*cq)["spec"];
      for (std::string_view k : e.path) {
        n = n[k];
      }
      if (n.null() || std::find(e.values.begin(), e.values.end(), n.text()) != e.values.end()) {
        continue;
      }
      std::string hint = closest(n.text(), e.values);
      std::string allowed;
      for (std::string_view v : e.values) {
        allowed += (allowed.empty() ? "" : ", ") + std::string(v);
      }
      r.add(*cq, n,
            fmt::format("{} is not a valid value for {} ({}){}", quote(n.text()), e.path.back(),
                        allowed, hint.empty() ? "" : "; did you mean " + hint + "?"));
    }
  }
}

}  // namespace kpreempt::lint
