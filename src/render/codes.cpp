// SPDX-License-Identifier: Apache-2.0
// `explain --codes`: the reason vocabulary from the one code table, so the words in any answer
// can be looked up without reading the source.
#include "render/document.h"
#include "render/structured.h"
#include "render/table.h"

#include "kpreempt/render/html.h"
#include "kpreempt/render/render.h"

#include <ostream>
#include <sstream>

namespace kpreempt::render {
namespace {

std::string_view subject_word(policy::SubjectKind kind) {
  switch (kind) {
    case policy::SubjectKind::none:
      break;
    case policy::SubjectKind::node:
      return "NODE";
    case policy::SubjectKind::nodes:
      return "NODE,...";
    case policy::SubjectKind::pdb:
      return "NAMESPACE/PDB";
    case policy::SubjectKind::plugin:
      return "PLUGIN";
    case policy::SubjectKind::criterion:
      return "CRITERION";
    case policy::SubjectKind::reason:
      return "CODE";
    case policy::SubjectKind::time:
      return "TIME";
    case policy::SubjectKind::scheduler:
      return "SCHEDULER";
    case policy::SubjectKind::gates:
      return "GATE,...";
    case policy::SubjectKind::queue:
      return "QUEUE";
  }
  return "";
}

// The code as it prints with a placeholder for its subject: "lost:CRITERION".
std::string pattern(const policy::CodeInfo& c) {
  std::string_view subject = subject_word(c.subject);
  return subject.empty() ? std::string(c.name) : fmt::format("{}:{}", c.name, subject);
}

nlohmann::ordered_json codes_json() {
  nlohmann::ordered_json codes = nlohmann::ordered_json::array();
  for (const policy::CodeInfo& c : policy::codes()) {
    codes.push_back({{"code", c.name}, {"pattern", pattern(c)}, {"meaning", c.sentence}});
  }
  nlohmann::ordered_json criteria = nlohmann::ordered_json::array();
  for (const policy::CriterionInfo& c : policy::criteria()) {
    criteria.push_back({{"criterion", c.name}, {"meaning", c.sentence}});
  }
  return {{"apiVersion", k_api_version},
          {"kind", "ReasonCodes"},
          {"codes", std::move(codes)},
          {"criteria", std::move(criteria)}};
}

}  // namespace

void render_codes(Format format, std::ostream& out) {
  if (format == Format::json || format == Format::yaml) {
    print_structured(codes_json(), format == Format::yaml, out);
    return;
  }
  if (format == Format::html) {
    std::ostringstream text;
    render_codes(Format::text, text);
    render_text_html("kpreempt reason codes", text.str(), out);
    return;
  }
  Table codes({"CODE", "MEANING"});
  for (const policy::CodeInfo& c : policy::codes()) {
    codes.add({pattern(c), std::string(c.sentence)});
  }
  codes.print(out, 0);
  out << "\nnode-pick criteria (lost:CRITERION), compared in this order\n";
  Table criteria({"CRITERION", "MEANING"});
  for (const policy::CriterionInfo& c : policy::criteria()) {
    criteria.add({std::string(c.name), std::string(c.sentence)});
  }
  criteria.print(out, 0);
}

}  // namespace kpreempt::render
