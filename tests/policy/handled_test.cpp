// SPDX-License-Identifier: Apache-2.0
// Which pods each policy's scheduler takes: spec.schedulerName against the policy's scheduler
// and the profiles of a KubeSchedulerConfiguration, scheduling gates, a profile without
// DefaultPreemption, and the warnings about what no policy models.
#include "load/load_support.h"

#include "kpreempt/policy/policy.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy {
namespace {

using load::testing::load_text;

constexpr std::string_view k_cluster = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low, namespace: a}
spec:
  nodeName: n1
  priority: 0
  schedulerName: volcano
  containers: [{name: c, resources: {requests: {cpu: "2"}}}]
status: {phase: Running}
)";

std::string pending(std::string_view name, std::string_view scheduler,
                    std::string_view extra = "") {
  return fmt::format(
      "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {}, namespace: a}}\nspec:\n"
      "  priority: 100\n  schedulerName: {}\n{}  containers: [{{name: c, resources: "
      "{{requests: {{cpu: \"1\"}}}}}}]\n",
      name, scheduler, extra);
}

struct Run {
  load::testing::Loaded loaded;
  model::PodId pod;
  Decision decide(std::string_view policy) const {
    const Args args;
    return policy::decide(*find(policy), Input{loaded.snapshot, pod, model::Instant{}, args});
  }
  bool applies(std::string_view policy) const {
    return policy::applies(*find(policy), loaded.snapshot, pod);
  }
};

Run run(const std::string& text, std::string_view pod) {
  auto loaded = load_text(text);
  REQUIRE(loaded.messages.empty());
  const auto id = loaded.snapshot.find_pod("a", pod);
  REQUIRE(id.has_value());
  return Run{std::move(loaded), *id};
}

std::vector<std::string> reasons(const Decision& d) {
  std::vector<std::string> out;
  for (const Reason& r : d.reasons) {
    std::string s(name(r.code));
    for (const std::string& part : r.subject) {
      s += (s.find(':') == std::string::npos ? ":" : ",") + part;
    }
    out.push_back(s);
  }
  return out;
}

TEST_CASE("a pod of another scheduler is not handled, and the others still are", "[policy]") {
  const Run r = run(
      std::string(k_cluster) + pending("vc", "volcano") + pending("ks", "default-scheduler"), "vc");
  const Decision d = r.decide("default");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(d.victims.empty());
  CHECK(reasons(d) == std::vector<std::string>{"not-handled:volcano"});
  CHECK(d.summary.starts_with("not handled: spec.schedulerName is volcano"));
  CHECK_FALSE(r.applies("default"));
  CHECK_FALSE(r.applies("yunikorn"));
  // The running Volcano pod is still a victim for a kube-scheduler pod.
  const Run ks{load_text(std::string(k_cluster) + pending("ks", "default-scheduler")), 1};
  const Decision k = ks.decide("default");
  CHECK(k.outcome == Outcome::preempt);
  REQUIRE(k.victims.size() == 1);
  CHECK(k.victims[0].ref.name == "low");
}

TEST_CASE("each scheduler answers for its own names", "[policy]") {
  const Run koord = run(std::string(k_cluster) + pending("p", "koord-scheduler"), "p");
  CHECK(reasons(koord.decide("default")) ==
        std::vector<std::string>{"not-handled:koord-scheduler"});
  CHECK(reasons(koord.decide("yunikorn")) ==
        std::vector<std::string>{"not-handled:koord-scheduler"});
  const Run yk = run(std::string(k_cluster) + pending("p", "yunikorn"), "p");
  CHECK(reasons(yk.decide("default")) == std::vector<std::string>{"not-handled:yunikorn"});
  CHECK(reasons(yk.decide("capacity")) == std::vector<std::string>{"not-handled:yunikorn"});
}

TEST_CASE("a second scheduler's profile names are kube-scheduler's", "[policy]") {
  const std::string config =
      "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
      "profiles:\n- schedulerName: scheduler-plugins-scheduler\n";
  const Run r =
      run(std::string(k_cluster) + config + pending("p", "scheduler-plugins-scheduler"), "p");
  CHECK(r.decide("default").outcome == Outcome::preempt);
  CHECK(r.applies("default"));
  const Run none = run(std::string(k_cluster) + pending("p", "scheduler-plugins-scheduler"), "p");
  CHECK(reasons(none.decide("default")) ==
        std::vector<std::string>{"not-handled:scheduler-plugins-scheduler"});
}

TEST_CASE("a gated pod is not tried, except by Kueue, which lifts its own gate", "[policy]") {
  const Run r = run(std::string(k_cluster) +
                        pending("g", "default-scheduler",
                                "  schedulingGates:\n  - name: kueue.x-k8s.io/admission\n  - "
                                "name: example.com/quota\n"),
                    "g");
  const Decision d = r.decide("default");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(reasons(d) == std::vector<std::string>{"gated:kueue.x-k8s.io/admission,example.com/quota"});
  CHECK(r.applies("default"));  // --policy all says why it waits
  CHECK(reasons(r.decide("kueue")) != reasons(d));
}

TEST_CASE("a profile without DefaultPreemption never preempts for its pods", "[policy]") {
  const std::string config =
      "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
      "profiles:\n- schedulerName: default-scheduler\n  plugins:\n    postFilter:\n"
      "      disabled:\n      - name: \"*\"\n";
  const Run r = run(std::string(k_cluster) + config + pending("p", "default-scheduler"), "p");
  const Decision d = r.decide("default");
  CHECK(d.outcome == Outcome::unschedulable);
  CHECK(d.victims.empty());
  CHECK(reasons(d) == std::vector<std::string>{"preemption-disabled:default-scheduler"});
  CHECK(std::count_if(d.warnings.begin(), d.warnings.end(), [](const std::string& w) {
          return w.starts_with(
              "profile default-scheduler of the KubeSchedulerConfiguration disables "
              "DefaultPreemption");
        }) == 1);
  CHECK_FALSE(r.applies("default"));
}

TEST_CASE("a DRA claim is named in a warning, once", "[policy]") {
  const Run r = run(std::string(k_cluster) + pending("d", "default-scheduler",
                                                     "  resourceClaims:\n  - name: gpu\n"
                                                     "    resourceClaimTemplateName: single-gpu\n"),
                    "d");
  const Decision d = r.decide("default");
  CHECK(std::count_if(d.warnings.begin(), d.warnings.end(), [](const std::string& w) {
          return w.find("ResourceClaimTemplate/a/single-gpu (DRA)") != std::string::npos;
        }) == 1);
}

}  // namespace
}  // namespace kpreempt::policy
