// SPDX-License-Identifier: Apache-2.0
// What a run read and found, in the words every format shares: which objects count as linted,
// the gate, and the summary line printed to stderr after every run.
#include "lint/node.h"

#include "kpreempt/lint/lint.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::lint {
namespace {

std::string group_of(const std::string& api_version) {
  std::size_t slash = api_version.find('/');
  return slash == std::string::npos ? "" : api_version.substr(0, slash);
}

// Kinds the PC, PT and YK rules read: classes and everything carrying a pod spec.
bool read_by_priorityclasses(const std::string& group, const std::string& kind) {
  static constexpr std::string_view k_controllers[] = {"Deployment", "StatefulSet", "DaemonSet",
                                                       "ReplicaSet"};
  return (group == "scheduling.k8s.io" && (kind == "PriorityClass" || kind == "Workload")) ||
         (group.empty() && kind == "Pod") ||
         (group == "apps" && std::find(std::begin(k_controllers), std::end(k_controllers), kind) !=
                                 std::end(k_controllers)) ||
         (group == "batch" && (kind == "Job" || kind == "CronJob"));
}

// Kinds the KQ, YQ and EQ rules read.
bool read_by_queues(const load::ScannedObject& o, const std::string& group) {
  if (group == "kueue.x-k8s.io" || o.kind == "ElasticQuota" || o.kind == "queues.yaml" ||
      (group.empty() && o.kind == "Node") ||
      (group == "scheduling.k8s.io" && o.kind == "PriorityClass")) {
    return true;
  }
  std::string_view name = Node(o.tree.get(), 0)["metadata"]["name"].text();
  return group.empty() && o.kind == "ConfigMap" &&
         (name == "yunikorn-configs" || name == "yunikorn-defaults");
}

std::string plural(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

}  // namespace

bool read_by(const load::ScannedObject& o, const std::vector<Group>& groups) {
  std::string group = group_of(o.api_version);
  for (Group g : groups) {
    bool reads = g == Group::priorityclasses ? read_by_priorityclasses(group, o.kind)
                                             : read_by_queues(o, group);
    if (reads) {
      return true;
    }
  }
  return false;
}

bool gate_fails(const Result& r) {
  return r.fail_on && std::any_of(r.findings.begin(), r.findings.end(),
                                  [&](const Finding& f) { return f.severity >= *r.fail_on; });
}

std::string summary_line(const Result& r) {
  std::size_t counts[3] = {0, 0, 0};
  for (const Finding& f : r.findings) {
    ++counts[static_cast<int>(f.severity)];
  }
  std::string line =
      fmt::format("linted {} from {}: {}", plural(r.summary.objects, "object"),
                  plural(r.summary.files, "file"), plural(r.findings.size(), "finding"));
  if (!r.findings.empty()) {
    line += fmt::format(" ({} error{}, {} warning{}, {} info)", counts[2],
                        counts[2] == 1 ? "" : "s", counts[1], counts[1] == 1 ? "" : "s", counts[0]);
  }
  if (!r.summary.unreadable.empty()) {
    line += fmt::format("; {} not readable", plural(r.summary.unreadable.size(), "file"));
  }
  if (!r.summary.skipped.empty()) {
    line += fmt::format("; {} skipped", plural(r.summary.skipped.size(), "file"));
  }
  if (r.summary.other_objects > 0) {
    line += fmt::format("; {} of other kinds ignored", plural(r.summary.other_objects, "object"));
  }
  return line;
}

}  // namespace kpreempt::lint
