// SPDX-License-Identifier: Apache-2.0
// What rules see: the scanned objects (input and baseline) with their identity, views shared
// by several rules (classes, pod specs, queue files), and the Report rules write findings to.
#pragma once

#include "lint/node.h"

#include "kpreempt/lint/lint.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kpreempt::lint {

struct Obj {
  std::shared_ptr<const load::Tree> tree;
  std::string api_version, group, kind, name, ns;  // ns empty for cluster-scoped kinds
  bool baseline = false;

  Node root() const { return Node(tree.get(), 0); }
  Node operator[](std::string_view key) const { return root()[key]; }
  std::string ref() const;  // "Kind/ns/name" or "Kind/name"
  Node label(std::string_view key) const { return root()["metadata"]["labels"][key]; }
  Node annotation(std::string_view key) const { return root()["metadata"]["annotations"][key]; }
};

// A PriorityClass as the API server would store it; `value` is empty when it does not decode.
struct PriorityClassView {
  const Obj* obj = nullptr;
  std::optional<std::int64_t> value;
  std::string policy;  // "PreemptLowerPriority" when omitted
  bool global_default = false;
};

// A pod spec: a Pod's, a controller's template, or (spec only) a scheduling.k8s.io Workload.
struct PodUse {
  const Obj* obj = nullptr;
  Node spec;             // the PodSpec (for a Workload: its spec)
  Node metadata;         // the pod's or template's metadata
  bool running = false;  // a Pod with metadata.uid or status, as in a cluster dump
  bool workload = false;
};

// One YuniKorn queues.yaml: a bare document or the text of a ConfigMap key.
struct QueuesDoc {
  const Obj* obj = nullptr;
  std::shared_ptr<const load::Tree> tree;  // marks already point into the input file
  Node root() const { return Node(tree.get(), 0); }
};

class Corpus {
 public:
  Corpus(const std::vector<load::ScannedObject>& input,
         const std::vector<load::ScannedObject>& baseline);

  const std::vector<Obj>& input() const { return m_input; }
  const std::vector<Obj>& baseline() const { return m_baseline; }
  bool has_baseline() const { return m_has_baseline; }

  // Input objects of `kind` (and `group` when not null), in input order.
  std::vector<const Obj*> of(std::string_view kind, const char* group = nullptr) const;
  std::vector<const Obj*> baseline_of(std::string_view kind, const char* group = nullptr) const;

  std::vector<PriorityClassView> classes() const;           // input
  std::vector<PriorityClassView> baseline_classes() const;  // baseline
  // Input classes plus baseline classes the input does not redeclare: the cluster after apply.
  std::vector<PriorityClassView> effective_classes() const;
  std::vector<PodUse> pod_uses() const;
  const std::vector<QueuesDoc>& queues_docs() const { return m_queues; }
  // Queue-file problems that stop a ConfigMap's text from being read at all.
  const std::vector<Diagnostic>& queue_errors() const { return m_queue_errors; }

 private:
  std::vector<Obj> m_input, m_baseline;
  bool m_has_baseline = false;
  std::vector<QueuesDoc> m_queues;
  std::vector<Diagnostic> m_queue_errors;
};

class Context {
 public:
  Context(const Corpus& c, const Options& o) : m_corpus(c), m_options(o) {}
  const Corpus& corpus() const { return m_corpus; }
  const Options& options() const { return m_options; }
  bool policy_given(std::string_view p) const;

 private:
  const Corpus& m_corpus;
  const Options& m_options;
};

class Report {
 public:
  Report(const Rule& rule, std::vector<Finding>& out) : m_rule(rule), m_out(out) {}
  // A finding at `at` (its key's position); `severity` overrides the rule's default.
  void add(const std::string& object, const Node& at, std::string message,
           std::optional<Level> severity = std::nullopt);
  void add(const Obj& obj, const Node& at, std::string message,
           std::optional<Level> severity = std::nullopt) {
    add(obj.ref(), at, std::move(message), severity);
  }
  // A finding at an explicit position (text that has no tree, such as a queue file that does
  // not parse).
  void add_at(const std::string& object, std::string field, SourceLoc loc, std::string message);

 private:
  const Rule& m_rule;
  std::vector<Finding>& m_out;
};

inline constexpr std::int64_t k_user_max = 1000000000;
inline constexpr std::int64_t k_cluster_critical = 2000000000;
inline constexpr std::int64_t k_node_critical = 2000001000;

// The value of a built-in class, or nullopt for any other name.
std::optional<std::int64_t> builtin_value(std::string_view name);

}  // namespace kpreempt::lint
