// SPDX-License-Identifier: Apache-2.0
// Corpus: object identity, the PriorityClass and pod-spec views, and the YuniKorn queue files
// found in ConfigMaps (re-read as trees whose positions point into the ConfigMap's file).
#include "lint/corpus.h"

#include "kpreempt/load/scan.h"

#include <algorithm>
#include <fstream>

namespace kpreempt::lint {
namespace {

bool cluster_scoped(std::string_view kind) {
  static constexpr std::string_view k_kinds[] = {"PriorityClass",
                                                 "Node",
                                                 "Namespace",
                                                 "ClusterQueue",
                                                 "ResourceFlavor",
                                                 "Cohort",
                                                 "WorkloadPriorityClass",
                                                 "queues.yaml",
                                                 "CustomResourceDefinition",
                                                 "ClusterRole",
                                                 "ClusterRoleBinding",
                                                 "StorageClass",
                                                 "PersistentVolume",
                                                 "KubeSchedulerConfiguration",
                                                 "MultiKueueCluster",
                                                 "MultiKueueConfig",
                                                 "AdmissionCheck",
                                                 "Topology"};
  return std::find(std::begin(k_kinds), std::end(k_kinds), kind) != std::end(k_kinds);
}

Obj make_obj(const load::ScannedObject& s, bool baseline) {
  Obj o{s.tree, s.api_version, "", s.kind, "", "", baseline};
  std::size_t slash = s.api_version.find('/');
  o.group = slash == std::string::npos ? "" : s.api_version.substr(0, slash);
  Node meta = o.root()["metadata"];
  o.name = meta["name"].str();
  if (!cluster_scoped(s.kind)) {
    o.ns = meta["namespace"].null() ? "default" : meta["namespace"].str();
  }
  return o;
}

std::optional<std::string> file_line(const std::string& file, std::uint32_t line) {
  std::ifstream in(file, std::ios::binary);
  std::string text;
  for (std::uint32_t i = 0; in && i < line; ++i) {
    if (!std::getline(in, text)) {
      return std::nullopt;
    }
  }
  return in || !text.empty() ? std::optional<std::string>(text) : std::nullopt;
}

// How positions in a ConfigMap value's text map to the file holding the ConfigMap.
struct Shift {
  bool block = false;        // `|` or `>`: text line 1 is file line value.line + 1
  std::uint32_t line = 0;    // file line of the text's first line
  std::uint32_t column = 0;  // file column of the text's first character (single-line)
  std::uint32_t indent = 0;  // block indentation
  bool flat = false;         // cannot map (JSON escapes): everything at the value
};

Shift shift_of(const Node& value) {
  SourceLoc at = value.loc();
  load::Mark m = value.tree()->nodes[value.id()].mark;
  Shift s{false, m.line, m.column, 0, false};
  std::optional<std::string> line = file_line(at.file, m.line);
  std::string_view text = value.text();
  bool multi = text.find('\n') != std::string_view::npos;
  char indicator = line && m.column >= 1 && m.column <= line->size() ? (*line)[m.column - 1] : 0;
  if (indicator == '"' || indicator == '\'') {
    s.column = m.column + 1;
    s.flat = multi;
    return s;
  }
  if (indicator != '|' && indicator != '>' && !(indicator == 0 && multi)) {
    return s;
  }
  s.block = true;
  s.line = m.line + 1;
  s.indent = at.column + 1;  // kubectl's layout: two deeper than the key
  for (std::uint32_t n = m.line + 1; line; ++n) {
    std::optional<std::string> next = file_line(at.file, n);
    if (!next) {
      break;
    }
    std::size_t spaces = next->find_first_not_of(' ');
    if (spaces != std::string::npos) {
      s.indent = static_cast<std::uint32_t>(spaces);
      break;
    }
  }
  return s;
}

load::Mark apply(const Shift& s, load::Mark m) {
  if (s.flat) {
    return load::Mark{s.line, s.column};
  }
  if (s.block) {
    return load::Mark{s.line + m.line - 1, s.indent + m.column};
  }
  return load::Mark{s.line + m.line - 1, m.line == 1 ? s.column + m.column - 1 : m.column};
}

}  // namespace

std::string Obj::ref() const {
  return ns.empty() ? kind + "/" + name : kind + "/" + ns + "/" + name;
}

std::optional<std::int64_t> builtin_value(std::string_view name) {
  if (name == "system-cluster-critical") {
    return k_cluster_critical;
  }
  if (name == "system-node-critical") {
    return k_node_critical;
  }
  return std::nullopt;
}

Corpus::Corpus(const std::vector<load::ScannedObject>& input,
               const std::vector<load::ScannedObject>& baseline)
    : m_has_baseline(!baseline.empty()) {
  for (const auto& s : input) {
    m_input.push_back(make_obj(s, false));
  }
  for (const auto& s : baseline) {
    m_baseline.push_back(make_obj(s, true));
  }
  for (const Obj& o : m_input) {
    if (o.kind == "queues.yaml") {
      m_queues.push_back(QueuesDoc{&o, o.tree});
      continue;
    }
    if (o.kind != "ConfigMap" || (o.name != "yunikorn-configs" && o.name != "yunikorn-defaults")) {
      continue;
    }
    Node value = o["data"]["queues.yaml"];
    if (!value.is_scalar()) {
      continue;
    }
    try {
      std::shared_ptr<load::Tree> tree = load::scan_document(value.text(), o.tree->file);
      Shift s = shift_of(value);
      for (load::TreeNode& n : tree->nodes) {
        n.mark = apply(s, n.mark);
        n.key_mark = apply(s, n.key_mark);
      }
      tree->file = o.tree->file;
      if (tree->duplicate != load::k_nil) {
        // yaml.UnmarshalStrict refuses a repeated key, so YuniKorn rejects the whole file.
        const load::TreeNode& dup = tree->nodes[tree->duplicate];
        m_queue_errors.push_back(Diagnostic{Severity::error, tree->loc(dup.key_mark),
                                            o.ref() + ": data[\"queues.yaml\"]: field " +
                                                quote(tree->key(tree->duplicate)) +
                                                " is set twice"});
      }
      m_queues.push_back(QueuesDoc{&o, tree});
    } catch (const InputError& e) {
      load::Mark m{e.loc().line, e.loc().column};
      load::Mark at = apply(shift_of(value), m);
      m_queue_errors.push_back(Diagnostic{Severity::error,
                                          SourceLoc{o.tree->file, at.line, at.column},
                                          o.ref() + ": data[\"queues.yaml\"]: " + e.what()});
    }
  }
}

std::vector<const Obj*> Corpus::of(std::string_view kind, const char* group) const {
  std::vector<const Obj*> out;
  for (const Obj& o : m_input) {
    if (o.kind == kind && (group == nullptr || o.group == group)) {
      out.push_back(&o);
    }
  }
  return out;
}

std::vector<const Obj*> Corpus::baseline_of(std::string_view kind, const char* group) const {
  std::vector<const Obj*> out;
  for (const Obj& o : m_baseline) {
    if (o.kind == kind && (group == nullptr || o.group == group)) {
      out.push_back(&o);
    }
  }
  return out;
}

namespace {

std::vector<PriorityClassView> views(const std::vector<const Obj*>& objs) {
  std::vector<PriorityClassView> out;
  for (const Obj* o : objs) {
    PriorityClassView v{o, std::nullopt, "PreemptLowerPriority", false};
    std::optional<std::int64_t> value = plain_int((*o)["value"]);
    if (value && *value >= INT32_MIN && *value <= INT32_MAX) {
      v.value = value;
    }
    if ((*o)["preemptionPolicy"].is_scalar() && !(*o)["preemptionPolicy"].null()) {
      v.policy = (*o)["preemptionPolicy"].str();
    }
    v.global_default = (*o)["globalDefault"].text() == "true";
    out.push_back(v);
  }
  return out;
}

}  // namespace

std::vector<PriorityClassView> Corpus::classes() const {
  return views(of("PriorityClass", "scheduling.k8s.io"));
}

std::vector<PriorityClassView> Corpus::baseline_classes() const {
  return views(baseline_of("PriorityClass", "scheduling.k8s.io"));
}

std::vector<PriorityClassView> Corpus::effective_classes() const {
  std::vector<PriorityClassView> out = classes();
  for (const PriorityClassView& b : baseline_classes()) {
    bool redeclared = std::any_of(out.begin(), out.end(), [&](const PriorityClassView& v) {
      return !v.obj->baseline && v.obj->name == b.obj->name;
    });
    if (!redeclared) {
      out.push_back(b);
    }
  }
  return out;
}

std::vector<PodUse> Corpus::pod_uses() const {
  std::vector<PodUse> out;
  for (const Obj& o : m_input) {
    Node root = o.root();
    if (o.kind == "Pod" && o.group.empty()) {
      bool running = !root["metadata"]["uid"].null() || root["status"].exists();
      out.push_back(PodUse{&o, root["spec"], root["metadata"], running, false});
    } else if (o.group == "apps" || (o.group == "batch" && o.kind == "Job")) {
      if (o.kind == "Deployment" || o.kind == "StatefulSet" || o.kind == "DaemonSet" ||
          o.kind == "ReplicaSet" || o.kind == "Job") {
        Node t = root["spec"]["template"];
        out.push_back(PodUse{&o, t["spec"], t["metadata"], false, false});
      }
    } else if (o.group == "batch" && o.kind == "CronJob") {
      Node t = root["spec"]["jobTemplate"]["spec"]["template"];
      out.push_back(PodUse{&o, t["spec"], t["metadata"], false, false});
    } else if (o.group == "scheduling.k8s.io" && o.kind == "Workload") {
      out.push_back(PodUse{&o, root["spec"], root["metadata"], false, true});
    }
  }
  return out;
}

bool Context::policy_given(std::string_view p) const {
  const auto& ps = m_options.policies;
  return std::find(ps.begin(), ps.end(), p) != ps.end();
}

void Report::add(const std::string& object, const Node& at, std::string message,
                 std::optional<Level> severity) {
  m_out.push_back(Finding{std::string(m_rule.id), severity.value_or(m_rule.severity),
                          std::move(message), object, at.path(), at.loc()});
}

void Report::add_at(const std::string& object, std::string field, SourceLoc loc,
                    std::string message) {
  m_out.push_back(Finding{std::string(m_rule.id), m_rule.severity, std::move(message), object,
                          std::move(field), std::move(loc)});
}

}  // namespace kpreempt::lint
