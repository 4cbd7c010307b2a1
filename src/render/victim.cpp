// SPDX-License-Identifier: Apache-2.0
// `explain --victim` output: an eviction already under way and the decision that explains it,
// the pending preemptors whose decisions evict one running pod or admitted Workload, and which
// priority levels could evict a pod under each policy.
#include "render/document.h"
#include "render/structured.h"
#include "render/table.h"

#include "kpreempt/diag.h"
#include "kpreempt/render/html.h"

#include <fmt/format.h>

#include <cctype>
#include <ostream>
#include <sstream>

namespace kpreempt::render {
namespace {

using Json = nlohmann::ordered_json;

std::int32_t preemptor_priority(const model::Snapshot& snap, const VictimThreat& t) {
  return t.preemptor == model::k_none ? snap.kueue().workloads[t.workload].priority
                                      : snap.facts(t.preemptor).priority;
}

using policy::Code;
using Kind = policy::LevelVerdict::Kind;

// The stable code of a level verdict, as JSON and -o wide print it.
std::string verdict_code(const policy::LevelVerdict& v) {
  switch (v.kind) {
    case Kind::can_preempt:
      return "can-preempt";
    case Kind::from:
      return "from:" + v.why->subject.front();
    case Kind::no:
      return "no:" + reason_text(*v.why);
    case Kind::error:
      break;
  }
  return reason_text(*v.why);
}

// A verdict that names the rule letting it through says which, before the detail.
std::string verdict_detail(const policy::LevelVerdict& v) {
  return v.kind == Kind::can_preempt && v.why ? reason_text(*v.why) + ": " + v.detail : v.detail;
}

// The table cell for a verdict; the detail says the rest.
std::string short_verdict(const policy::LevelVerdict& v) {
  switch (v.kind) {
    case Kind::can_preempt:
      return "yes";
    case Kind::from:
      return "from " + v.why->subject.front();
    case Kind::error:
      return "no: error";
    case Kind::no:
      break;
  }
  switch (v.why->code) {
    case Code::not_higher_priority:
      return "no: not higher";
    case Code::preemption_policy_never:
      return "no: preemptionPolicy Never";
    case Code::tolerates_not_scheduled:
      return "no: window not started";
    case Code::tolerates_min_preemptable_priority:
      return "no: tolerated";
    default:
      return verdict_code(v);
  }
}

void print_header(const model::Snapshot& snap, const VictimReport& r, std::ostream& out) {
  if (r.victim == model::k_none) {
    const model::Workload& w = snap.kueue().workloads[r.victim_workload];
    std::string klass =
        w.priority_class_name.empty() ? "" : fmt::format(" ({})", w.priority_class_name);
    std::string queue = w.admission_cluster_queue.empty()
                            ? ""
                            : fmt::format("  admitted to {}", w.admission_cluster_queue);
    std::string named =
        w.owner ? fmt::format("  of {} {}/{}", w.owner->kind, w.owner->namespace_, w.owner->name)
                : "";
    out << fmt::format("Workload {}/{}  priority {}{}{}{}\n", w.namespace_, w.name, w.priority,
                       klass, queue, named);
  } else {
    const model::Pod& pod = snap.pods()[r.victim];
    std::string klass =
        pod.priority_class_name.empty() ? "" : fmt::format(" ({})", pod.priority_class_name);
    out << fmt::format("Pod {}/{}  priority {}{}  on {}\n", pod.namespace_, pod.name,
                       snap.facts(r.victim).priority, klass, pod.node_name);
  }
  for (const std::string& note : r.notes) {
    out << "note: " << note << '\n';
  }
}

std::string explainer_name(const model::Snapshot& snap, const Explainer& x) {
  return preemptor_name(snap, x.pod, x.workload);
}

std::int32_t explainer_priority(const model::Snapshot& snap, const Explainer& x) {
  return x.pod == model::k_none ? snap.kueue().workloads[x.workload].priority
                                : snap.facts(x.pod).priority;
}

std::string_view stance_text(Stance s) {
  switch (s) {
    case Stance::lists:
      return "lists it";
    case Stance::waits:
      return "waits for it";
    case Stance::neither:
      break;
  }
  return "neither";
}

// Where the explainer is now, for people: "pending, nominated to n1", "admitted to ...".
std::string state_text(const model::Snapshot& snap, const Explainer& x) {
  if (x.pod != model::k_none) {
    const model::Pod& p = snap.pods()[x.pod];
    if (x.state == Explainer::State::bound) {
      return fmt::format("bound to {}", p.node_name);
    }
    return p.nominated_node_name.empty() ? "pending"
                                         : "pending, nominated to " + p.nominated_node_name;
  }
  const model::Workload& w = snap.kueue().workloads[x.workload];
  switch (x.state) {
    case Explainer::State::admitted:
      return fmt::format("admitted to ClusterQueue {}: it holds quota now",
                         w.admission_cluster_queue);
    case Explainer::State::finished:
      return "finished";
    case Explainer::State::pending:
    case Explainer::State::bound:
      break;
  }
  return "pending";
}

std::string condition_text(const QuotedCondition& c) {
  std::string at = c.at ? " at " + model::to_string(*c.at) : "";
  return printable(
      fmt::format("{} {}: {}{}", c.type, c.status, c.reason.empty() ? "no reason" : c.reason, at));
}

// The preemptors found by time alone, each marked as inferred.
void print_likely(const model::Snapshot& snap, const std::vector<Explainer>& likely,
                  std::ostream& out) {
  if (likely.empty()) {
    return;
  }
  const bool pods = likely.front().pod != model::k_none;
  Table t({"LIKELY PREEMPTOR (INFERRED)", "PRIORITY", pods ? "NODE" : "CLUSTERQUEUE",
           pods ? "STARTED" : "QUOTA RESERVED"});
  for (const Explainer& x : likely) {
    std::string where, when;
    if (pods) {
      const model::Pod& p = snap.pods()[x.pod];
      where = p.node_name;
      when = p.start_time           ? model::to_string(*p.start_time)
             : p.creation_timestamp ? "created " + model::to_string(*p.creation_timestamp)
                                    : "-";
    } else {
      const model::Workload& w = snap.kueue().workloads[x.workload];
      const model::KueueCondition* c = model::find_condition(w, "QuotaReserved");
      where = w.admission_cluster_queue;
      when = c != nullptr && c->last_transition_time ? model::to_string(*c->last_transition_time)
                                                     : "-";
    }
    t.add({explainer_name(snap, x), std::to_string(explainer_priority(snap, x)), where, when});
  }
  t.print(out, 4);
}

// The explanation renderer's text for one explainer, each line indented.
void print_decision_of(const model::Snapshot& snap, const Explainer& x, bool wide,
                       std::ostream& out) {
  std::ostringstream text;
  render_text(snap, {*x.explanation}, wide, Style{}, text);
  out << "\ndecision of " << explainer_name(snap, x) << '\n';
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    out << (line.empty() ? "" : "  ") << line << '\n';
  }
}

void print_under_way(const model::Snapshot& snap, const VictimReport& r, bool wide,
                     std::ostream& out) {
  if (!r.under_way) {
    return;
  }
  const EvictionUnderWay& u = *r.under_way;
  out << "\neviction under way\n";
  if (u.deletion_timestamp) {
    out << "  terminating: deletionTimestamp " << model::to_string(*u.deletion_timestamp) << '\n';
  }
  // A message is quoted once, under the last of the conditions in a row that share it.
  for (std::size_t i = 0; i < u.conditions.size(); ++i) {
    const QuotedCondition& c = u.conditions[i];
    out << "  " << condition_text(c) << '\n';
    const bool shared = i + 1 < u.conditions.size() && u.conditions[i + 1].message == c.message;
    if (!c.message.empty() && !shared) {
      out << "    " << printable(c.message) << '\n';
    }
  }
  for (const Explainer& x : u.explained_by) {
    std::string uid;
    if (x.pod == model::k_none) {
      uid = ", UID " + printable(snap.kueue().workloads[x.workload].uid);
    }
    out << fmt::format("  explained by {} (priority {}{}), {}\n", explainer_name(snap, x),
                       explainer_priority(snap, x), uid, state_text(snap, x));
    if (!x.stances.empty()) {
      Table t({"POLICY", "STANCE", "REASON"});
      for (const PolicyStance& s : x.stances) {
        std::string stance(stance_text(s.stance));
        if (s.stance == Stance::neither) {
          stance += fmt::format(" ({})", policy::to_string(s.outcome));
        }
        t.add({s.policy, stance, s.reason ? reason_text(*s.reason) : "-"});
      }
      t.print(out, 4);
    } else if (x.state == Explainer::State::pending) {
      out << "    no chosen policy explains it\n";
    }
  }
  if (u.explained_by.empty()) {
    const std::string_view nothing = r.victim == model::k_none
                                         ? "no workload of the input explains it"
                                         : "no pending pod explains it";
    out << fmt::format("  {}: {}\n", nothing,
                       printable(fmt::format("{}", fmt::join(u.checked, "; "))));
  }
  if (!u.likely_search.empty()) {
    out << "  " << u.likely_search << (u.likely.empty() ? ": none\n" : ":\n");
    print_likely(snap, u.likely, out);
  }
  for (const Explainer& x : u.explained_by) {
    if (x.explanation && !x.explanation->decisions.empty()) {
      print_decision_of(snap, x, wide, out);
    }
  }
}

void print_threats(const model::Snapshot& snap, const VictimReport& r, std::ostream& out) {
  if (r.threats.empty()) {
    out << fmt::format("\nno pending pod or workload in the input evicts it ({} checked)\n",
                       r.pending);
    return;
  }
  out << fmt::format("\nevicted by ({} pending checked)\n", r.pending);
  Table t({"PREEMPTOR", "PRIORITY", "POLICY", "NODE", "REASON"});
  for (const auto& threat : r.threats) {
    t.add({preemptor_name(snap, threat.preemptor, threat.workload),
           std::to_string(preemptor_priority(snap, threat)), threat.policy,
           threat.node.empty() ? "-" : threat.node, reason_text(threat.reason)});
  }
  t.print(out, 2);
}

void print_levels(const VictimReport& r, bool wide, std::ostream& out) {
  out << "\npriority levels that could evict it\n";
  if (r.victim == model::k_none) {
    // A Workload: no PriorityClass is judged, only the policies' notes follow.
  } else if (!r.levels.empty() && !r.levels.front().verdicts.empty()) {
    std::vector<std::string> header = {"CLASS", "VALUE"};
    for (const auto& v : r.levels.front().verdicts) {
      header.push_back(v.policy);
    }
    for (std::size_t i = 2; i < header.size(); ++i) {
      for (char& c : header[i]) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      }
    }
    Table t(header);
    for (const auto& level : r.levels) {
      std::vector<std::string> row = {level.priority_class, std::to_string(level.value)};
      for (const auto& v : level.verdicts) {
        row.push_back(short_verdict(v.verdict));
      }
      t.add(std::move(row));
    }
    t.print(out, 2);
  } else if (r.levels.empty()) {
    out << "  the input holds no PriorityClass\n";
  }
  for (const auto& [policy, why] : r.uncharacterised) {
    out << fmt::format("  {}: {}\n", policy, why);
  }
  if (wide && !r.levels.empty()) {
    out << "\nwhy\n";
    Table t({"CLASS", "POLICY", "CODE", "DETAIL"});
    for (const auto& level : r.levels) {
      for (const auto& v : level.verdicts) {
        t.add({level.priority_class, v.policy, verdict_code(v.verdict), verdict_detail(v.verdict)});
      }
    }
    t.print(out, 2);
  }
}

Json victim_json(const model::Snapshot& snap, const VictimReport& r) {
  if (r.victim == model::k_none) {
    const model::Workload& w = snap.kueue().workloads[r.victim_workload];
    Json j;
    j["kind"] = "Workload";
    j["namespace"] = w.namespace_;
    j["name"] = w.name;
    j["priority"] = w.priority;
    if (!w.priority_class_name.empty()) {
      j["priorityClassName"] = w.priority_class_name;
    }
    if (!w.uid.empty()) {
      j["uid"] = printable(w.uid);
    }
    if (!w.admission_cluster_queue.empty()) {
      j["clusterQueue"] = w.admission_cluster_queue;
    }
    if (w.owner) {
      j["owner"] = {{"kind", w.owner->kind}, {"name", w.owner->name}};
    }
    return j;
  }
  const model::PodId id = r.victim;
  const model::Pod& pod = snap.pods()[id];
  Json j;
  j["kind"] = "Pod";
  j["namespace"] = pod.namespace_;
  j["name"] = pod.name;
  j["node"] = pod.node_name;
  j["priority"] = snap.facts(id).priority;
  if (!pod.priority_class_name.empty()) {
    j["priorityClassName"] = pod.priority_class_name;
  }
  return j;
}

// A preemptor's kind, namespace and name: a pod, or a Workload when `pod` is k_none.
Json preemptor_ref_json(const model::Snapshot& snap, model::PodId pod, std::uint32_t workload) {
  Json p;
  if (pod == model::k_none) {
    const model::Workload& w = snap.kueue().workloads[workload];
    p["kind"] = "Workload";
    p["namespace"] = w.namespace_;
    p["name"] = w.name;
  } else {
    const model::Pod& it = snap.pods()[pod];
    p["kind"] = "Pod";
    p["namespace"] = it.namespace_;
    p["name"] = it.name;
  }
  return p;
}

Json threat_json(const model::Snapshot& snap, const VictimThreat& t) {
  Json p = preemptor_ref_json(snap, t.preemptor, t.workload);
  p["priority"] = preemptor_priority(snap, t);
  Json j;
  j["preemptor"] = std::move(p);
  j["policy"] = t.policy;
  if (!t.node.empty()) {
    j["node"] = t.node;
  }
  j["reason"] = reason_text(t.reason);
  j["reasonText"] = reason_sentence(t.reason);
  return j;
}

std::string_view stance_code(Stance s) {
  switch (s) {
    case Stance::lists:
      return "lists-it";
    case Stance::waits:
      return "waits-for-it";
    case Stance::neither:
      break;
  }
  return "neither";
}

std::string_view state_code(Explainer::State s) {
  switch (s) {
    case Explainer::State::pending:
      return "pending";
    case Explainer::State::admitted:
      return "admitted";
    case Explainer::State::finished:
      return "finished";
    case Explainer::State::bound:
      break;
  }
  return "bound";
}

Json explainer_json(const model::Snapshot& snap, const Explainer& x) {
  Json p = preemptor_ref_json(snap, x.pod, x.workload);
  if (x.pod == model::k_none) {
    const model::Workload& w = snap.kueue().workloads[x.workload];
    p["priority"] = w.priority;
    if (!w.uid.empty()) {
      p["uid"] = printable(w.uid);
    }
  } else {
    p["priority"] = snap.facts(x.pod).priority;
  }
  Json j;
  j["preemptor"] = std::move(p);
  j["state"] = state_code(x.state);
  if (x.pod != model::k_none) {
    const model::Pod& pod = snap.pods()[x.pod];
    if (x.state == Explainer::State::bound) {
      j["node"] = pod.node_name;
      if (pod.start_time) {
        j["startTime"] = model::to_string(*pod.start_time);
      }
    } else if (!pod.nominated_node_name.empty()) {
      j["nominatedNodeName"] = pod.nominated_node_name;
    }
  } else {
    const model::Workload& w = snap.kueue().workloads[x.workload];
    if (!w.admission_cluster_queue.empty()) {
      j["clusterQueue"] = w.admission_cluster_queue;
    }
  }
  j["inferred"] = x.inferred;
  if (x.state == Explainer::State::pending) {
    Json stances = Json::array();
    for (const PolicyStance& s : x.stances) {
      Json sj;
      sj["policy"] = s.policy;
      sj["stance"] = stance_code(s.stance);
      sj["outcome"] = policy::to_string(s.outcome);
      if (s.reason) {
        sj["reason"] = reason_text(*s.reason);
        sj["reasonText"] = reason_sentence(*s.reason);
      }
      stances.push_back(std::move(sj));
    }
    j["stances"] = std::move(stances);
  }
  if (x.explanation) {
    j["explanation"] = to_document(snap, {*x.explanation});
  }
  return j;
}

Json under_way_json(const model::Snapshot& snap, const EvictionUnderWay& u) {
  Json j;
  if (u.deletion_timestamp) {
    j["deletionTimestamp"] = model::to_string(*u.deletion_timestamp);
  }
  Json conditions = Json::array();
  for (const QuotedCondition& c : u.conditions) {
    Json cj;
    cj["type"] = printable(c.type);
    cj["status"] = printable(c.status);
    cj["reason"] = printable(c.reason);
    if (!c.message.empty()) {
      cj["message"] = printable(c.message);
    }
    if (c.at) {
      cj["lastTransitionTime"] = model::to_string(*c.at);
    }
    conditions.push_back(std::move(cj));
  }
  j["conditions"] = std::move(conditions);
  if (!u.preemptor_uid.empty()) {
    j["preemptorUID"] = printable(u.preemptor_uid);
  }
  if (!u.preemptor_job_uid.empty()) {
    j["preemptorJobUID"] = printable(u.preemptor_job_uid);
  }
  j["explained"] = !u.explained_by.empty();
  Json by = Json::array();
  for (const Explainer& x : u.explained_by) {
    by.push_back(explainer_json(snap, x));
  }
  j["explainedBy"] = std::move(by);
  if (!u.checked.empty()) {
    Json checked = Json::array();
    for (const std::string& c : u.checked) {
      checked.push_back(printable(c));
    }
    j["checked"] = std::move(checked);
  }
  if (!u.likely_search.empty()) {
    j["likelySearch"] = u.likely_search;
    Json likely = Json::array();
    for (const Explainer& x : u.likely) {
      likely.push_back(explainer_json(snap, x));
    }
    j["likelyPreemptors"] = std::move(likely);
  }
  return j;
}

Json report_json(const model::Snapshot& snap, const VictimReport& r) {
  Json j;
  j["apiVersion"] = k_api_version;
  j["kind"] = "VictimReport";
  j["now"] = model::to_string(r.now);
  j["victim"] = victim_json(snap, r);
  j["pendingChecked"] = r.pending;
  Json threats = Json::array();
  for (const auto& t : r.threats) {
    threats.push_back(threat_json(snap, t));
  }
  j["evictedBy"] = std::move(threats);
  Json levels = Json::array();
  for (const auto& level : r.levels) {
    Json l;
    l["priorityClass"] = level.priority_class;
    l["value"] = level.value;
    l["preemptionPolicy"] = level.preempt_never ? "Never" : "PreemptLowerPriority";
    Json verdicts = Json::array();
    for (const auto& v : level.verdicts) {
      verdicts.push_back({{"policy", v.policy},
                          {"code", verdict_code(v.verdict)},
                          {"detail", verdict_detail(v.verdict)}});
    }
    l["verdicts"] = std::move(verdicts);
    levels.push_back(std::move(l));
  }
  j["priorityLevels"] = std::move(levels);
  Json other = Json::array();
  for (const auto& [policy, why] : r.uncharacterised) {
    other.push_back({{"policy", policy}, {"detail", why}});
  }
  j["notPerPriorityLevel"] = std::move(other);
  if (!r.notes.empty()) {
    j["notes"] = r.notes;
  }
  if (r.under_way) {
    j["evictionUnderWay"] = under_way_json(snap, *r.under_way);
  }
  return j;
}

}  // namespace

void render_victim_report(Format format, const model::Snapshot& snap, const VictimReport& r,
                          std::ostream& out) {
  if (format == Format::json || format == Format::yaml) {
    print_structured(report_json(snap, r), format == Format::yaml, out);
    return;
  }
  if (format == Format::html) {
    std::ostringstream text;
    render_victim_report(Format::wide, snap, r, text);
    render_text_html("kpreempt explain --victim", text.str(), out);
    return;
  }
  print_header(snap, r, out);
  print_under_way(snap, r, format == Format::wide, out);
  print_threats(snap, r, out);
  print_levels(r, format == Format::wide, out);
}

}  // namespace kpreempt::render
