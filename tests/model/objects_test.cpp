// SPDX-License-Identifier: Apache-2.0
// Which pod annotations a snapshot keeps: those some policy reads.

#include "kpreempt/model/objects.h"

#include <catch2/catch.hpp>

using kpreempt::model::kept_pod_annotation;

TEST_CASE("pod annotations of the schedulers' own domains are kept, the others dropped",
          "[model]") {
  for (const char* key :
       {"kueue.x-k8s.io/pod-group-total-count", "yunikorn.apache.org/allow-preemption",
        "gang.scheduling.koordinator.sh/name", "scheduling.koordinator.sh/reservation-affinity",
        "koordinator.sh/qosClass", "pod-group.scheduling.sigs.k8s.io/match-policy",
        "scheduling.x-k8s.io/pod-group", "applicationId", "queue", "spark-app-selector"}) {
    INFO(key);
    CHECK(kept_pod_annotation(key));
  }
  for (const char* key :
       {"kubectl.kubernetes.io/last-applied-configuration", "kubectl.kubernetes.io/restartedAt",
        "prometheus.io/scrape", "notkoordinator.sh/x", "evil.kueue.x-k8s.io.example.com/x", "note",
        "queue-name", ""}) {
    INFO(key);
    CHECK_FALSE(kept_pod_annotation(key));
  }
}
