// SPDX-License-Identifier: Apache-2.0
// Plain report formats: text (one line per finding, nothing when clean), JSON, and GitHub
// Actions workflow commands. SARIF and JUnit have files of their own.
#include "lint/output.h"

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

// GitHub workflow-command escaping: data escapes %, CR, LF; properties also ':' and ','.
std::string gh_escape(std::string_view s, bool property) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void write_text(const std::vector<Finding>& findings, std::ostream& out) {
  for (const Finding& f : findings) {
    out << location(f.loc) << ": " << to_string(f.severity) << ": " << full_message(f) << " ["
        << f.rule << "]\n";
  }
}

void write_json(const std::vector<Finding>& findings, std::ostream& out) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Finding& f : findings) {
    const Rule* r = find_rule(f.rule);
    list.push_back({{"rule", f.rule},
                    {"name", r != nullptr ? std::string(r->name) : std::string()},
                    {"severity", to_string(f.severity)},
                    {"message", f.message},
                    {"object", f.object},
                    {"field", f.field},
                    {"file", f.loc.file},
                    {"line", f.loc.line},
                    {"column", f.loc.column}});
  }
  nlohmann::ordered_json doc = {{"findings", list}};
  out << doc.dump(2) << '\n';
}

void write_github(const std::vector<Finding>& findings, std::ostream& out) {
  for (const Finding& f : findings) {
    std::string_view cmd = f.severity == Level::error     ? "error"
                           : f.severity == Level::warning ? "warning"
                                                          : "notice";
    out << "::" << cmd << " file=" << gh_escape(f.loc.file, true) << ",line=" << f.loc.line
        << ",col=" << f.loc.column << ",title=" << gh_escape(f.rule, true)
        << "::" << gh_escape(full_message(f), false) << '\n';
  }
}

}  // namespace

std::string full_message(const Finding& f) {
  return f.object.empty() ? f.message : f.object + ": " + f.message;
}

void write(Format format, const std::vector<Finding>& findings,
           const std::vector<const Rule*>& selected, std::ostream& out) {
  switch (format) {
    case Format::text:
      write_text(findings, out);
      break;
    case Format::json:
      write_json(findings, out);
      break;
    case Format::github:
      write_github(findings, out);
      break;
    case Format::sarif:
      write_sarif(findings, selected, out);
      break;
    case Format::junit:
      write_junit(findings, selected, out);
      break;
  }
}

}  // namespace kpreempt::lint
