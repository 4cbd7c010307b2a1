// SPDX-License-Identifier: Apache-2.0
// SARIF 2.1.0 for GitHub code scanning: one run, the selected rules as reportingDescriptors,
// one result per finding with a repository-relative artifact URI.
#include "lint/output.h"

#include "kpreempt/render/ci_formats.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace kpreempt::lint {
namespace {

std::string sarif_level(Level l) {
  return l == Level::error ? "error" : l == Level::warning ? "warning" : "note";
}

nlohmann::ordered_json descriptor(const Rule& r) {
  return {{"id", r.id},
          {"name", r.name},
          {"shortDescription", {{"text", r.summary}}},
          {"fullDescription", {{"text", r.summary}}},
          {"help", {{"text", r.help}}},
          {"defaultConfiguration", {{"level", sarif_level(r.severity)}}},
          {"properties", {{"tags", {"kubernetes", "preemption"}}}}};
}

nlohmann::ordered_json result(const Finding& f, std::size_t index) {
  nlohmann::ordered_json physical = {
      {"artifactLocation", {{"uri", render::sarif_uri(f.loc.file)}}}};
  if (f.loc.line > 0) {
    physical["region"] = {{"startLine", f.loc.line},
                          {"startColumn", std::max<std::uint32_t>(f.loc.column, 1)}};
  }
  nlohmann::ordered_json loc = {{"physicalLocation", physical}};
  loc["logicalLocations"] = {{{"fullyQualifiedName", f.object + f.field}}};
  return {{"ruleId", f.rule},
          {"ruleIndex", index},
          {"level", sarif_level(f.severity)},
          {"message", {{"text", full_message(f)}}},
          {"locations", {loc}}};
}

// Unreadable inputs are tool execution notifications, not results: code scanning shows them
// as a failed analysis of that file instead of an alert of some rule.
nlohmann::ordered_json invocation(const Result& r) {
  nlohmann::ordered_json notes = nlohmann::ordered_json::array();
  for (const Diagnostic& d : r.summary.unreadable) {
    nlohmann::ordered_json physical = {
        {"artifactLocation", {{"uri", render::sarif_uri(d.loc.file)}}}};
    if (d.loc.line > 0) {
      physical["region"] = {{"startLine", d.loc.line},
                            {"startColumn", std::max<std::uint32_t>(d.loc.column, 1)}};
    }
    notes.push_back({{"level", "error"},
                     {"message", {{"text", d.message}}},
                     {"locations", {{{"physicalLocation", physical}}}}});
  }
  return {{"executionSuccessful", r.summary.unreadable.empty()},
          {"toolExecutionNotifications", notes}};
}

nlohmann::ordered_json counts(const Result& r) {
  return {{"summary", summary_line(r)},
          {"files", r.summary.files},
          {"objects", r.summary.objects},
          {"findings", r.findings.size()},
          {"unreadableFiles", r.summary.unreadable.size()},
          {"skippedFiles", r.summary.skipped.size()}};
}

}  // namespace

void write_sarif(const Result& r, std::ostream& out) {
  std::vector<const Rule*> listed = r.selected;
  nlohmann::ordered_json rules = nlohmann::ordered_json::array();
  auto index_of = [&](const std::string& id) {
    for (std::size_t i = 0; i < listed.size(); ++i) {
      if (listed[i]->id == id) {
        return i;
      }
    }
    listed.push_back(find_rule(id));  // a finding of a rule not selected: still describe it
    return listed.size() - 1;
  };
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const Finding& f : r.findings) {
    results.push_back(result(f, index_of(f.rule)));
  }
  for (const Rule* rule : listed) {
    rules.push_back(descriptor(*rule));
  }
  nlohmann::ordered_json driver = {
      {"name", "kpreempt"}, {"version", KPREEMPT_VERSION}, {"rules", rules}};
  nlohmann::ordered_json run = {{"tool", {{"driver", driver}}},
                                {"invocations", {invocation(r)}},
                                {"columnKind", "unicodeCodePoints"},
                                {"results", results},
                                {"properties", counts(r)}};
  nlohmann::ordered_json doc = {
      {"$schema", render::k_sarif_schema}, {"version", "2.1.0"}, {"runs", {run}}};
  // A file name that is not UTF-8 is shown with U+FFFD rather than failing the run.
  out << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

}  // namespace kpreempt::lint
