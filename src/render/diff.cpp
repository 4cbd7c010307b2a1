// SPDX-License-Identifier: Apache-2.0
// `kpreempt diff`: matching base and head decisions, and printing what changed.
#include "kpreempt/render/diff.h"

#include "render/structured.h"

#include "kpreempt/policy/classes.h"
#include "kpreempt/render/ci_formats.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace kpreempt::render {
namespace {

using Json = nlohmann::ordered_json;

// The kinds each policy reads besides PriorityClasses (which count only where the preemptor
// or a victim names them).
bool read_by_policy(std::string_view policy, std::string_view kind) {
  const bool kube = policy == "default" || policy == "toleration" || policy == "capacity";
  if (kind == "PodDisruptionBudget") {
    return kube || policy == "koordinator";
  }
  if (kind == "KubeSchedulerConfiguration") {
    return kube;
  }
  if (kind == "ConfigMap") {  // scheduler settings and YuniKorn's queue configuration
    return kube || policy == "yunikorn";
  }
  if (kind == "queues.yaml") {
    return policy == "yunikorn";
  }
  if (kind == "ElasticQuota" || kind == "PodGroup") {
    return policy == "capacity" || policy == "koordinator";
  }
  static constexpr std::string_view k_kueue[] = {
      "ClusterQueue",          "LocalQueue",     "Cohort",  "ResourceFlavor", "Namespace",
      "WorkloadPriorityClass", "AdmissionCheck", "Workload"};
  return policy == "kueue" &&
         std::find(std::begin(k_kueue), std::end(k_kueue), kind) != std::end(k_kueue);
}

// The PriorityClass names a decision depends on: the preemptor's and each victim's.
void add_classes(const model::Snapshot& snap, const Explanation& e, const policy::Decision& d,
                 std::set<std::string>& out) {
  const auto& workloads = snap.kueue().workloads;
  if (e.preemptor != model::k_none) {
    out.insert(snap.pods()[e.preemptor].priority_class_name);
  } else if (e.workload != model::k_none) {
    out.insert(workloads[e.workload].priority_class_name);
  }
  for (const policy::Victim& v : d.victims) {
    if (v.ref.kind == "Pod") {
      if (auto id = snap.find_pod(v.ref.namespace_, v.ref.name)) {
        out.insert(snap.pods()[*id].priority_class_name);
      }
    } else if (auto id = model::find_workload(snap.kueue(), v.ref.namespace_, v.ref.name)) {
      out.insert(workloads[*id].priority_class_name);
    }
  }
}

struct Side {
  const model::Snapshot* snap = nullptr;
  const Explanation* e = nullptr;
  const policy::Decision* d = nullptr;
};

std::set<std::string> victim_set(const policy::Decision* d) {
  std::set<std::string> out;
  if (d != nullptr) {
    for (const policy::Victim& v : d->victims) {
      out.insert(model::to_string(v.ref));
    }
  }
  return out;
}

std::optional<DecisionChange> change_of(const std::string& subject, const std::string& policy,
                                        const Side& base, const Side& head,
                                        const std::vector<ConfigChange>& config) {
  DecisionChange c;
  c.subject = subject;
  c.policy = policy;
  if (base.d != nullptr) {
    c.before = base.d->outcome;
    c.node_before = base.d->node;
  }
  if (head.d != nullptr) {
    c.after = head.d->outcome;
    c.node_after = head.d->node;
  }
  const std::set<std::string> before = victim_set(base.d);
  const std::set<std::string> after = victim_set(head.d);
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                      std::back_inserter(c.victims_added));
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(),
                      std::back_inserter(c.victims_removed));
  if (c.before == c.after && c.node_before == c.node_after && c.victims_added.empty() &&
      c.victims_removed.empty()) {
    return std::nullopt;
  }
  c.why = head.d != nullptr ? head.d->summary : base.d->summary;
  std::set<std::string> classes;
  for (const Side* s : {&base, &head}) {
    if (s->d != nullptr) {
      add_classes(*s->snap, *s->e, *s->d, classes);
    }
  }
  for (const ConfigChange& cc : config) {
    if (cc.kind_name == "PriorityClass" ? classes.contains(cc.name)
                                        : read_by_policy(policy, cc.kind_name)) {
      c.causes.push_back(&cc);
    }
  }
  return c;
}

std::string cell_word(const policy::ClassCell& c) {
  switch (c.verdict) {
    case policy::ClassVerdict::yes:
      return "yes";
    case policy::ClassVerdict::no:
      return "no";
    case policy::ClassVerdict::after:
      return fmt::format("after {}s", c.seconds);
    case policy::ClassVerdict::never:
      return "never";
    case policy::ClassVerdict::last:
      break;
  }
  return "last";
}

std::map<std::string, policy::ClassView> class_views(const model::Snapshot& snap) {
  std::map<std::string, policy::ClassView> out;
  for (const model::PriorityClass& pc : snap.priority_classes()) {
    out.emplace(pc.name, policy::class_view(pc));
  }
  return out;
}

std::vector<policy::ClassView> values_of(const std::map<std::string, policy::ClassView>& m) {
  std::vector<policy::ClassView> out;
  for (const auto& [name, v] : m) {
    out.push_back(v);
  }
  return out;
}

std::string cell_in(const policy::ClassRules& rules,
                    const std::map<std::string, policy::ClassView>& classes,
                    const std::string& preemptor, const std::string& victim) {
  auto p = classes.find(preemptor);
  auto v = classes.find(victim);
  if (p == classes.end() || v == classes.end()) {
    return "-";
  }
  return cell_word(rules.cell(p->second, v->second));
}

// The root of a cohort's tree (itself when it has no parent); a loop of parents stops where
// it closes, which is enough to tell trees apart.
std::string cohort_root(const model::KueueObjects& k, std::string cohort) {
  std::set<std::string> seen;
  for (;;) {
    seen.insert(cohort);
    auto it = std::find_if(k.cohorts.begin(), k.cohorts.end(),
                           [&](const model::KueueCohort& c) { return c.name == cohort; });
    if (it == k.cohorts.end() || it->parent.empty() || seen.contains(it->parent)) {
      return cohort;
    }
    cohort = it->parent;
  }
}

// Whether Workloads of ClusterQueue `from` may preempt those of `to`, by the preemption
// policies of `from` (Kueue's preemption.go candidate rules), as one word or phrase.
std::string queue_edge(const model::KueueObjects& k, const model::ClusterQueue& from,
                       const model::ClusterQueue& to) {
  if (from.name == to.name) {
    return from.within_cluster_queue == "Never" ? "never" : "within: " + from.within_cluster_queue;
  }
  if (from.cohort.empty() || to.cohort.empty() ||
      cohort_root(k, from.cohort) != cohort_root(k, to.cohort)) {
    return "never";
  }
  std::vector<std::string> ways;
  if (from.reclaim_within_cohort != "Never") {
    ways.push_back("reclaim: " + from.reclaim_within_cohort);
  }
  if (from.borrow_within_cohort != "Never") {
    ways.push_back(from.max_priority_threshold
                       ? fmt::format("while borrowing: {} up to {}", from.borrow_within_cohort,
                                     *from.max_priority_threshold)
                       : "while borrowing: " + from.borrow_within_cohort);
  }
  return ways.empty() ? "never" : fmt::format("{}", fmt::join(ways, ", "));
}

void compare_queue_edges(const model::KueueObjects& base, const model::KueueObjects& head,
                         Diff& diff) {
  std::map<std::string, std::pair<const model::ClusterQueue*, const model::ClusterQueue*>> cqs;
  for (const model::ClusterQueue& cq : base.cluster_queues) {
    cqs[cq.name].first = &cq;
  }
  for (const model::ClusterQueue& cq : head.cluster_queues) {
    cqs[cq.name].second = &cq;
  }
  for (const auto& [from, f] : cqs) {
    for (const auto& [to, t] : cqs) {
      std::string before = f.first && t.first ? queue_edge(base, *f.first, *t.first) : "-";
      std::string after = f.second && t.second ? queue_edge(head, *f.second, *t.second) : "-";
      const bool unseen =
          (before == "-" || before == "never") && (after == "-" || after == "never");
      if (before != after && !unseen) {
        diff.edges.push_back({"kueue", "ClusterQueue/" + from, "ClusterQueue/" + to,
                              std::move(before), std::move(after)});
      }
    }
  }
}

std::string where(const SourceLoc& loc) {
  return loc.line == 0 ? loc.file : fmt::format("{}:{}", loc.file, loc.line);
}

std::string outcome_text(const std::optional<policy::Outcome>& o, const std::string& node) {
  if (!o) {
    return "not applied";
  }
  std::string text(policy::to_string(*o));
  return node.empty() ? text : fmt::format("{} on {}", text, node);
}

Json loc_json(const SourceLoc& loc) {
  Json j = {{"file", loc.file}};
  j["line"] = loc.line == 0 ? Json(nullptr) : Json(loc.line);
  return j;
}

Json side_json(const std::optional<policy::Outcome>& o, const std::string& node) {
  if (!o) {
    return nullptr;
  }
  return {{"outcome", policy::to_string(*o)}, {"node", node.empty() ? Json(nullptr) : Json(node)}};
}

Json diff_json(const Diff& diff) {
  Json decisions = Json::array();
  for (const DecisionChange& c : diff.decisions) {
    Json causes = Json::array();
    for (const ConfigChange* cc : c.causes) {
      Json j = {{"object", cc->object}, {"change", to_string(cc->kind)}};
      j.update(loc_json(cc->loc));
      causes.push_back(std::move(j));
    }
    decisions.push_back({{"subject", c.subject},
                         {"policy", c.policy},
                         {"base", side_json(c.before, c.node_before)},
                         {"head", side_json(c.after, c.node_after)},
                         {"victimsAdded", c.victims_added},
                         {"victimsRemoved", c.victims_removed},
                         {"why", c.why},
                         {"causes", std::move(causes)}});
  }
  Json config = Json::array();
  for (const ConfigChange& cc : diff.config) {
    Json j = {{"object", cc.object}, {"change", to_string(cc.kind)}};
    j.update(loc_json(cc.loc));
    config.push_back(std::move(j));
  }
  Json edges = Json::array();
  for (const EdgeChange& e : diff.edges) {
    edges.push_back({{"policy", e.policy},
                     {"preemptor", e.preemptor},
                     {"victim", e.victim},
                     {"base", e.before},
                     {"head", e.after}});
  }
  Json findings = Json::array();
  for (const LintChange& f : diff.new_findings) {
    Json j = {{"rule", f.rule}, {"level", f.level}, {"object", f.object}, {"message", f.message}};
    j.update(loc_json(f.loc));
    findings.push_back(std::move(j));
  }
  return {{"apiVersion", "kpreempt/v1alpha1"},
          {"kind", "Diff"},
          {"summary",
           {{"preemptors", diff.subjects},
            {"changed", diff.decisions.size()},
            {"outcomeChanges", diff.outcome_changes()},
            {"victimsAdded", diff.victims_added()},
            {"victimsRemoved", diff.victims_removed()},
            {"edgeChanges", diff.edges.size()},
            {"configChanges", diff.config.size()},
            {"newFindings", diff.new_findings.size()}}},
          {"notes", diff.notes},
          {"decisions", std::move(decisions)},
          {"edges", std::move(edges)},
          {"configChanges", std::move(config)},
          {"newFindings", std::move(findings)}};
}

void render_text(const Diff& diff, std::ostream& out) {
  out << diff_summary(diff) << "\n";
  for (const std::string& n : diff.notes) {
    out << "note: " << n << "\n";
  }
  for (const DecisionChange& c : diff.decisions) {
    out << fmt::format("\n{}  {}  {} -> {}\n", c.subject, c.policy,
                       outcome_text(c.before, c.node_before), outcome_text(c.after, c.node_after));
    if (!c.victims_added.empty()) {
      out << fmt::format("  victims added    {}\n", fmt::join(c.victims_added, ", "));
    }
    if (!c.victims_removed.empty()) {
      out << fmt::format("  victims removed  {}\n", fmt::join(c.victims_removed, ", "));
    }
    out << fmt::format("  why              {}\n", c.why);
    for (const ConfigChange* cc : c.causes) {
      out << fmt::format("  changed          {} ({})\n", cc->object, where(cc->loc));
    }
  }
  if (!diff.edges.empty()) {
    out << "\nwho may preempt whom (PREEMPTOR -> VICTIM: BASE -> HEAD)\n";
    for (const EdgeChange& e : diff.edges) {
      out << fmt::format("  {:<11} {} -> {}: {} -> {}\n", e.policy, e.preemptor, e.victim, e.before,
                         e.after);
    }
  }
  if (!diff.config.empty()) {
    out << "\nconfiguration changes\n";
    for (const ConfigChange& cc : diff.config) {
      out << fmt::format("  {:<8} {}  {}\n", to_string(cc.kind), cc.object, where(cc.loc));
    }
  }
  if (!diff.new_findings.empty()) {
    out << "\nnew lint findings\n";
    for (const LintChange& f : diff.new_findings) {
      out << fmt::format("  {}: {}: {}: {} [{}]\n", where(f.loc), f.level, f.object, f.message,
                         f.rule);
    }
  }
}

// Markdown for a pull-request comment: names are checked API names, messages are quoted in
// code spans so that they cannot carry markup.
std::string code(const std::string& text) {
  std::string t = text;
  std::replace(t.begin(), t.end(), '`', '\'');
  return "`" + t + "`";
}

void render_markdown(const Diff& diff, std::ostream& out) {
  out << "### kpreempt diff\n\n" << diff_summary(diff) << "\n";
  for (const std::string& n : diff.notes) {
    out << "\n> " << n << "\n";
  }
  if (!diff.decisions.empty()) {
    out << "\n| preemptor | policy | base | head | victims added | victims removed | changed "
           "configuration |\n|---|---|---|---|---|---|---|\n";
    for (const DecisionChange& c : diff.decisions) {
      std::vector<std::string> added, removed, causes;
      std::transform(c.victims_added.begin(), c.victims_added.end(), std::back_inserter(added),
                     code);
      std::transform(c.victims_removed.begin(), c.victims_removed.end(),
                     std::back_inserter(removed), code);
      for (const ConfigChange* cc : c.causes) {
        causes.push_back(code(cc->object) + " " + code(where(cc->loc)));
      }
      out << fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", code(c.subject), c.policy,
                         outcome_text(c.before, c.node_before), outcome_text(c.after, c.node_after),
                         fmt::join(added, " "), fmt::join(removed, " "), fmt::join(causes, "<br>"));
    }
  }
  if (!diff.edges.empty()) {
    out << "\n**Who may preempt whom**\n\n| policy | preemptor | victim | base | head |\n"
           "|---|---|---|---|---|\n";
    for (const EdgeChange& e : diff.edges) {
      out << fmt::format("| {} | {} | {} | {} | {} |\n", e.policy, code(e.preemptor),
                         code(e.victim), e.before, e.after);
    }
  }
  if (!diff.new_findings.empty()) {
    out << "\n**New lint findings**\n\n";
    for (const LintChange& f : diff.new_findings) {
      out << fmt::format("- {} {} {}: {}\n", code(where(f.loc)), f.rule, code(f.object),
                         code(f.message));
    }
  }
}

// GitHub workflow commands: one annotation per changed decision, on the head line of each
// configuration object that explains it, else on the file of the first change.
void annotate(std::string_view level, const SourceLoc& loc, const std::string& title,
              const std::string& message, std::ostream& out) {
  std::string props;
  if (!loc.file.empty()) {
    props = " file=" + github_escape(loc.file, true);
    if (loc.line != 0) {
      props += fmt::format(",line={}", loc.line);
    }
    props += ",";
  } else {
    props = " ";
  }
  out << fmt::format("::{}{}title={}::{}\n", level, props, github_escape(title, true),
                     github_escape(message, false));
}

void render_github(const Diff& diff, std::ostream& out) {
  for (const DecisionChange& c : diff.decisions) {
    std::string message =
        fmt::format("{} under {}: {} -> {}", c.subject, c.policy,
                    outcome_text(c.before, c.node_before), outcome_text(c.after, c.node_after));
    if (!c.victims_added.empty()) {
      message += fmt::format("; victims added: {}", fmt::join(c.victims_added, ", "));
    }
    if (!c.victims_removed.empty()) {
      message += fmt::format("; victims removed: {}", fmt::join(c.victims_removed, ", "));
    }
    if (c.causes.empty()) {
      annotate("warning", SourceLoc{}, "preemption changes", message, out);
    }
    for (const ConfigChange* cc : c.causes) {
      annotate("warning", cc->loc, "preemption changes: " + cc->object, message, out);
    }
  }
  for (const LintChange& f : diff.new_findings) {
    annotate(f.level == "error" ? "error" : "warning", f.loc, f.rule + " " + f.object, f.message,
             out);
  }
  out << diff_summary(diff) << "\n";
}

// SARIF for code scanning: a result per changed decision at each configuration object that
// explains it (or at the first changed object), per changed matrix cell, per new finding.
Json sarif_location(const SourceLoc& loc) {
  Json physical = {{"artifactLocation", {{"uri", sarif_uri(loc.file)}}}};
  if (loc.line > 0) {
    physical["region"] = {{"startLine", loc.line}};
  }
  return {{"physicalLocation", std::move(physical)}};
}

Json sarif_result(std::string_view rule, std::string_view level, const std::string& message,
                  const std::vector<SourceLoc>& locs) {
  Json locations = Json::array();
  for (const SourceLoc& loc : locs) {
    if (!loc.file.empty()) {
      locations.push_back(sarif_location(loc));
    }
  }
  return {{"ruleId", rule},
          {"level", level},
          {"message", {{"text", message}}},
          {"locations", std::move(locations)}};
}

void render_sarif(const Diff& diff, std::ostream& out) {
  const SourceLoc fallback = diff.config.empty() ? SourceLoc{} : diff.config.front().loc;
  Json results = Json::array();
  for (const DecisionChange& c : diff.decisions) {
    std::vector<SourceLoc> locs;
    for (const ConfigChange* cc : c.causes) {
      locs.push_back(cc->loc);
    }
    if (locs.empty()) {
      locs.push_back(fallback);
    }
    results.push_back(sarif_result(
        "preemption-decision", "warning",
        fmt::format("{} under {}: {} -> {}; victims added: [{}]; victims removed: [{}]", c.subject,
                    c.policy, outcome_text(c.before, c.node_before),
                    outcome_text(c.after, c.node_after), fmt::join(c.victims_added, ", "),
                    fmt::join(c.victims_removed, ", ")),
        locs));
  }
  for (const EdgeChange& e : diff.edges) {
    results.push_back(sarif_result(
        "preemption-edge", "note",
        fmt::format("{}: {} -> {}: {} -> {}", e.policy, e.preemptor, e.victim, e.before, e.after),
        {fallback}));
  }
  for (const LintChange& f : diff.new_findings) {
    results.push_back(sarif_result(f.rule, f.level == "info" ? "note" : f.level,
                                   f.object + ": " + f.message, {f.loc}));
  }
  Json rules = Json::array();
  rules.push_back({{"id", "preemption-decision"},
                   {"shortDescription", {{"text", "A pending preemptor's decision changes"}}}});
  rules.push_back({{"id", "preemption-edge"},
                   {"shortDescription", {{"text", "Who may preempt whom changes"}}}});
  Json driver = {{"name", "kpreempt diff"}, {"rules", std::move(rules)}};
  Json run = {{"tool", {{"driver", std::move(driver)}}},
              {"results", std::move(results)},
              {"properties", {{"summary", diff_summary(diff)}}}};
  Json doc = {{"$schema", k_sarif_schema}, {"version", "2.1.0"}, {"runs", Json::array({run})}};
  out << doc.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::string_view to_string(ConfigChangeKind k) {
  switch (k) {
    case ConfigChangeKind::added:
      return "added";
    case ConfigChangeKind::removed:
      return "removed";
    case ConfigChangeKind::changed:
      break;
  }
  return "changed";
}

std::size_t Diff::outcome_changes() const {
  return static_cast<std::size_t>(
      std::count_if(decisions.begin(), decisions.end(), [](const DecisionChange& c) {
        return c.before != c.after || c.node_before != c.node_after;
      }));
}

std::size_t Diff::victims_added() const {
  std::size_t n = 0;
  for (const DecisionChange& c : decisions) {
    n += c.victims_added.size();
  }
  return n;
}

std::size_t Diff::victims_removed() const {
  std::size_t n = 0;
  for (const DecisionChange& c : decisions) {
    n += c.victims_removed.size();
  }
  return n;
}

void compare_decisions(const model::Snapshot& base_snap, const std::vector<Explanation>& base,
                       const model::Snapshot& head_snap, const std::vector<Explanation>& head,
                       Diff& diff) {
  using Key = std::pair<std::string, std::string>;  // preemptor, policy
  std::map<Key, Side> base_sides;
  std::set<std::string> subjects;
  for (const Explanation& e : base) {
    const std::string name = preemptor_name(base_snap, e.preemptor, e.workload);
    subjects.insert(name);
    for (const policy::Decision& d : e.decisions) {
      base_sides[{name, d.policy}] = Side{&base_snap, &e, &d};
    }
  }
  std::set<Key> seen;
  for (const Explanation& e : head) {
    const std::string name = preemptor_name(head_snap, e.preemptor, e.workload);
    subjects.insert(name);
    for (const policy::Decision& d : e.decisions) {
      const Key key{name, d.policy};
      seen.insert(key);
      auto it = base_sides.find(key);
      const Side b = it == base_sides.end() ? Side{} : it->second;
      if (auto c = change_of(name, d.policy, b, Side{&head_snap, &e, &d}, diff.config)) {
        diff.decisions.push_back(std::move(*c));
      }
    }
  }
  for (const auto& [key, side] : base_sides) {
    if (!seen.contains(key)) {
      if (auto c = change_of(key.first, key.second, side, Side{}, diff.config)) {
        diff.decisions.push_back(std::move(*c));
      }
    }
  }
  diff.subjects = subjects.size();
}

void compare_edges(const model::Snapshot& base_snap, const model::Snapshot& head_snap, Diff& diff) {
  const auto base = class_views(base_snap);
  const auto head = class_views(head_snap);
  std::set<std::string> names;
  for (const auto* m : {&base, &head}) {
    for (const auto& [name, v] : *m) {
      names.insert(name);
    }
  }
  compare_queue_edges(base_snap.kueue(), head_snap.kueue(), diff);
  const std::vector<policy::ClassView> base_list = values_of(base);
  const std::vector<policy::ClassView> head_list = values_of(head);
  for (const policy::Entry& e : policy::all()) {
    const policy::ClassRules& rules = *e.classes;
    if (rules.cell == nullptr || rules.shown == nullptr ||
        (!rules.shown(base_list) && !rules.shown(head_list))) {
      continue;
    }
    for (const std::string& p : names) {
      for (const std::string& v : names) {
        std::string before = cell_in(rules, base, p, v);
        std::string after = cell_in(rules, head, p, v);
        // A class new or gone on one side shows only where it may preempt or be preempted.
        const bool unseen = (before == "-" || before == "no") && (after == "-" || after == "no");
        if (before != after && !unseen) {
          diff.edges.push_back({std::string(e.name), p, v, std::move(before), std::move(after)});
        }
      }
    }
  }
}

std::optional<DiffFormat> parse_diff_format(std::string_view name) {
  static constexpr std::pair<std::string_view, DiffFormat> k_formats[] = {
      {"text", DiffFormat::text},     {"json", DiffFormat::json},
      {"yaml", DiffFormat::yaml},     {"markdown", DiffFormat::markdown},
      {"github", DiffFormat::github}, {"sarif", DiffFormat::sarif}};
  for (const auto& [n, f] : k_formats) {
    if (n == name) {
      return f;
    }
  }
  return std::nullopt;
}

std::string diff_summary(const Diff& diff) {
  std::string config = diff.config.empty()
                           ? "no configuration object changed"
                           : plural(diff.config.size(), "configuration object changed",
                                    "configuration objects changed");
  std::string more;
  if (!diff.edges.empty()) {
    more += ", " + plural(diff.edges.size(), "preemption edge changed", "preemption edges changed");
  }
  if (!diff.new_findings.empty()) {
    more += ", " + plural(diff.new_findings.size(), "new lint finding", "new lint findings");
  }
  if (diff.decisions.empty()) {
    return fmt::format("no decision changes for {}; {}{}",
                       plural(diff.subjects, "preemptor", "preemptors"), config, more);
  }
  return fmt::format("{} among {} (outcome or node {}, victims added {}, removed {}); {}{}",
                     plural(diff.decisions.size(), "decision changes", "decisions change"),
                     plural(diff.subjects, "preemptor", "preemptors"), diff.outcome_changes(),
                     diff.victims_added(), diff.victims_removed(), config, more);
}

void render_diff(DiffFormat format, const Diff& diff, std::ostream& out) {
  switch (format) {
    case DiffFormat::text:
      render_text(diff, out);
      break;
    case DiffFormat::json:
      print_structured(diff_json(diff), false, out);
      break;
    case DiffFormat::yaml:
      print_structured(diff_json(diff), true, out);
      break;
    case DiffFormat::markdown:
      render_markdown(diff, out);
      break;
    case DiffFormat::sarif:
      render_sarif(diff, out);
      break;
    case DiffFormat::github:
      render_github(diff, out);
      break;
  }
}

}  // namespace kpreempt::render
