// SPDX-License-Identifier: Apache-2.0
// Quota preemption in a Decision, kept apart from the pending pod's answer: by default one
// warning naming the queues it may empty; with YuniKorn.quotaPreemption=assume-fired a table per
// queue and details.quotaPreemption with what each run would evict (quota_preemptor.go, v1.8.0).
// Never Decision::victims: those are the pending pod's.
#include "policy/yunikorn/quota.h"
#include "policy/yunikorn/report.h"

#include "kpreempt/diag.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kpreempt::policy::yunikorn {
namespace {

using Json = nlohmann::ordered_json;

std::string code_text(Code code, const std::string& fired) {
  return info(code).subject == SubjectKind::queue ? fmt::format("{}:{}", name(code), fired)
                                                  : std::string(name(code));
}

Json res_json(const Res& r) {
  Json out = Json::object();
  for (const auto& [k, v] : r) {
    out[k] = v;
  }
  return out;
}

Json ores_json(const std::optional<Res>& r) {
  return r ? res_json(*r) : Json(nullptr);
}

std::string pod_name(const Cluster& c, model::PodId id) {
  const model::Pod& pod = c.snap.pods()[id];
  return pod.namespace_ + "/" + pod.name;
}

std::string flags(const YkPod& p) {
  return std::string(p.allow_preempt_self ? "" : " [opted-out]") +
         (p.originator ? " [originator]" : "");
}

// "root.a (over its max by memory 6Gi; preemption.quota.delay 5m)"
std::string brief(const Cluster& c, const QuotaQueue& q) {
  return fmt::format("{} ({}; preemption.quota.delay {})", c.queues[q.queue].q.path,
                     q.excess.empty() ? "over its max until its terminating pods leave"
                                      : "over its max by " + to_string(q.excess),
                     q.delay);
}

// "default/a, default/b": at most a handful, then how many more.
std::string victim_names(const Cluster& c, const QuotaQueue& q) {
  constexpr std::size_t k_named = 5;
  std::vector<std::string> names;
  std::size_t more = 0;
  for (const QuotaLeaf& leaf : q.leaves) {
    for (model::PodId id : leaf.victims) {
      if (names.size() < k_named) {
        names.push_back(pod_name(c, id));
      } else {
        ++more;
      }
    }
  }
  if (names.empty()) {
    return "nothing";
  }
  return fmt::format("{}{}", fmt::join(names, ", "),
                     more == 0 ? std::string() : fmt::format(" and {} more", more));
}

void add_note(const Cluster& c, const std::vector<QuotaQueue>& queues, Decision& d) {
  if (queues.empty()) {
    return;
  }
  std::vector<std::string> parts;
  for (const QuotaQueue& q : queues) {
    parts.push_back(brief(c, q));
  }
  d.warnings.push_back(fmt::format(
      "quota preemption may evict pods of {} {} once the delay has passed after a config reload "
      "that lowered the max, which a dump cannot show; --set {}=assume-fired lists them",
      queues.size() == 1 ? "queue" : "queues", fmt::join(parts, ", "), k_quota_preemption_key));
}

std::string title(const Cluster& c, const QuotaQueue& q) {
  return fmt::format(
      "if quota preemption fires for {}: uses {} against its max {}, {}; would evict {} "
      "(timer: preemption.quota.delay {} after a config reload kpreempt cannot see{})",
      c.queues[q.queue].q.path, to_string(q.used), to_string(q.max),
      q.excess.empty() ? "within it once its terminating pods leave"
                       : "over by " + to_string(q.excess),
      victim_names(c, q), q.delay,
      q.pending_ask ? ""
                    : "; checked only in a cycle with a pending ask at or below it, and the dump "
                      "has none");
}

void leaf_rows(const Cluster& c, const QuotaQueue& q, const QuotaLeaf& leaf, Table& t) {
  const std::string& fired = c.queues[q.queue].q.path;
  const std::string& path = c.queues[leaf.queue].q.path;
  if (leaf.base) {
    const bool guaranteed = !empty(c.queues[leaf.queue].q.guaranteed);
    t.rows.push_back(
        {path, "-", "-", "-", "share",
         fmt::format("{} of the excess of {}, weighed by its {} {}", to_string(leaf.excess), fired,
                     guaranteed ? "|guarantee - usage|" : "usage", to_string(*leaf.base))});
  }
  if (leaf.pods.empty()) {
    t.rows.push_back({path, "-", "-", "-", "nothing",
                      zero_valued(leaf.excess) ? "nothing to free" : "no pod runs in it"});
  }
  for (const QuotaPod& p : leaf.pods) {
    const YkPod& yp = c.pods[p.pod];
    t.rows.push_back({path, pod_name(c, p.pod), c.snap.pods()[p.pod].node_name,
                      std::to_string(yp.priority), code_text(p.code, fired), p.detail + flags(yp)});
  }
  for (const std::vector<model::PodId>& tie : leaf.ties) {
    std::vector<std::string> names;
    for (model::PodId id : tie) {
      names.push_back(pod_name(c, id));
    }
    t.rows.push_back({path, "-", "-", "-", "tie",
                      fmt::format("{}: upstream orders these by Go map order, so it may take "
                                  "others among them",
                                  fmt::join(names, ", "))});
  }
}

Json pod_json(const Cluster& c, model::PodId id) {
  const model::Pod& pod = c.snap.pods()[id];
  return {{"kind", "Pod"},
          {"namespace", pod.namespace_},
          {"name", pod.name},
          {"node", pod.node_name},
          {"priority", c.pods[id].priority}};
}

Json leaf_json(const Cluster& c, const QuotaQueue& q, const QuotaLeaf& leaf) {
  const std::string& fired = c.queues[q.queue].q.path;
  const model::YkQueue& yq = c.queues[leaf.queue].q;
  Json victims = Json::array();
  for (model::PodId id : leaf.victims) {
    Json v = pod_json(c, id);
    v["reason"] = code_text(Code::quota_preemption, fired);
    v["queue"] = yq.path;
    v["application"] = c.pods[id].app;
    victims.push_back(std::move(v));
  }
  Json pods = Json::array();
  for (const QuotaPod& p : leaf.pods) {
    Json j = pod_json(c, p.pod);
    j["code"] = code_text(p.code, fired);
    j["detail"] = p.detail + flags(c.pods[p.pod]);
    pods.push_back(std::move(j));
  }
  Json ties = Json::array();
  for (const std::vector<model::PodId>& tie : leaf.ties) {
    Json names = Json::array();
    for (model::PodId id : tie) {
      names.push_back(pod_name(c, id));
    }
    ties.push_back(std::move(names));
  }
  return {{"queue", yq.path},
          {"excess", res_json(leaf.excess)},
          {"base", ores_json(leaf.base)},
          {"guaranteed", ores_json(yq.guaranteed)},
          {"victims", std::move(victims)},
          {"pods", std::move(pods)},
          {"ties", std::move(ties)}};
}

Json queue_json(const Cluster& c, const QuotaQueue& q) {
  Json reasons = Json::array({name(Code::would_fire_if_reduced)});
  if (!q.pending_ask) {
    reasons.push_back(name(Code::no_pending_ask));
  }
  Json leaves = Json::array();
  for (const QuotaLeaf& leaf : q.leaves) {
    leaves.push_back(leaf_json(c, q, leaf));
  }
  return {{"queue", c.queues[q.queue].q.path},
          {"leaf", c.queues[q.queue].q.leaf},
          {"delay", q.delay},
          {"max", res_json(q.max)},
          {"used", res_json(q.used)},
          {"preempting", res_json(q.preempting)},
          {"excess", res_json(q.excess)},
          {"pendingAsk", q.pending_ask},
          {"reasons", std::move(reasons)},
          {"leaves", std::move(leaves)}};
}

// Why there is nothing to show, when asked.
std::string nothing_reason(const Cluster& c) {
  if (!c.rules.quota_preemption) {
    return "yunikorn-core v1.7 has no quota preemption (it is new in v1.8), so " +
           std::string(k_quota_preemption_key) + "=assume-fired shows nothing on that line";
  }
  if (!c.quota_preemption_enabled) {
    return "quota preemption is off: the partition does not set "
           "preemption.quotapreemptionenabled: true";
  }
  return "quota preemption has nothing to enforce: no managed queue with a "
         "preemption.quota.delay uses more than its max";
}

void add_assumed(const Cluster& c, const std::vector<QuotaQueue>& queues, Decision& d) {
  Json list = Json::array();
  for (const QuotaQueue& q : queues) {
    Table t{.title = title(c, q),
            .columns = {"QUEUE", "POD", "NODE", "PRIORITY", "RESULT", "DETAIL"},
            .rows = {}};
    for (const QuotaLeaf& leaf : q.leaves) {
      leaf_rows(c, q, leaf, t);
    }
    d.tables.push_back(std::move(t));
    list.push_back(queue_json(c, q));
  }
  if (queues.empty()) {
    d.warnings.push_back(nothing_reason(c));
  }
  d.details["quotaPreemption"] = {
      {"assumeFired", true},
      {"timer",
       "unknown: it starts at a config reload that lowered a max, which a dump cannot "
       "show"},
      {"queues", std::move(list)}};
}

}  // namespace

QuotaView quota_view(const Args& args) {
  const std::string* v = args.find(k_quota_preemption_key);
  if (v == nullptr || *v == "note") {
    return QuotaView::note;
  }
  if (*v == "assume-fired") {
    return QuotaView::assume_fired;
  }
  throw UsageError(
      fmt::format("{}: \"{}\" is not one of note, assume-fired", k_quota_preemption_key, *v));
}

void add_quota_preemption(const Cluster& c, QuotaView view, Decision& d) {
  const std::vector<QuotaQueue> queues = quota_preemption(c, view == QuotaView::assume_fired);
  if (view == QuotaView::note) {
    add_note(c, queues, d);
  } else {
    add_assumed(c, queues, d);
  }
}

}  // namespace kpreempt::policy::yunikorn
