// SPDX-License-Identifier: Apache-2.0
// What-if DaemonSets made into the pods their controller would create, once the nodes are known.
#include "kpreempt/model/daemon_set.h"

#include "kpreempt/model/match.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_set>

namespace kpreempt::model {
namespace {

struct AddedToleration {
  std::string_view key, effect;
};

// AddOrUpdateDaemonPodTolerations, in its order; each with operator Exists.
constexpr std::array<AddedToleration, 6> k_daemon_tolerations{{
    {"node.kubernetes.io/not-ready", "NoExecute"},
    {"node.kubernetes.io/unreachable", "NoExecute"},
    {"node.kubernetes.io/disk-pressure", "NoSchedule"},
    {"node.kubernetes.io/memory-pressure", "NoSchedule"},
    {"node.kubernetes.io/pid-pressure", "NoSchedule"},
    {"node.kubernetes.io/unschedulable", "NoSchedule"},
}};
constexpr AddedToleration k_host_network_toleration{"node.kubernetes.io/network-unavailable",
                                                    "NoSchedule"};

// v1helper.AddOrUpdateTolerationInPodSpec: a toleration that MatchToleration finds equal is
// replaced (only tolerationSeconds can differ, which is not read), any other appended.
void add_or_update(std::vector<Toleration>& tolerations, const AddedToleration& a) {
  const Toleration t{std::string(a.key), "Exists", "", std::string(a.effect)};
  const bool present =
      std::any_of(tolerations.begin(), tolerations.end(), [&](const Toleration& o) {
        return o.key == t.key && o.op == t.op && o.value == t.value && o.effect == t.effect;
      });
  if (!present) {
    tolerations.push_back(t);
  }
}

std::string taint_text(const Taint& t) {
  return t.value.empty() ? fmt::format("{}:{}", t.key, t.effect)
                         : fmt::format("{}={}:{}", t.key, t.value, t.effect);
}

std::string node_count(std::size_t n) {
  return n == 1 ? "1 node" : fmt::format("{} nodes", n);
}

// The nodes in name order, the first of each name only (as build() keeps them).
std::vector<const Node*> by_name(const std::vector<Node>& nodes) {
  std::vector<const Node*> out;
  out.reserve(nodes.size());
  for (const Node& n : nodes) {
    out.push_back(&n);
  }
  const auto name_less = [](const Node* a, const Node* b) { return a->name < b->name; };
  std::stable_sort(out.begin(), out.end(), name_less);
  out.erase(std::unique(out.begin(), out.end(),
                        [](const Node* a, const Node* b) { return a->name == b->name; }),
            out.end());
  return out;
}

// The nodes that run a pod of `ds` already: the controller creates none there.
std::unordered_set<std::string> nodes_running(const DaemonSet& ds, const std::vector<Pod>& pods,
                                              std::size_t count) {
  std::unordered_set<std::string> out;
  for (std::size_t i = 0; i < count; ++i) {
    const Pod& p = pods[i];
    // A finished pod is deleted by the controller, which then makes another.
    if (p.namespace_ != ds.namespace_ || p.terminal()) {
      continue;
    }
    const bool ours = std::any_of(p.owners.begin(), p.owners.end(), [&](const OwnerReference& o) {
      return o.kind == "DaemonSet" && o.name == ds.name;
    });
    if (ours) {
      if (std::string node = daemon_target_node(p); !node.empty()) {
        out.insert(std::move(node));
      }
    }
  }
  return out;
}

// Why no node would run a pod of `ds`, from the counts of each refusal.
struct Refusals {
  std::size_t node_name = 0, node_affinity = 0, taint = 0;
  const Node* first_tainted = nullptr;
  const Taint* first_taint = nullptr;

  void add(DaemonFit fit, const Node& node, const Taint* taint_found) {
    switch (fit) {
      case DaemonFit::node_name:
        ++node_name;
        break;
      case DaemonFit::node_affinity:
        ++node_affinity;
        break;
      case DaemonFit::taint:
        if (taint++ == 0) {
          first_tainted = &node;
          first_taint = taint_found;
        }
        break;
      case DaemonFit::runs:
        break;
    }
  }

  std::string text(const DaemonSet& ds) const {
    std::vector<std::string> parts;
    if (node_name > 0) {
      parts.push_back(fmt::format("{} {} not its spec.template.spec.nodeName \"{}\"",
                                  node_count(node_name), node_name == 1 ? "is" : "are",
                                  ds.pod.node_name));
    }
    if (node_affinity > 0) {
      parts.push_back(fmt::format("{} {} not match its node selector and required node affinity",
                                  node_count(node_affinity), node_affinity == 1 ? "does" : "do"));
    }
    if (taint > 0) {
      parts.push_back(
          fmt::format("{} {} a NoSchedule or NoExecute taint it does not tolerate "
                      "(first: {} {})",
                      node_count(taint), taint == 1 ? "has" : "have", first_tainted->name,
                      taint_text(*first_taint)));
    }
    std::string out;
    for (const std::string& p : parts) {
      out += (out.empty() ? "" : "; ") + p;
    }
    return out;
  }
};

Pod daemon_pod(const DaemonSet& ds, const Node& node) {
  Pod p = ds.pod;
  // The random part of the generated name stands for the node: one pod per node.
  p.name = fmt::format("{}-what-if-{}", ds.name, node.name);
  // ReplaceDaemonSetPodNodeNameNodeAffinity: the template's required terms give way to one.
  p.required_node_affinity = {
      NodeSelectorTerm{{}, {Requirement{"metadata.name", "In", {node.name}}}}};
  p.has_required_node_affinity = true;
  return p;
}

}  // namespace

void add_daemon_tolerations(Pod& pod, bool host_network) {
  for (const AddedToleration& a : k_daemon_tolerations) {
    add_or_update(pod.tolerations, a);
  }
  if (host_network) {
    add_or_update(pod.tolerations, k_host_network_toleration);
  }
}

DaemonFit daemon_fit(const Pod& pod, const Node& node, const Taint** taint) {
  if (!pod.node_name.empty() && pod.node_name != node.name) {
    return DaemonFit::node_name;
  }
  if (!matches_node_affinity(pod, node)) {
    return DaemonFit::node_affinity;
  }
  if (const Taint* t = first_untolerated(pod.tolerations, node.taints); t != nullptr) {
    if (taint != nullptr) {
      *taint = t;
    }
    return DaemonFit::taint;
  }
  return DaemonFit::runs;
}

std::string daemon_target_node(const Pod& pod) {
  if (!pod.node_name.empty()) {
    return pod.node_name;
  }
  for (const NodeSelectorTerm& t : pod.required_node_affinity) {
    for (const Requirement& r : t.match_fields) {
      if (r.key == "metadata.name" && r.op == "In") {
        // More than one value is an error upstream: the pod is for no node.
        return r.values.size() == 1 ? r.values.front() : std::string();
      }
    }
  }
  return {};
}

std::vector<ObjectRef> expand_daemon_sets(const std::vector<DaemonSet>& sets,
                                          const std::vector<Node>& nodes, std::vector<Pod>& pods,
                                          std::vector<Diagnostic>& diags) {
  std::vector<ObjectRef> made;
  if (sets.empty()) {
    return made;
  }
  const std::vector<const Node*> order = by_name(nodes);
  const std::size_t existing = pods.size();
  for (const DaemonSet& ds : sets) {
    const std::string who = fmt::format("DaemonSet {}/{}", ds.namespace_, ds.name);
    const std::unordered_set<std::string> running = nodes_running(ds, pods, existing);
    Refusals refused;
    std::size_t skipped = 0, count = 0;
    for (const Node* node : order) {
      const Taint* taint = nullptr;
      const DaemonFit fit = daemon_fit(ds.pod, *node, &taint);
      if (fit != DaemonFit::runs) {
        refused.add(fit, *node, taint);
        continue;
      }
      if (running.contains(node->name)) {
        ++skipped;
        continue;
      }
      Pod p = daemon_pod(ds, *node);
      made.push_back(ObjectRef{"Pod", p.namespace_, p.name});
      pods.push_back(std::move(p));
      ++count;
    }
    if (order.empty()) {
      diags.push_back({Severity::warning, ds.loc,
                       fmt::format("{}: the input holds no node; no pod to create", who)});
    } else if (count == 0 && skipped == 0) {
      diags.push_back({Severity::warning, ds.loc,
                       fmt::format("{}: no node would run its pod: {}", who, refused.text(ds))});
    } else if (count == 0) {
      diags.push_back({Severity::warning, ds.loc,
                       fmt::format("{}: every node it would run on ({}) runs a pod of it already; "
                                   "no pod to create",
                                   who, skipped)});
    } else if (skipped > 0) {
      diags.push_back({Severity::note, ds.loc,
                       fmt::format("{}: {} of the {} it would run on {} a pod of it already; no "
                                   "pod is made for {}",
                                   who, skipped, node_count(skipped + count),
                                   skipped == 1 ? "runs" : "run", skipped == 1 ? "it" : "them")});
    }
  }
  return made;
}

}  // namespace kpreempt::model
