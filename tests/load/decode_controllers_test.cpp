// SPDX-License-Identifier: Apache-2.0
// Workload controllers read as what-if input: the pods Deployments, ReplicaSets,
// StatefulSets, Jobs and CronJobs would create, and the same kinds skipped in a cluster dump.
#include "load/decode.h"
#include "load/load_support.h"
#include "load/stream.h"

#include "kpreempt/load/events.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace kpreempt::load {
namespace {

struct Derived {
  model::Snapshot snapshot;
  std::vector<std::string> messages;  // loader and builder diagnostics, formatted
  std::vector<model::ObjectRef> pods;
};

// Reads `text` as --pod-file does: controllers become their pods.
Derived derive(std::string_view text) {
  model::SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  std::vector<model::ObjectRef> pods;
  DecodeContext ctx{builder, diags, &pods, true};
  try {
    read_stream(*open_source(text, "manifest.yaml"), ctx);
  } catch (const InputError& e) {
    diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
  model::Snapshot snap = std::move(builder).build(diags);
  std::vector<std::string> messages;
  for (const Diagnostic& d : diags) {
    messages.push_back(format(d));
  }
  return Derived{std::move(snap), std::move(messages), std::move(pods)};
}

std::vector<std::string> names(const Derived& d) {
  std::vector<std::string> out;
  for (const model::ObjectRef& r : d.pods) {
    out.push_back(r.namespace_ + "/" + r.name);
  }
  return out;
}

const model::Pod& pod(const Derived& d, std::string_view ns, std::string_view name) {
  auto id = d.snapshot.find_pod(ns, name);
  REQUIRE(id.has_value());
  return d.snapshot.pods()[*id];
}

constexpr std::string_view k_deployment = R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: serving}
value: 500
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: team-a
  labels: {owner: deployment-label}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {note: dropped, yunikorn.apache.org/allow-preemption: "false"}
    spec:
      priorityClassName: serving
      containers:
      - name: main
        image: nginx
        resources: {requests: {cpu: 500m, memory: 1Gi}}
)";

}  // namespace

TEST_CASE("a Deployment becomes its replicas as pending pods with synthetic names", "[manifest]") {
  Derived d = derive(k_deployment);
  REQUIRE(d.messages.empty());
  CHECK(names(d) == std::vector<std::string>{"team-a/web-what-if-0", "team-a/web-what-if-1",
                                             "team-a/web-what-if-2"});
  const model::Pod& p = pod(d, "team-a", "web-what-if-1");
  CHECK(p.node_name.empty());
  CHECK(p.phase == "Pending");
  CHECK(p.labels == model::StringMap{{"app", "web"}});
  // Annotations no policy reads are not kept.
  CHECK(p.annotations == model::StringMap{{"yunikorn.apache.org/allow-preemption", "false"}});
  REQUIRE(p.owners.size() == 1);
  CHECK(p.owners[0].kind == "ReplicaSet");
  CHECK(p.owners[0].name == "web-what-if");
  CHECK(p.owners[0].controller);
  REQUIRE(p.containers.size() == 1);
  CHECK(p.containers[0].requests ==
        model::ResourceList{{"cpu", model::Quantity::from_milli(500)},
                            {"memory", model::Quantity::from_units(1024LL * 1024 * 1024)}});
  CHECK(p.loc.line == 16);  // spec.template
}

TEST_CASE("derived pods take their priority from the template's PriorityClass", "[manifest]") {
  Derived d = derive(k_deployment);
  auto id = d.snapshot.find_pod("team-a", "web-what-if-0");
  REQUIRE(id.has_value());
  CHECK(d.snapshot.facts(*id).priority == 500);
}

TEST_CASE("a template naming a missing PriorityClass is an error at the template", "[manifest]") {
  Derived d = derive(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      priorityClassName: nope
      containers: [{name: main}]
)");
  CHECK(d.messages ==
        std::vector<std::string>{"manifest.yaml:6:5: error: Pod default/web-what-if-0: "
                                 "spec.priorityClassName: PriorityClass \"nope\" not found"});
}

TEST_CASE("a Deployment without replicas makes one pod in the default namespace", "[manifest]") {
  Derived d = derive(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers: [{name: main}]
)");
  REQUIRE(d.messages.empty());
  CHECK(names(d) == std::vector<std::string>{"default/web-what-if-0"});
}

TEST_CASE("a ReplicaSet's pods are owned by it", "[manifest]") {
  Derived d = derive(R"(apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web-6d4b9, namespace: ns}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: main}]
)");
  REQUIRE(d.messages.empty());
  CHECK(names(d) == std::vector<std::string>{"ns/web-6d4b9-what-if-0", "ns/web-6d4b9-what-if-1"});
  const model::Pod& p = pod(d, "ns", "web-6d4b9-what-if-0");
  REQUIRE(p.owners.size() == 1);
  CHECK(p.owners[0].kind == "ReplicaSet");
  CHECK(p.owners[0].name == "web-6d4b9");
}

TEST_CASE("a StatefulSet's pods are named by ordinal and labelled with their identity",
          "[manifest]") {
  Derived d = derive(R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  replicas: 3
  serviceName: db
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: main}]
)");
  REQUIRE(d.messages.empty());
  CHECK(names(d) == std::vector<std::string>{"data/db-0", "data/db-1", "data/db-2"});
  const model::Pod& p = pod(d, "data", "db-2");
  CHECK(*model::find(p.labels, "statefulset.kubernetes.io/pod-name") == "db-2");
  CHECK(*model::find(p.labels, "apps.kubernetes.io/pod-index") == "2");
  CHECK(*model::find(p.labels, "app") == "db");
  CHECK(p.owners[0].kind == "StatefulSet");
  CHECK(p.owners[0].name == "db");
}

TEST_CASE("a Job starts min(parallelism, completions) pods", "[manifest]") {
  auto job = [](std::string_view fields) {
    return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train}\nspec:\n" +
           std::string(fields) + "  template:\n    spec:\n      containers: [{name: main}]\n";
  };
  auto count = [&](std::string_view fields) {
    Derived d = derive(job(fields));
    CHECK(d.messages.empty());
    return d.pods.size();
  };
  CHECK(count("") == 1);
  CHECK(count("  parallelism: 4\n") == 4);
  CHECK(count("  completions: 3\n") == 1);
  CHECK(count("  parallelism: 4\n  completions: 2\n") == 2);
  CHECK(count("  parallelism: 2\n  completions: 5\n") == 2);

  Derived d = derive(job("  parallelism: 2\n"));
  CHECK(names(d) == std::vector<std::string>{"default/train-0", "default/train-1"});
  const model::Pod& p = pod(d, "default", "train-1");
  CHECK(p.owners[0].kind == "Job");
  CHECK(p.owners[0].name == "train");
  CHECK(*model::find(p.labels, "job-name") == "train");
  CHECK(*model::find(p.labels, "batch.kubernetes.io/job-name") == "train");
}

TEST_CASE("an Indexed Job labels each pod with its completion index", "[manifest]") {
  Derived d = derive(R"(apiVersion: batch/v1
kind: Job
metadata: {name: idx}
spec:
  completionMode: Indexed
  completions: 2
  parallelism: 2
  template:
    spec:
      containers: [{name: main}]
)");
  REQUIRE(d.messages.empty());
  const model::Pod& p = pod(d, "default", "idx-1");
  CHECK(*model::find(p.labels, "batch.kubernetes.io/job-completion-index") == "1");
  CHECK(*model::find(p.annotations, "batch.kubernetes.io/job-completion-index") == "1");
}

TEST_CASE("a suspended Job and zero replicas create no pods, with a warning", "[manifest]") {
  Derived suspended = derive(R"(apiVersion: batch/v1
kind: Job
metadata: {name: later}
spec:
  suspend: true
  template:
    spec:
      containers: [{name: main}]
)");
  CHECK(suspended.pods.empty());
  CHECK(suspended.messages ==
        std::vector<std::string>{"manifest.yaml:5:12: warning: Job default/later: spec.suspend: "
                                 "the Job is suspended: its controller creates no pods"});
  Derived zero = derive(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 0
  template:
    spec:
      containers: [{name: main}]
)");
  CHECK(zero.pods.empty());
  CHECK(zero.messages ==
        std::vector<std::string>{"manifest.yaml:5:13: warning: Deployment default/web: "
                                 "spec.replicas: no pods to create; nothing to explain"});
}

TEST_CASE("a CronJob becomes the pods of one run of its Job", "[manifest]") {
  Derived d = derive(R"(apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: batch}
spec:
  schedule: "0 2 * * *"
  jobTemplate:
    spec:
      parallelism: 3
      completions: 2
      template:
        metadata: {labels: {app: report}}
        spec:
          containers: [{name: main}]
)");
  REQUIRE(d.messages.empty());
  CHECK(names(d) == std::vector<std::string>{"batch/nightly-what-if-0", "batch/nightly-what-if-1"});
  const model::Pod& p = pod(d, "batch", "nightly-what-if-0");
  CHECK(p.owners[0].kind == "Job");
  CHECK(p.owners[0].name == "nightly-what-if");
  CHECK(*model::find(p.labels, "app") == "report");
}

TEST_CASE("a CronJob whose Jobs Kueue manages is the Workload of its next Job", "[manifest]") {
  // The shape of Kueue's "Run a CronJob" example: the queue label on the Job template.
  Derived d = derive(R"(apiVersion: batch/v1
kind: CronJob
metadata:
  name: sample-cronjob
  namespace: default
  labels: {app: nightly}
spec:
  schedule: "* * * * *"
  jobTemplate:
    metadata:
      labels:
        kueue.x-k8s.io/queue-name: user-queue
    spec:
      parallelism: 3
      completions: 3
      suspend: true
      template:
        spec:
          priorityClassName: nightly
          containers:
          - name: dummy-job
            image: registry.k8s.io/e2e-test-images/agnhost:2.53
            args: ["pause"]
            resources:
              requests: {cpu: "1", memory: "200Mi"}
          restartPolicy: Never
)");
  CHECK(d.pods.empty());
  const auto& workloads = d.snapshot.kueue().workloads;
  REQUIRE(workloads.size() == 1);
  const model::Workload& w = workloads[0];
  CHECK(w.name == "job-sample-cronjob-what-if");
  CHECK(w.queue_name == "user-queue");
  CHECK(w.pod_sets.at(0).count == 3);
  CHECK(w.priority_class_name == "nightly");
  REQUIRE(w.derived_from);
  CHECK(w.derived_from->kind == "CronJob");
  CHECK(w.derived_from->name == "sample-cronjob");
  // The PriorityClass is not in this input: the build says so, as for any Job.
  CHECK(d.messages.size() <= 1);
}

TEST_CASE("a Job labelled with a Kueue queue stays a Workload what-if", "[manifest]") {
  Derived d = derive(R"(apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: ml
  labels: {kueue.x-k8s.io/queue-name: team-a}
spec:
  parallelism: 2
  template:
    spec:
      containers: [{name: main}]
)");
  REQUIRE(d.messages.empty());
  CHECK(d.pods.empty());
  const auto& workloads = d.snapshot.kueue().workloads;
  REQUIRE(workloads.size() == 1);
  CHECK(workloads[0].name == "job-train");
  CHECK(workloads[0].pod_sets[0].count == 2);
}

TEST_CASE("in a cluster dump controllers are skipped, not derived; a Job's accounting is read",
          "[manifest]") {
  auto loaded = testing::load_text(std::string(k_deployment) + R"(---
apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  template:
    spec:
      containers: [{name: main}]
)");
  REQUIRE(loaded.messages.empty());
  CHECK(loaded.pods.empty());
  CHECK(loaded.snapshot.pods().empty());
  CHECK(loaded.snapshot.skipped_kinds() == model::StringMap{{"Deployment", "1"}});
  REQUIRE(loaded.snapshot.jobs().size() == 1);
  CHECK(loaded.snapshot.jobs()[0].backoff_limit == 6);
}

TEST_CASE("a Job's backoff limits and pod failure policy are read as the API server has them",
          "[manifest]") {
  auto loaded = testing::load_text(R"(apiVersion: batch/v1
kind: Job
metadata: {name: sweep, namespace: ml}
spec:
  backoffLimitPerIndex: 2
  maxFailedIndexes: 1
  completionMode: Indexed
  podFailurePolicy:
    rules:
    - action: Count
      onExitCodes: {operator: In, values: [42]}
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget}]
  template:
    spec:
      containers: [{name: main}]
status: {failed: 3}
)");
  REQUIRE(loaded.messages.empty());
  REQUIRE(loaded.snapshot.jobs().size() == 1);
  const model::Job& j = loaded.snapshot.jobs()[0];
  CHECK(j.backoff_limit == model::k_no_limit);  // MaxInt32 by default with a per-index limit
  CHECK(j.backoff_limit_per_index == 2);
  CHECK(j.max_failed_indexes == 1);
  CHECK(j.failed == 3);
  REQUIRE(j.pod_failure_policy.size() == 2);
  CHECK(j.pod_failure_policy[0].on_exit_codes);
  CHECK(j.pod_failure_policy[1].action == model::PodFailureRule::Action::ignore);
  CHECK(j.pod_failure_policy[1].conditions_true == std::vector<std::string>{"DisruptionTarget"});
}

TEST_CASE("a Job with an unknown pod failure action is refused at its line", "[manifest]") {
  auto loaded = testing::load_text(R"(apiVersion: batch/v1
kind: Job
metadata: {name: bad, namespace: ml}
spec:
  podFailurePolicy:
    rules:
    - action: Retry
      onPodConditions: [{type: DisruptionTarget}]
)");
  REQUIRE(loaded.messages.size() == 1);
  CHECK_THAT(loaded.messages[0], Catch::Contains(":7:"));
  CHECK_THAT(loaded.messages[0],
             Catch::Contains("\"Retry\": must be one of FailJob, FailIndex, Ignore, Count"));
}

TEST_CASE("a bad template field is reported once, at its line, with its full path", "[manifest]") {
  Derived d = derive(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team-a}
spec:
  replicas: 5
  template:
    spec:
      containers:
      - name: main
        resources:
          requests: {cpu: "1.5.0"}
)");
  CHECK(d.pods.empty());
  CHECK(d.messages == std::vector<std::string>{
                          "manifest.yaml:11:27: error: Deployment team-a/web: "
                          "spec.template.spec.containers[0].resources.requests.cpu: \"1.5.0\" "
                          "is not a quantity"});
}

TEST_CASE("a controller without a pod template is refused", "[manifest]") {
  Derived d = derive(
      "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n"
      "  replicas: 1\n");
  CHECK(d.messages == std::vector<std::string>{"manifest.yaml:5:3: error: StatefulSet default/db: "
                                               "spec.template: required field is missing"});
}

TEST_CASE("more than 10000 derived pods from one manifest is an input error", "[manifest]") {
  auto deployment = [](int replicas) {
    return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: big}\nspec:\n  replicas: " +
           std::to_string(replicas) + "\n  template:\n    spec:\n      containers: [{name: m}]\n";
  };
  Derived over = derive(deployment(10001));
  CHECK(over.pods.empty());
  CHECK(over.messages == std::vector<std::string>{
                             "manifest.yaml:5:13: error: Deployment default/big: spec.replicas: "
                             "would create 10001 pods; at most 10000 are derived from one "
                             "manifest"});
  Derived at_limit = derive(deployment(10000));
  CHECK(at_limit.messages.empty());
  CHECK(at_limit.pods.size() == 10000);
  CHECK(at_limit.pods.back().name == "big-what-if-9999");
}

TEST_CASE("a negative replica count is refused", "[manifest]") {
  Derived d = derive(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: -1
  template:
    spec:
      containers: [{name: main}]
)");
  CHECK(d.messages == std::vector<std::string>{"manifest.yaml:5:13: error: Deployment "
                                               "default/web: spec.replicas: must be greater than "
                                               "or equal to 0"});
}

TEST_CASE("pods and controllers in one file are what-if pods in input order", "[manifest]") {
  Derived d = derive(R"(apiVersion: v1
kind: Pod
metadata: {name: solo}
spec:
  containers: [{name: main}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: main}]
)");
  REQUIRE(d.messages.empty());
  CHECK(names(d) == std::vector<std::string>{"default/solo", "default/db-0", "default/db-1"});
}

// Kueue's StatefulSet and Deployment integrations, on manifests shaped after Kueue's site
// examples.
std::string kueue_fixture(const std::string& name) {
  std::ifstream in(std::string(KPREEMPT_TESTDATA) + "/load/kueue-jobs/" + name, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST_CASE("a queue-labelled StatefulSet is one pod group: a single Workload of its replicas",
          "[load][kueue][kinds]") {
  const std::string classes =
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\n"
      "value: 10\n---\n";
  Derived d = derive(classes + kueue_fixture("statefulset.yaml"));
  REQUIRE(d.messages.empty());
  REQUIRE(d.snapshot.kueue().workloads.size() == 1);
  const model::Workload& w = d.snapshot.kueue().workloads[0];
  CHECK(w.name == "statefulset-nginx-statefulset");
  CHECK(w.queue_name == "user-queue");
  REQUIRE(w.pod_sets.size() == 1);
  CHECK(w.pod_sets[0].count == 3);
  CHECK(w.priority == 10);
  CHECK(d.snapshot.pods().empty());
}

TEST_CASE("a queue-labelled Deployment's pods carry the queue: each is a one-pod Workload",
          "[load][kueue][kinds]") {
  Derived d = derive(kueue_fixture("deployment.yaml"));
  REQUIRE(d.messages.empty());
  REQUIRE(d.snapshot.pods().size() == 2);
  for (const model::Pod& p : d.snapshot.pods()) {
    const std::string* queue = model::find(p.labels, model::k_kueue_queue_label);
    REQUIRE(queue != nullptr);
    CHECK(*queue == "user-queue");
  }
  CHECK(d.snapshot.kueue().workloads.empty());
}

}  // namespace kpreempt::load
