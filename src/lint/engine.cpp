// SPDX-License-Identifier: Apache-2.0
// Rule selection (groups, --policy, --only/--enable/--disable) and running the selected rules
// over the corpus, with findings in file and position order.
#include "lint/checks.h"

#include "kpreempt/policy/policy.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace kpreempt::lint {
namespace {

bool relevant(const Rule& r, const std::vector<std::string>& policies) {
  if (policies.empty() || r.policies == "all") {
    return true;
  }
  std::string_view list = r.policies;
  return std::any_of(policies.begin(), policies.end(), [&](const std::string& p) {
    for (std::size_t start = 0; start <= list.size();) {
      std::size_t comma = list.find(',', start);
      std::string_view item = list.substr(start, comma - start);
      if (item == p) {
        return true;
      }
      if (comma == std::string_view::npos) {
        break;
      }
      start = comma + 1;
    }
    return false;
  });
}

std::set<std::string_view> ids(const std::vector<std::string>& names, const char* flag) {
  std::set<std::string_view> out;
  for (const std::string& n : names) {
    const Rule* r = find_rule(n);
    if (r == nullptr) {
      throw UsageError(fmt::format("{}: unknown rule \"{}\"", flag, n));
    }
    out.insert(r->id);
  }
  return out;
}

}  // namespace

std::string_view to_string(Level l) {
  switch (l) {
    case Level::error:
      return "error";
    case Level::warning:
      return "warning";
    case Level::info:
      return "info";
  }
  return "error";
}

std::optional<Level> parse_level(std::string_view text) {
  if (text == "error") {
    return Level::error;
  }
  if (text == "warning") {
    return Level::warning;
  }
  if (text == "info") {
    return Level::info;
  }
  return std::nullopt;
}

std::optional<Format> parse_format(std::string_view text) {
  if (text == "text") {
    return Format::text;
  }
  if (text == "json") {
    return Format::json;
  }
  if (text == "sarif") {
    return Format::sarif;
  }
  if (text == "github") {
    return Format::github;
  }
  if (text == "junit") {
    return Format::junit;
  }
  return std::nullopt;
}

std::vector<const Rule*> select_rules(const Options& o) {
  for (const std::string& p : o.policies) {
    if (policy::find(p) == nullptr) {
      throw UsageError(fmt::format("--policy: unknown policy \"{}\"", p));
    }
  }
  std::set<std::string_view> only = ids(o.only, "--only");
  std::set<std::string_view> enable = ids(o.enable, "--enable");
  std::set<std::string_view> disable = ids(o.disable, "--disable");
  std::vector<const Rule*> out;
  for (const Rule& r : rules()) {
    bool in_group = std::find(o.groups.begin(), o.groups.end(), group_of(r)) != o.groups.end();
    bool chosen = o.only.empty() ? in_group && relevant(r, o.policies) : only.contains(r.id);
    if ((chosen || enable.contains(r.id)) && !disable.contains(r.id)) {
      out.push_back(&r);
    }
  }
  return out;
}

std::vector<Finding> run(const std::vector<load::ScannedObject>& input,
                         const std::vector<load::ScannedObject>& baseline, const Options& o,
                         const std::vector<const Rule*>& selected) {
  Corpus corpus(input, baseline);
  Context ctx(corpus, o);
  std::vector<Finding> out;
  for (const Rule* r : selected) {
    Report report(*r, out);
    r->check(ctx, report);
  }
  std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.loc.file, a.loc.line, a.loc.column, a.rule) <
           std::tie(b.loc.file, b.loc.line, b.loc.column, b.rule);
  });
  return out;
}

}  // namespace kpreempt::lint
