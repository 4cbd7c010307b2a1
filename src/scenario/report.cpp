// SPDX-License-Identifier: Apache-2.0
// Printing scenario results: text lines, a JSON document, or JUnit XML for CI systems.
#include "kpreempt/scenario/report.h"

#include "kpreempt/render/xml.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace kpreempt::scenario {
namespace {

using render::xml_escape;

std::size_t count(const std::vector<Result>& results, Status status) {
  return static_cast<std::size_t>(std::count_if(
      results.begin(), results.end(), [status](const Result& r) { return r.status == status; }));
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const std::string& p : parts) {
    out += out.empty() ? "" : separator;
    out += p;
  }
  return out;
}

std::string_view status_word(Status s) {
  switch (s) {
    case Status::passed:
      return "passed";
    case Status::failed:
      return "failed";
    case Status::error:
      return "error";
  }
  return "error";
}

void text(const std::vector<Result>& results, std::ostream& out) {
  for (const Result& r : results) {
    if (r.status == Status::passed) {
      out << "PASS " << r.name << '\n';
    } else {
      out << "FAIL " << r.name << ": " << (r.status == Status::error ? "error: " : "")
          << joined(r.problems, "; ") << '\n';
    }
  }
  std::size_t passed = count(results, Status::passed);
  out << fmt::format("{} passed, {} failed\n", passed, results.size() - passed);
}

// What a check says of its cascade: its counts and, when it loops, the loop.
nlohmann::ordered_json cascade_json(const render::Cascade& c) {
  nlohmann::ordered_json j;
  j["rounds"] = c.rounds.size();
  j["evictions"] = c.evictions;
  j["settled"] = c.settled;
  if (!c.loop) {
    j["loop"] = nullptr;
    return j;
  }
  nlohmann::ordered_json because = nlohmann::ordered_json::array();
  for (const render::CascadeDecision& d : *c.loop) {
    because.push_back(d.because);
  }
  j["loop"] = {{"fromRound", c.loop_from},
               {"afterRound", c.rounds.size()},
               {"cycle", loop_text(c)},
               {"because", std::move(because)}};
  return j;
}

void json(const std::vector<Result>& results, std::ostream& out) {
  nlohmann::ordered_json doc;
  doc["scenarios"] = nlohmann::ordered_json::array();
  for (const Result& r : results) {
    nlohmann::ordered_json s;
    s["name"] = r.name;
    s["path"] = r.case_file;
    s["policy"] = r.policy;
    s["passed"] = r.status == Status::passed;
    s["status"] = status_word(r.status);
    s["problems"] = r.problems;
    if (r.decision) {
      s["outcome"] = policy::to_string(r.decision->outcome);
      s["node"] = r.decision->node;
      s["victims"] = nlohmann::ordered_json::array();
      for (const policy::Victim& v : r.decision->victims) {
        s["victims"].push_back(model::to_string(v.ref));
      }
      s["upstreamLine"] = r.decision->line;
      if (!r.decision->line_from.empty()) {
        s["upstreamFrom"] = r.decision->line_from;
      }
    }
    if (r.placements) {  // a podFile workload, placed in sequence
      s["placed"] = r.placements->placed;
      s["pending"] = r.placements->pending;
    }
    if (r.cascade) {
      s["cascade"] = cascade_json(*r.cascade);
    }
    doc["scenarios"].push_back(std::move(s));
  }
  std::size_t passed = count(results, Status::passed);
  doc["passed"] = passed;
  doc["failed"] = results.size() - passed;
  out << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

void junit(const std::vector<Result>& results, std::ostream& out) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << fmt::format(
      "<testsuite name=\"kpreempt check\" tests=\"{}\" failures=\"{}\" "
      "errors=\"{}\">\n",
      results.size(), count(results, Status::failed), count(results, Status::error));
  for (const Result& r : results) {
    out << fmt::format("  <testcase classname=\"{}\" name=\"{}\" file=\"{}\"", xml_escape(r.policy),
                       xml_escape(r.name), xml_escape(r.case_file));
    if (r.status == Status::passed) {
      out << "/>\n";
      continue;
    }
    const char* tag = r.status == Status::error ? "error" : "failure";
    out << fmt::format(">\n    <{} message=\"{}\">{}</{}>\n  </testcase>\n", tag,
                       xml_escape(joined(r.problems, "; ")), xml_escape(joined(r.problems, "\n")),
                       tag);
  }
  out << "</testsuite>\n";
}

}  // namespace

std::optional<ReportFormat> parse_report_format(std::string_view name) {
  if (name == "text") {
    return ReportFormat::text;
  }
  if (name == "json") {
    return ReportFormat::json;
  }
  if (name == "junit") {
    return ReportFormat::junit;
  }
  return std::nullopt;
}

void report(ReportFormat format, const std::vector<Result>& results, std::ostream& out) {
  switch (format) {
    case ReportFormat::text:
      text(results, out);
      break;
    case ReportFormat::json:
      json(results, out);
      break;
    case ReportFormat::junit:
      junit(results, out);
      break;
  }
}

}  // namespace kpreempt::scenario
