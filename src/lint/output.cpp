// SPDX-License-Identifier: Apache-2.0
// Plain report formats: text (one line per finding, nothing when clean; the summary goes to
// stderr), JSON, and GitHub Actions workflow commands. SARIF and JUnit have files of their own.
#include "lint/output.h"

#include "kpreempt/render/ci_formats.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace kpreempt::lint {
namespace {

std::string location(const SourceLoc& l) {
  std::string out = l.file.empty() ? "kpreempt" : l.file;
  if (l.line > 0) {
    out += ":" + std::to_string(l.line);
    if (l.column > 0) {
      out += ":" + std::to_string(l.column);
    }
  }
  return out;
}

void write_text(const std::vector<Finding>& findings, std::ostream& out) {
  for (const Finding& f : findings) {
    out << printable(location(f.loc)) << ": " << to_string(f.severity) << ": "
        << printable(full_message(f)) << " [" << f.rule << "]\n";
  }
}

nlohmann::ordered_json summary_json(const Result& r) {
  std::size_t counts[3] = {0, 0, 0};
  for (const Finding& f : r.findings) {
    ++counts[static_cast<int>(f.severity)];
  }
  return {{"files", r.summary.files},
          {"objects", r.summary.objects},
          {"other_objects", r.summary.other_objects},
          {"unreadable_files", r.summary.unreadable.size()},
          {"skipped_files", r.summary.skipped.size()},
          {"findings", r.findings.size()},
          {"errors", counts[2]},
          {"warnings", counts[1]},
          {"infos", counts[0]},
          {"fail_on", r.fail_on ? std::string(to_string(*r.fail_on)) : "never"},
          {"gate_failed", gate_fails(r)}};
}

void write_json(const Result& r, std::ostream& out) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Finding& f : r.findings) {
    const Rule* rule = find_rule(f.rule);
    list.push_back({{"rule", f.rule},
                    {"name", rule != nullptr ? std::string(rule->name) : std::string()},
                    {"severity", to_string(f.severity)},
                    {"message", f.message},
                    {"object", f.object},
                    {"field", f.field},
                    {"file", f.loc.file},
                    {"line", f.loc.line},
                    {"column", f.loc.column}});
  }
  nlohmann::ordered_json unreadable = nlohmann::ordered_json::array();
  for (const Diagnostic& d : r.summary.unreadable) {
    unreadable.push_back({{"file", d.loc.file},
                          {"line", d.loc.line},
                          {"column", d.loc.column},
                          {"message", d.message}});
  }
  nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
  for (const SkippedFile& f : r.summary.skipped) {
    skipped.push_back({{"file", f.path}, {"reason", f.reason}});
  }
  nlohmann::ordered_json doc = {{"summary", summary_json(r)},
                                {"findings", list},
                                {"unreadable", unreadable},
                                {"skipped", skipped}};
  out << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

void write_github(const Result& r, std::ostream& out) {
  for (const Finding& f : r.findings) {
    std::string_view cmd = f.severity == Level::error     ? "error"
                           : f.severity == Level::warning ? "warning"
                                                          : "notice";
    out << "::" << cmd << " file=" << render::github_escape(f.loc.file, true)
        << ",line=" << f.loc.line << ",col=" << f.loc.column
        << ",title=" << render::github_escape(f.rule, true)
        << "::" << render::github_escape(full_message(f), false) << '\n';
  }
  // Unreadable inputs are not findings of a rule: a warning annotation on the file, while
  // the exit code (2) fails the step.
  for (const Diagnostic& d : r.summary.unreadable) {
    out << "::warning file=" << render::github_escape(d.loc.file, true) << ",line=" << d.loc.line
        << ",col=" << d.loc.column
        << ",title=" << render::github_escape("kpreempt: input not linted", true)
        << "::" << render::github_escape(d.message, false) << '\n';
  }
  out << "::notice title=kpreempt lint::" << render::github_escape(summary_line(r), false) << '\n';
}

}  // namespace

std::string full_message(const Finding& f) {
  return f.object.empty() ? f.message : f.object + ": " + f.message;
}

void write(Format format, const Result& r, std::ostream& out) {
  switch (format) {
    case Format::text:
      write_text(r.findings, out);
      break;
    case Format::json:
      write_json(r, out);
      break;
    case Format::github:
      write_github(r, out);
      break;
    case Format::sarif:
      write_sarif(r, out);
      break;
    case Format::junit:
      write_junit(r, out);
      break;
  }
}

}  // namespace kpreempt::lint
