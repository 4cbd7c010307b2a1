// SPDX-License-Identifier: Apache-2.0
// The rule catalogue: the only list of rules. Ids are stable and never reused; a withdrawn
// rule keeps its id reserved here as a comment.
#include "lint/checks.h"

#include <algorithm>

namespace kpreempt::lint {
namespace {

constexpr Level E = Level::error;
constexpr Level W = Level::warning;
constexpr Level I = Level::info;

const std::vector<Rule> k_rules = {
    {"PC001", "value-above-user-max", E, "Non-system class value is above 1,000,000,000",
     "Values above 1000000000 are reserved for the built-in critical classes; the API server "
     "refuses the class and everything naming it then fails admission. Lower the value.",
     check_pc001},
    {"PC002", "reserved-system-prefix", E, "Name starts with system- but is not a built-in class",
     "The system- prefix is reserved for system-cluster-critical and system-node-critical; the "
     "API server rejects any other name with it. Rename the class.",
     check_pc002},
    {"PC003", "builtin-mismatch", E,
     "Built-in class declared with a different value or globalDefault: true",
     "The built-ins are created by the API server with fixed values (2000000000 and 2000001000) "
     "and cannot be replaced or made the default. Remove the declaration or make it identical.",
     check_pc003},
    {"PC004", "invalid-preemption-policy", E,
     "preemptionPolicy is not PreemptLowerPriority or Never",
     "Validation accepts exactly PreemptLowerPriority or Never (case-sensitive). Omit the field "
     "for PreemptLowerPriority.",
     check_pc004},
    {"PC005", "multiple-global-default", E, "More than one class has globalDefault: true",
     "The Priority admission plugin refuses a second default; where two exist anyway, pods "
     "without a class silently get the lowest default value. Keep one default.",
     check_pc005},
    {"PC006", "invalid-name", E, "Class name is not a lowercase DNS subdomain",
     "Object names must be DNS-1123 subdomains; a mixed-case priorityClassName can never "
     "resolve. Use lowercase letters, digits, '-' and '.'.",
     check_pc006},
    {"PC007", "invalid-value", E, "value missing, not an integer, quoted, or outside int32",
     "value is a required 32-bit integer. A string or float fails decoding; a class without "
     "value is stored with 0, the priority of pods without any class.",
     check_pc007},
    {"PC008", "immutable-change", E, "value or preemptionPolicy differs from the baseline",
     "Both fields are immutable: the update is refused. Delete and recreate the class, knowing "
     "that pods admitted earlier keep their old priority.",
     check_pc008},
    {"PC009", "removed-api-version", E, "Class uses scheduling.k8s.io/v1alpha1 or v1beta1",
     "v1alpha1 is not served since 1.17 and v1beta1 since 1.22; the apply fails with \"no "
     "matches for kind\". Use scheduling.k8s.io/v1. Built-in classes in a dump of an old "
     "cluster are not reported: the API server creates them.",
     check_pc009},
    {"PC010", "unknown-class-reference", E,
     "A pod, template or Workload names a class that does not exist",
     "Admission refuses pods naming a missing class; controllers only show FailedCreate events. "
     "For running pods (warning) the class was deleted after admission.",
     check_pc010},
    {"PC011", "pod-priority-override", E,
     "Pod or template sets priority/preemptionPolicy that disagrees with its class",
     "Priority and preemption policy always come from the class; admission refuses a differing "
     "value. Remove spec.priority and spec.preemptionPolicy from manifests.",
     check_pc011},
    {"PC012", "critical-class-outside-kube-system", W, "system-*-critical used outside kube-system",
     "These classes outrank every user class, so such pods can preempt any workload; many "
     "clusters cap them with a ResourceQuota outside kube-system.",
     check_pc012},
    {"PC013", "global-default-never", W, "Default class has preemptionPolicy: Never",
     "Every pod created without a class inherits Never and can never preempt.", check_pc013},
    {"PC014", "same-value-different-policy", I,
     "Two classes share a value but differ in preemptionPolicy",
     "Equal priority means neither can preempt the other. The Kubernetes documentation's "
     "non-preempting class uses the value of its preempting twin on purpose (its pods queue as "
     "high but never evict), so this is information: lower the Never class's value only if it "
     "was meant to rank below the other.",
     check_pc014},
    {"PC015", "default-switch", W, "Default class added, removed or moved relative to the baseline",
     "Admission gives a pod without a class the value of the globalDefault class (the lowest "
     "one when several exist, 0 when none does), and only when the pod is created: running pods "
     "keep the old priority until they are recreated, so identical pods run at different "
     "priorities for a while.",
     check_pc015},
    {"PC016", "duplicate-value", I, "Two classes share a value and policy",
     "The classes are aliases: no ordering and no preemption between them. The same class "
     "declared twice is not an alias (see PC019).",
     check_pc016},
    {"PC017", "expendable-for-autoscaler", I,
     "Class value is below the autoscaler expendable cutoff",
     "Pods below the cluster-autoscaler cutoff never trigger a scale-up and do not keep a node "
     "from being removed (--autoscaler-cutoff, default -10).",
     check_pc017},
    {"PC018", "unused-class", I,
     "No pod, template or Workload uses the class and it is not the default",
     "Dead classes still constrain the value space and confuse readers of the tiering. "
     "Built-in classes are never reported: every cluster has them.",
     check_pc018},
    {"PC019", "conflicting-declarations", E,
     "The same class is declared twice with a different value, policy or globalDefault",
     "Applying the inputs creates the class from whichever file comes first and refuses the "
     "other (value and preemptionPolicy are immutable), so the result depends on apply order.",
     check_pc019},
    {"PC020", "class-references-unchecked", I,
     "Pods name PriorityClasses but the inputs define none",
     "PC010 checks names against the classes in the inputs and the baseline. Without any it "
     "cannot: pass the cluster's classes with --baseline so a misspelled name fails the run.",
     check_pc020},
    {"PT001", "unparsable-minimum", E, "minimum-preemptable-priority is not a base-10 int32",
     "The plugin fails to parse it and applies no toleration at all for the class.", check_pt001,
     "toleration"},
    {"PT002", "unusable-toleration-seconds", E,
     "toleration-seconds is not a base-10 int64, or overflows the duration",
     "A parse error cancels the class's toleration; values above 9223372036 overflow when "
     "converted to nanoseconds.",
     check_pt002, "toleration"},
    {"PT003", "legacy-or-unknown-key", W,
     "Old scheduling.sigs.k8s.io prefix, misspelled key, or metadata.annotation",
     "Current releases read only preemption-toleration.scheduling.x-k8s.io/"
     "minimum-preemptable-priority and .../toleration-seconds under metadata.annotations.",
     check_pt003, "toleration"},
    {"PT004", "minimum-not-above-default", W, "Minimum is at or below class value + 1",
     "Every pod able to preempt the class already has at least value + 1, so the annotation "
     "never protects anything.",
     check_pt004, "toleration"},
    {"PT005", "half-configured", W, "Only one of the two annotations takes effect",
     "Without a minimum above value + 1 no preemptor is ever below it; without a non-zero "
     "toleration-seconds the window is zero. Either way nothing is tolerated.",
     check_pt005, "toleration"},
    {"PT006", "unpreemptable-by-users", W, "Minimum above 1,000,000,000",
     "During the window no user workload can preempt these pods, and in the top tier not even "
     "node-critical system pods.",
     check_pt006, "toleration"},
    {"YK001", "allow-preemption-not-canonical", E,
     "yunikorn.apache.org/allow-preemption is neither \"true\" nor \"false\"",
     "YuniKorn only opts out on the exact string \"false\"; an unquoted boolean makes the API "
     "server reject the object.",
     check_yk001, "yunikorn"},
    {"YK002", "default-class-opts-out", W,
     "Default class opts every unlabelled pod out of YuniKorn preemption",
     "Guarantee-restoring preemption is left with almost no candidates and queues below their "
     "guaranteed share stay starved.",
     check_yk002, "yunikorn"},
    {"KQ001", "limit-without-cohort", E,
     "borrowingLimit/lendingLimit on a ClusterQueue without a cohort",
     "Refused at admission: limits only make sense against a cohort.", check_kq001, "kueue"},
    {"KQ002", "lending-above-nominal", E,
     "lendingLimit greater than nominalQuota, or a negative quantity",
     "Refused by the Kueue webhook.", check_kq002, "kueue"},
    {"KQ003", "reclaim-never-borrow-preempts", E,
     "reclaimWithinCohort: Never with borrowWithinCohort.policy not Never",
     "Refused by the CRD rule and the webhook: preempting to borrow while never reclaiming is "
     "inconsistent.",
     check_kq003, "kueue"},
    {"KQ004", "resource-group-shape", E,
     "Flavor resources don't match coveredResources, or duplicates / size limits",
     "Each flavor must list exactly the group's coveredResources in order; resources and flavors "
     "appear once; size limits apply. Refused by the CRD rules and the webhook.",
     check_kq004, "kueue"},
    {"KQ005", "invalid-enum", E, "Unknown value for a Kueue preemption or queueing field",
     "Refused by the CRD schema (values are case-sensitive).", check_kq005, "kueue"},
    {"KQ006", "dangling-reference", W,
     "Missing ResourceFlavor / ClusterQueue / WorkloadPriorityClass, or cohort cycle",
     "A ClusterQueue with a missing flavor is inactive; LocalQueue workloads stay pending; a "
     "missing WorkloadPriorityClass blocks the Workload; a cycle breaks the hierarchy.",
     check_kq006, "kueue"},
    {"KQ007", "nothing-namespace-selector", W, "namespaceSelector omitted: no namespace may submit",
     "An absent selector matches no namespace; {} matches all.", check_kq007, "kueue"},
    {"KQ008", "cohort-policy-without-cohort", I,
     "Cohort preemption settings on a queue that has no cohort peers",
     "Cohort preemption needs peers; the setting is inert and suggests a missing cohort name.",
     check_kq008, "kueue"},
    {"KQ009", "priority-class-shadow", W,
     "WorkloadPriorityClass and PriorityClass share a name but not a value",
     "Kueue orders Workloads by the WorkloadPriorityClass while kube-scheduler preempts their "
     "pods by the PriorityClass, so the layers disagree about who outranks whom.",
     check_kq009, "kueue"},
    {"YQ001", "invalid-policy-value", E,
     "preemption.policy / priority.policy not a known value (silently default)",
     "YuniKorn replaces an unknown value by default: a typo such as fenced removes the fence.",
     check_yq001, "yunikorn"},
    {"YQ002", "invalid-number-or-duration", E,
     "priority.offset or a delay property that YuniKorn cannot parse",
     "The offset silently becomes 0 and the delay falls back to its default. Delays are positive "
     "Go durations such as 30s or 5m.",
     check_yq002, "yunikorn"},
    {"YQ003", "unknown-property-key", W, "Queue properties key YuniKorn does not know",
     "properties is a free-form map: a misspelled key is skipped with a debug log line.",
     check_yq003, "yunikorn"},
    {"YQ004", "resource-hierarchy", E,
     "Guaranteed/max hierarchy or structure that makes YuniKorn reject the config",
     "YuniKorn refuses the whole queues.yaml and keeps the previous configuration.", check_yq004,
     "yunikorn"},
    {"YQ005", "preemption-never-triggers", W,
     "Preemption on, but no queue has guaranteed resources (or the reverse)",
     "Queue-based preemption only acts for a queue below its guaranteed share; with preemption "
     "disabled the preemption properties are inert.",
     check_yq005, "yunikorn"},
    {"EQ001", "min-above-max", E, "ElasticQuota min above max, or negative",
     "min must not exceed max; Koordinator's webhook refuses the object.", check_eq001,
     "capacity,koordinator"},
    {"EQ002", "multiple-per-namespace", E,
     "More than one CapacityScheduling ElasticQuota in a namespace",
     "The plugin keeps whichever quota it saw first and ignores the rest.", check_eq002,
     "capacity"},
    {"EQ003", "min-sum-exceeds-capacity", W, "Sum of min exceeds cluster allocatable",
     "Guarantees above the cluster's capacity cannot all be honoured; preemption outcomes then "
     "depend on arrival order.",
     check_eq003, "capacity,koordinator"},
    {"EQ004", "koordinator-tree", E,
     "Broken Koordinator quota tree (parent, keys, min sums, duplicate names)",
     "Koordinator's webhook refuses such quotas, so the tree is not what the manifests describe.",
     check_eq004, "koordinator"},
    {"EQ005", "old-api-group", W,
     "CapacityScheduling quota in scheduling.sigs.k8s.io, ignored since scheduler-plugins v0.25",
     "scheduler-plugins moved ElasticQuota to scheduling.x-k8s.io in v0.25.7; Koordinator reads "
     "scheduling.sigs.k8s.io to this day. A quota of the old group is only taken for a "
     "CapacityScheduling one when the run says so: --policy capacity without koordinator, or "
     "scheduling.x-k8s.io objects in the same inputs.",
     check_eq005, "capacity"},
};

}  // namespace

const std::vector<Rule>& rules() {
  return k_rules;
}

const Rule* find_rule(std::string_view id_or_name) {
  for (const Rule& r : k_rules) {
    if (r.id == id_or_name || r.name == id_or_name) {
      return &r;
    }
  }
  return nullptr;
}

Group group_of(const Rule& r) {
  return r.id.starts_with("PC") || r.id.starts_with("PT") || r.id.starts_with("YK")
             ? Group::priorityclasses
             : Group::queues;
}

}  // namespace kpreempt::lint
