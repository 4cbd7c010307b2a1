// SPDX-License-Identifier: Apache-2.0
// Builds the versioned output document. Key names are part of the public contract
// (kpreempt/v1alpha1): add keys freely, never rename or remove one.
#include "render/document.h"

#include "kpreempt/model/time.h"

#include <exception>
#include <thread>
#include <vector>

namespace kpreempt::render {
namespace {

using Json = nlohmann::ordered_json;

Json resources_json(const model::Resources& r) {
  Json j = Json::object();
  if (r.cpu_milli != 0) {
    j["cpu"] = model::to_string(model::Quantity::from_milli(r.cpu_milli));
  }
  if (r.memory != 0) {
    j["memory"] = model::to_string(model::Quantity::from_units(r.memory), true);
  }
  if (r.ephemeral_storage != 0) {
    j["ephemeral-storage"] =
        model::to_string(model::Quantity::from_units(r.ephemeral_storage), true);
  }
  for (const auto& [name, v] : r.scalar) {
    j[name] = model::to_string(model::Quantity::from_units(v));
  }
  return j;
}

Json ref_json(const model::ObjectRef& r) {
  Json j;
  j["kind"] = r.kind;
  if (!r.namespace_.empty()) {
    j["namespace"] = r.namespace_;
  }
  j["name"] = r.name;
  return j;
}

Json preemptor_json(const model::Snapshot& snap, model::PodId id) {
  const model::Pod& pod = snap.pods()[id];
  const model::PodFacts& facts = snap.facts(id);
  Json j = ref_json({"Pod", pod.namespace_, pod.name});
  j["priority"] = facts.priority;
  if (!pod.priority_class_name.empty()) {
    j["priorityClassName"] = pod.priority_class_name;
  }
  j["preemptionPolicy"] = facts.preempt_never ? "Never" : "PreemptLowerPriority";
  j["requests"] = resources_json(facts.requests);
  if (!pod.nominated_node_name.empty()) {
    j["nominatedNodeName"] = pod.nominated_node_name;
  }
  return j;
}

Json rank_json(const policy::CandidateRank& r) {
  Json j;
  j["pdbViolations"] = r.pdb_violations;
  j["highestVictimPriority"] = r.highest_victim_priority;
  j["sumPriorities"] = r.sum_adjusted;
  j["victimCount"] = r.victim_count;
  j["earliestStartTime"] = model::to_string(r.earliest_start);
  return j;
}

Json node_json(const policy::NodeVerdict& n) {
  Json j;
  j["name"] = n.node;
  j["code"] = reason_text(n.code);
  j["reasonText"] = reason_sentence(n.code);
  if (!n.detail.empty()) {
    j["detail"] = n.detail;
  }
  if (n.rank) {
    j["rank"] = rank_json(*n.rank);
  }
  Json pods = Json::array();
  for (const auto& p : n.pods) {
    Json pj = ref_json(p.pod);
    pj["priority"] = p.priority;
    pj["victim"] = p.victim;
    pj["code"] = reason_text(p.code);
    pj["reasonText"] = reason_sentence(p.code);
    if (!p.detail.empty()) {
      pj["detail"] = p.detail;
    }
    pods.push_back(std::move(pj));
  }
  j["pods"] = std::move(pods);
  return j;
}

Json result_json(const policy::Decision& d) {
  Json j;
  j["policy"] = d.policy;
  if (const policy::Entry* e = policy::find(d.policy)) {
    const policy::LineInfo& line =
        e->nearest(policy::parse_release_line(d.line).value_or(policy::ReleaseLine{}));
    j["upstream"] = line.upstream;
    j["upstreamLine"] = policy::to_string(line.line);
    if (!d.line_from.empty()) {
      j["upstreamFrom"] = d.line_from;
    }
  }
  if (!d.feature_gates.empty()) {
    Json gates = Json::object();
    for (const auto& [name, value] : d.feature_gates) {
      gates[name] = value == "true";
    }
    j["featureGates"] = std::move(gates);
  }
  j["outcome"] = policy::to_string(d.outcome);
  if (!d.node.empty()) {
    j["node"] = d.node;
  }
  j["summary"] = d.summary;
  Json reasons = Json::array();
  Json texts = Json::array();
  for (const policy::Reason& r : d.reasons) {
    reasons.push_back(reason_text(r));
    texts.push_back(reason_sentence(r));
  }
  j["reasons"] = std::move(reasons);
  j["reasonTexts"] = std::move(texts);  // one sentence per code of `reasons`, in its order
  Json victims = Json::array();
  for (const auto& v : d.victims) {
    Json vj = ref_json(v.ref);
    if (!v.node.empty()) {
      vj["node"] = v.node;
    }
    vj["priority"] = v.priority;
    vj["reason"] = reason_text(v.reason);
    vj["reasonText"] = reason_sentence(v.reason);
    if (!v.queue.empty()) {
      vj["queue"] = v.queue;
    }
    if (!v.application.empty()) {
      vj["application"] = v.application;
    }
    victims.push_back(std::move(vj));
  }
  j["victims"] = std::move(victims);
  if (!d.tied_nodes.empty()) {
    j["tiedNodes"] = d.tied_nodes;
  }
  Json nodes = Json::array();
  for (const auto& n : d.nodes) {
    nodes.push_back(node_json(n));
  }
  if (d.verdict_unit != policy::VerdictUnit::node) {
    j["verdictUnit"] = policy::name(d.verdict_unit);
  }
  j["nodes"] = std::move(nodes);
  j["warnings"] = d.warnings;
  if (!d.details.is_null()) {
    j["details"] = d.details;
  }
  return j;
}

Json workload_json(const model::Snapshot& snap, std::uint32_t id) {
  const model::Workload& w = snap.kueue().workloads[id];
  Json j = ref_json({"Workload", w.namespace_, w.name});
  j["priority"] = w.priority;
  return j;
}

Json explanation_json(const model::Snapshot& snap, const Explanation& e) {
  Json j;
  j["apiVersion"] = k_api_version;
  j["kind"] = "Explanation";
  j["now"] = model::to_string(e.now);
  j["preemptor"] = e.preemptor == model::k_none ? workload_json(snap, e.workload)
                                                : preemptor_json(snap, e.preemptor);
  // Each policy's result is a node list as long as the cluster: the second half of them is
  // made on another core.
  std::vector<Json> made(e.decisions.size());
  auto make = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      made[i] = result_json(e.decisions[i]);
    }
  };
  if (made.size() < 2) {
    make(0, made.size());
  } else {
    const std::size_t half = made.size() / 2;
    std::exception_ptr failed;
    {
      std::jthread other([&] {
        try {
          make(half, made.size());
        } catch (...) {
          failed = std::current_exception();
        }
      });
      make(0, half);
    }
    if (failed) {
      std::rethrow_exception(failed);
    }
  }
  Json results = Json::array();
  for (Json& r : made) {
    results.push_back(std::move(r));
  }
  j["results"] = std::move(results);
  return j;
}

}  // namespace

Json explanation_list(const model::Snapshot& snap, const std::vector<Explanation>& all) {
  Json list;
  list["apiVersion"] = k_api_version;
  list["kind"] = "ExplanationList";
  Json items = Json::array();
  for (const auto& e : all) {
    items.push_back(explanation_json(snap, e));
  }
  list["items"] = std::move(items);
  return list;
}

Json to_document(const model::Snapshot& snap, const std::vector<Explanation>& all) {
  return all.size() == 1 ? explanation_json(snap, all.front()) : explanation_list(snap, all);
}

}  // namespace kpreempt::render
