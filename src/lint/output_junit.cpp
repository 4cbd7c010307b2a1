// SPDX-License-Identifier: Apache-2.0
// JUnit XML: one testsuite, one testcase per rule that ran. A rule fails (type = its id) only
// with findings at or above --fail-on, so the XML agrees with the exit code; findings below the
// gate are listed in the case's system-out. Each unreadable input is a testcase with an error.
#include "lint/output.h"

#include "kpreempt/render/xml.h"

#include <fmt/format.h>

#include <ostream>

namespace kpreempt::lint {
namespace {

using render::xml_escape;

// One line per finding, whatever its file name holds.
std::string finding_line(const Finding& f) {
  return fmt::format("{}:{}:{}: {}: {} {}\n", printable(f.loc.file), f.loc.line, f.loc.column,
                     to_string(f.severity), printable(full_message(f)), f.field);
}

// One rule's testcase; true when it fails the gate.
bool rule_case(const Rule& r, const Result& res, std::string& out) {
  std::string failing, passing;
  std::size_t count = 0;
  for (const Finding& f : res.findings) {
    if (f.rule != r.id) {
      continue;
    }
    if (res.fail_on && f.severity >= *res.fail_on) {
      ++count;
      failing += finding_line(f);
    } else {
      passing += finding_line(f);
    }
  }
  out += fmt::format("  <testcase classname=\"kpreempt.lint\" name=\"{} {}\">\n", r.id, r.name);
  if (count > 0) {
    out += fmt::format(
        "    <failure type=\"{}\" message=\"{}\">{}</failure>\n", r.id,
        xml_escape(fmt::format("{} finding{}: {}", count, count == 1 ? "" : "s", r.summary)),
        xml_escape(failing));
  }
  if (!passing.empty()) {
    out += fmt::format("    <system-out>{}</system-out>\n", xml_escape(passing));
  }
  out += "  </testcase>\n";
  return count > 0;
}

std::string unreadable_case(const Diagnostic& d) {
  return fmt::format(
      "  <testcase classname=\"kpreempt.lint.inputs\" name=\"{}\">\n"
      "    <error type=\"unreadable-input\" message=\"{}\">{}</error>\n"
      "  </testcase>\n",
      xml_escape(printable(d.loc.file)), xml_escape(printable(d.message)), xml_escape(format(d)));
}

}  // namespace

void write_junit(const Result& r, std::ostream& out) {
  std::size_t failing = 0;
  std::string cases;
  for (const Rule* rule : r.selected) {
    failing += rule_case(*rule, r, cases) ? 1U : 0U;
  }
  for (const Diagnostic& d : r.summary.unreadable) {
    cases += unreadable_case(d);
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << fmt::format(
             "<testsuite name=\"kpreempt lint\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
             "skipped=\"0\">\n",
             r.selected.size() + r.summary.unreadable.size(), failing, r.summary.unreadable.size())
      << fmt::format(
             "  <properties>\n"
             "    <property name=\"summary\" value=\"{}\"/>\n"
             "    <property name=\"files\" value=\"{}\"/>\n"
             "    <property name=\"objects\" value=\"{}\"/>\n"
             "    <property name=\"findings\" value=\"{}\"/>\n"
             "    <property name=\"unreadable_files\" value=\"{}\"/>\n"
             "    <property name=\"skipped_files\" value=\"{}\"/>\n"
             "  </properties>\n",
             xml_escape(summary_line(r)), r.summary.files, r.summary.objects, r.findings.size(),
             r.summary.unreadable.size(), r.summary.skipped.size())
      << cases << "</testsuite>\n";
}

}  // namespace kpreempt::lint
