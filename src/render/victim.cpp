// SPDX-License-Identifier: Apache-2.0
// `explain --victim` output: the pending preemptors whose decisions evict one running pod,
// and which priority levels could evict it under each policy.
#include "render/document.h"
#include "render/structured.h"
#include "render/table.h"

#include <fmt/format.h>

#include <cctype>
#include <ostream>

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
  const model::Pod& pod = snap.pods()[r.victim];
  std::string klass =
      pod.priority_class_name.empty() ? "" : fmt::format(" ({})", pod.priority_class_name);
  out << fmt::format("Pod {}/{}  priority {}{}  on {}\n", pod.namespace_, pod.name,
                     snap.facts(r.victim).priority, klass, pod.node_name);
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
  if (!r.levels.empty() && !r.levels.front().verdicts.empty()) {
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

Json victim_json(const model::Snapshot& snap, model::PodId id) {
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

Json threat_json(const model::Snapshot& snap, const VictimThreat& t) {
  Json p;
  if (t.preemptor == model::k_none) {
    const model::Workload& w = snap.kueue().workloads[t.workload];
    p["kind"] = "Workload";
    p["namespace"] = w.namespace_;
    p["name"] = w.name;
  } else {
    const model::Pod& pod = snap.pods()[t.preemptor];
    p["kind"] = "Pod";
    p["namespace"] = pod.namespace_;
    p["name"] = pod.name;
  }
  p["priority"] = preemptor_priority(snap, t);
  Json j;
  j["preemptor"] = std::move(p);
  j["policy"] = t.policy;
  if (!t.node.empty()) {
    j["node"] = t.node;
  }
  j["reason"] = reason_text(t.reason);
  return j;
}

Json report_json(const model::Snapshot& snap, const VictimReport& r) {
  Json j;
  j["apiVersion"] = k_api_version;
  j["kind"] = "VictimReport";
  j["now"] = model::to_string(r.now);
  j["victim"] = victim_json(snap, r.victim);
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
  return j;
}

}  // namespace

void render_victim_report(Format format, const model::Snapshot& snap, const VictimReport& r,
                          std::ostream& out) {
  if (format == Format::json || format == Format::yaml) {
    print_structured(report_json(snap, r), format == Format::yaml, out);
    return;
  }
  print_header(snap, r, out);
  print_threats(snap, r, out);
  print_levels(r, format == Format::wide, out);
}

}  // namespace kpreempt::render
