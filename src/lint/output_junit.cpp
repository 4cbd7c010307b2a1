// SPDX-License-Identifier: Apache-2.0
// JUnit XML: one testsuite, one testcase per rule that ran; a rule with findings fails with
// type = its id and every finding in the failure body.
#include "lint/output.h"

#include "kpreempt/render/xml.h"

#include <fmt/format.h>

#include <ostream>

namespace kpreempt::lint {
using render::xml_escape;

void write_junit(const std::vector<Finding>& findings, const std::vector<const Rule*>& selected,
                 std::ostream& out) {
  std::size_t failing = 0;
  std::string cases;
  for (const Rule* r : selected) {
    std::string body;
    std::size_t count = 0;
    for (const Finding& f : findings) {
      if (f.rule == r->id) {
        ++count;
        body += fmt::format("{}:{}:{}: {}: {} {}\n", f.loc.file, f.loc.line, f.loc.column,
                            to_string(f.severity), full_message(f), f.field);
      }
    }
    cases +=
        fmt::format("  <testcase classname=\"kpreempt.lint\" name=\"{} {}\">\n", r->id, r->name);
    if (count > 0) {
      ++failing;
      cases += fmt::format(
          "    <failure type=\"{}\" message=\"{}\">{}</failure>\n", r->id,
          xml_escape(fmt::format("{} finding{}: {}", count, count == 1 ? "" : "s", r->summary)),
          xml_escape(body));
    }
    cases += "  </testcase>\n";
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << fmt::format(
             "<testsuite name=\"kpreempt lint\" tests=\"{}\" failures=\"{}\" "
             "errors=\"0\" skipped=\"0\">\n",
             selected.size(), failing)
      << cases << "</testsuite>\n";
}

}  // namespace kpreempt::lint
