// SPDX-License-Identifier: Apache-2.0
// `kpreempt lint`: static checks of PriorityClasses, their users and the queue configurations
// of Kueue, YuniKorn and ElasticQuota, with the rule catalogue and the report formats.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/load/scan.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::lint {

enum class Level { info, warning, error };

std::string_view to_string(Level l);
// "error", "warning", "info" -> Level; "never" and anything else -> nullopt.
std::optional<Level> parse_level(std::string_view text);

struct Finding {
  std::string rule;  // "PC001"
  Level severity = Level::error;
  std::string message;
  std::string object;  // "PriorityClass/high", "Pod/shop/p", "queues.yaml:default/root.a"
  std::string field;   // ".value", ".metadata.annotations[\"...\"]"
  SourceLoc loc;
};

// Which `lint` subcommand a rule belongs to.
enum class Group { priorityclasses, queues };

class Context;
class Report;
using CheckFn = void (*)(const Context& ctx, Report& out);

struct Rule {
  std::string_view id;
  std::string_view name;
  Level severity;
  std::string_view summary;
  std::string_view help;
  CheckFn check;
  // Policies the rule is relevant to, comma separated, or "all".
  std::string_view policies = "all";
};

// The catalogue, in id order.
const std::vector<Rule>& rules();
const Rule* find_rule(std::string_view id_or_name);
Group group_of(const Rule& r);

struct Options {
  std::vector<Group> groups{Group::priorityclasses, Group::queues};
  std::vector<std::string> policies;                // empty: all
  std::vector<std::string> only, enable, disable;   // ids or names
  std::optional<std::pair<int, int>> kube_version;  // major, minor
  std::int64_t autoscaler_cutoff = -10;
  // Folders holding Helm templates that were not read: uses of a class may hide there (PC018).
  std::vector<std::string> template_folders;
};

// The rules a run evaluates. Throws UsageError for an unknown rule or policy.
std::vector<const Rule*> select_rules(const Options& o);

// Lints `input` (the manifests) against `baseline` (objects as they are now).
std::vector<Finding> run(const std::vector<load::ScannedObject>& input,
                         const std::vector<load::ScannedObject>& baseline, const Options& o,
                         const std::vector<const Rule*>& selected);

// Whether `o` is an object one of `groups`' rules reads (the "linted" count of the summary).
bool read_by(const load::ScannedObject& o, const std::vector<Group>& groups);

// A file the walk did not lint on purpose, and why ("Helm chart template", "--exclude ...").
struct SkippedFile {
  std::string path;
  std::string reason;
};

// What a run read: every format reports the same counts.
struct Summary {
  std::size_t files = 0;               // files read without a problem, objects or not
  std::size_t objects = 0;             // objects a selected rule reads
  std::size_t other_objects = 0;       // objects of kinds no selected rule reads
  std::vector<Diagnostic> unreadable;  // one per file that could not be read (or part of it)
  std::vector<SkippedFile> skipped;
};

// Everything a report shows. `fail_on` is the gate (nullopt: --fail-on never); formats with
// a pass/fail notion (JUnit) fail exactly the findings the gate fails on.
struct Result {
  std::vector<Finding> findings;
  std::vector<const Rule*> selected;  // the rules that ran (SARIF and JUnit list them)
  Summary summary;
  std::optional<Level> fail_on = Level::error;
};

// Findings at or above the gate.
bool gate_fails(const Result& r);

// "linted 14 objects from 6 files: 3 findings (1 error, 2 warnings)", with unreadable and
// skipped files when there are any.
std::string summary_line(const Result& r);

enum class Format { text, json, sarif, github, junit };
std::optional<Format> parse_format(std::string_view text);

void write(Format f, const Result& r, std::ostream& out);

}  // namespace kpreempt::lint
