// SPDX-License-Identifier: Apache-2.0
// The controllers' side of a cascade: which victims come back, and how a Job counts the ones
// it loses (kubernetes/kubernetes pkg/controller/job, release-1.35: job_controller.go
// exceedsBackoffLimit and deleteActivePods, pod_failure_policy.go matchPodFailurePolicy,
// indexed_job_utils.go isIndexFailed and getIndexFailureCount).
#include "cascade_owners.h"

#include "kpreempt/model/daemon_set.h"
#include "kpreempt/model/yunikorn.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace kpreempt::scenario {
namespace {

constexpr std::string_view k_completion_index = "batch.kubernetes.io/job-completion-index";
constexpr std::string_view k_index_failures = "batch.kubernetes.io/job-index-failure-count";

bool recreates(const std::string& kind) {
  return kind == "ReplicaSet" || kind == "StatefulSet" || kind == "DaemonSet" || kind == "Job";
}

std::int64_t number_or_zero(const std::string* text) {
  std::int64_t v = 0;
  if (text != nullptr) {
    std::from_chars(text->data(), text->data() + text->size(), v);
  }
  return v;
}

// The pod's completion index: a label since release 1.28, an annotation before.
std::string completion_index(const model::Pod& pod) {
  const std::string* v = model::find(pod.labels, k_completion_index);
  if (v == nullptr) {
    v = model::find(pod.annotations, k_completion_index);
  }
  return v != nullptr ? *v : "";
}

// The first podFailurePolicy rule an evicted pod matches (matchPodFailurePolicy), or nullptr:
// an onExitCodes rule is taken not to match, the killed container's exit code being unknown.
const model::PodFailureRule* matching_rule(const model::Job& job, bool disruption_target,
                                           std::size_t& index) {
  for (index = 0; index < job.pod_failure_policy.size(); ++index) {
    const model::PodFailureRule& rule = job.pod_failure_policy[index];
    const auto& c = rule.conditions_true;
    if (!rule.on_exit_codes && disruption_target &&
        std::find(c.begin(), c.end(), "DisruptionTarget") != c.end()) {
      return &rule;
    }
  }
  return nullptr;
}

// YuniKorn places a recreated pod in the application it names, which asks again.
std::string resubmitted(const model::Pod& pod) {
  return model::yk_pod(pod)
             ? fmt::format("; YuniKorn application {} asks again", model::yk_application_id(pod))
             : "";
}

}  // namespace

std::string ref_text(const model::ObjectRef& r) {
  const std::string name = r.namespace_.empty() ? r.name : r.namespace_ + "/" + r.name;
  return r.kind == "Pod" ? name : r.kind + " " + name;
}

// The Job controller sees a round's failures of one Job together: when they fail the Job,
// none of them comes back, so every fate is known before any pod is made again.
void Owners::bring_back(model::Snapshot& snap, model::SnapshotEdit& edit, model::Instant now,
                        const std::vector<Eviction>& evicted, render::CascadeRound& r) {
  struct Victim {
    model::PodId id = 0;
    std::string name, job;  // job: "ns/name" of a Job owner, else empty
    Fate fate;
  };
  std::vector<Victim> victims;
  for (const Eviction& e : evicted) {
    const std::string name = ref_text(e.victim);
    if (e.victim.kind == "Workload") {
      // Kueue requeues a Workload evicted by preemption at once: waitForPodsReady's
      // requeuingStrategy (backoff, backoffLimitCount) is for PodsReady timeouts only.
      r.recreated.push_back(name + " (requeued)");
      continue;
    }
    const auto id = snap.find_pod(e.victim.namespace_, e.victim.name);
    if (!id || !snap.pods()[*id].terminal()) {
      continue;
    }
    const model::Pod& pod = snap.pods()[*id];
    const model::OwnerReference* owner = model::controller_of(pod);
    if (owner == nullptr || !recreates(owner->kind)) {
      r.gone.push_back(owner == nullptr ? name + " (no controller)"
                                        : fmt::format("{} ({} {} not modelled)", name, owner->kind,
                                                      owner->name));
      continue;
    }
    Victim v{*id, name, "", {true, owner->kind + " " + owner->name}};
    if (owner->kind == "Job") {
      v.job = pod.namespace_ + "/" + owner->name;
      v.fate = job_fate(snap, pod, owner->name, e);
    } else if (owner->kind == "DaemonSet") {
      v.fate.text += ", for node " + model::daemon_target_node(pod);
    }
    victims.push_back(std::move(v));
  }
  for (Victim& v : victims) {
    const JobState* job = v.job.empty() ? nullptr : &m_jobs.at(v.job);
    if (v.fate.again && job != nullptr && job->failed_job) {
      v.fate = {false, fmt::format("{} failed: {}", v.fate.text.substr(0, v.fate.text.find(';')),
                                   job->why_failed)};
    }
    if (!v.fate.again) {
      r.gone.push_back(fmt::format("{} ({})", v.name, v.fate.text));
      continue;
    }
    v.fate.text += resubmitted(snap.pods()[v.id]);
    edit.repend(v.id, now);
    r.recreated.push_back(fmt::format("{} ({})", v.name, v.fate.text));
  }
  for (const Victim& v : victims) {
    if (v.fate.job_failed) {
      fail_job(snap, edit, snap.pods()[v.id], r);
    }
  }
}

Owners::Fate Owners::job_fate(const model::Snapshot& snap, const model::Pod& pod,
                              const std::string& job_name, const Eviction& e) {
  const std::string by = "Job " + job_name;
  const model::Job* job = snap.find_job(pod.namespace_, job_name);
  const auto [it, first] = m_jobs.try_emplace(pod.namespace_ + "/" + job_name);
  JobState& s = it->second;
  if (first && job != nullptr) {
    s.failed = job->failed;
  }
  if (job != nullptr && job->finished) {
    return {false, by + " has finished"};
  }
  if (s.failed_job) {
    return {false, by + " failed: " + s.why_failed};
  }
  std::size_t index = 0;
  const model::PodFailureRule* rule =
      job == nullptr ? nullptr : matching_rule(*job, e.disruption_target, index);
  const std::string rule_text =
      rule == nullptr ? ""
                      : fmt::format("podFailurePolicy rule {}: {} on DisruptionTarget", index + 1,
                                    model::to_string(rule->action));
  using Action = model::PodFailureRule::Action;
  if (rule != nullptr && rule->action == Action::ignore) {
    return {true, by + "; " + rule_text + ", not counted"};
  }
  if (rule != nullptr && rule->action == Action::fail_job) {
    s.failed_job = true;
    s.why_failed = rule_text;
    return {false, by + " failed: " + rule_text, true};
  }
  ++s.failed;
  const bool fail_index = rule != nullptr && rule->action == Action::fail_index;
  Fate fate = job != nullptr && job->backoff_limit_per_index >= 0
                  ? index_failure(*job, s, pod, by, fail_index ? rule_text : "")
                  : count_failure(job, s, by);
  fate.job_failed = s.failed_job;
  return fate;
}

// backoffLimitPerIndex: the index fails once its failures pass the limit, or at once by a
// FailIndex rule; the Job fails once more indexes fail than maxFailedIndexes allows.
Owners::Fate Owners::index_failure(const model::Job& job, JobState& s, const model::Pod& pod,
                                   const std::string& by, const std::string& fail_index_rule) {
  const std::string index = completion_index(pod);
  const auto [it, first] = s.index_failures.try_emplace(index);
  if (first) {  // the failures of the index before this pod, as its annotation counts them
    it->second = number_or_zero(model::find(pod.annotations, k_index_failures));
  }
  ++it->second;
  if (fail_index_rule.empty() && it->second <= job.backoff_limit_per_index) {
    return {true, fmt::format("{}; index {}: {} of {} failures per index", by, index, it->second,
                              job.backoff_limit_per_index)};
  }
  s.failed_indexes.insert(index);
  if (job.max_failed_indexes >= 0 &&
      static_cast<std::int64_t>(s.failed_indexes.size()) > job.max_failed_indexes) {
    s.failed_job = true;
    s.why_failed = fmt::format("more than maxFailedIndexes {}", job.max_failed_indexes);
  }
  return {false, fail_index_rule.empty()
                     ? fmt::format("{}: index {} past backoffLimitPerIndex {}", by, index,
                                   job.backoff_limit_per_index)
                     : fmt::format("{}: index {} failed by {}", by, index, fail_index_rule)};
}

Owners::Fate Owners::count_failure(const model::Job* job, JobState& s, const std::string& by) {
  const std::int64_t limit = job != nullptr ? job->backoff_limit : m_backoff_limit;
  const std::string assumed =
      job != nullptr ? "" : fmt::format(", not in the dump: backoffLimit {} assumed", limit);
  if (limit >= 0 && s.failed > limit) {
    s.failed_job = true;
    s.why_failed = fmt::format("past backoffLimit {}", limit);
    return {false, fmt::format("{} past backoffLimit {}{}", by, limit, assumed)};
  }
  return {true,
          limit >= 0 ? fmt::format("{}; {} of {} failures{}", by, s.failed, limit, assumed) : by};
}

// A failed Job's controller deletes its pods still running or pending (deleteActivePods).
void Owners::fail_job(model::Snapshot& snap, model::SnapshotEdit& edit, const model::Pod& pod,
                      render::CascadeRound& r) {
  const std::string job_name = model::controller_of(pod)->name;
  for (model::PodId id = 0; id < snap.pods().size(); ++id) {
    const model::Pod& p = snap.pods()[id];
    const model::OwnerReference* o = model::controller_of(p);
    if (&p == &pod || p.terminal() || p.namespace_ != pod.namespace_ || o == nullptr ||
        o->kind != "Job" || o->name != job_name) {
      continue;
    }
    edit.remove(id);
    r.gone.push_back(fmt::format("{}/{} (Job {} failed: its controller deletes the pod)",
                                 p.namespace_, p.name, job_name));
  }
}

}  // namespace kpreempt::scenario
