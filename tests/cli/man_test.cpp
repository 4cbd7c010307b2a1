// SPDX-License-Identifier: Apache-2.0
// The man pages: they render without warnings, and every subcommand and every long option
// the program has is documented, so the pages cannot fall behind --help.
#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace kpreempt::test {
namespace {

const std::string k_man_dir = KPREEMPT_TESTDATA "/../man";

// Runs a shell command from the man folder, stderr merged into stdout.
Run sh(const std::string& command) {
  return run_shell("cd '" + k_man_dir + "' && (" + command + ") 2>&1");
}

bool have(const std::string& program) {
  return sh("command -v " + program + " >/dev/null").code == 0;
}

std::string read_page(const std::string& name) {
  std::ifstream in(k_man_dir + "/" + name);
  if (!in) {
    return {};
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// In troff source a "-" that is a minus sign, as in an option, is written "\-".
std::string troff_option(const std::string& name) {
  std::string out = "\\-\\-";
  for (char c : name) {
    out += c == '-' ? std::string("\\-") : std::string(1, c);
  }
  return out;
}

// The page mentions --name as a whole option, not only as the start of a longer one.
bool documents(const std::string& page, const std::string& name) {
  std::string option = troff_option(name);
  for (auto at = page.find(option); at != std::string::npos; at = page.find(option, at + 1)) {
    std::size_t end = at + option.size();
    bool longer = end < page.size() && (std::isalnum(static_cast<unsigned char>(page[end])) ||
                                        page.compare(end, 2, "\\-") == 0);
    if (!longer) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> pages() {
  std::vector<std::string> names{"kpreempt.1"};
  for (const auto& sub : subcommands(run_cli({"--help"}).out)) {
    names.push_back("kpreempt-" + sub + ".1");
  }
  return names;
}

// Text as troff source writes it: a "-" becomes "\-", a leading "." or "'" is escaped.
std::string troff_text(const std::string& text) {
  std::string out = text.starts_with('.') || text.starts_with('\'') ? "\\&" : "";
  for (char c : text) {
    out += c == '-' ? std::string("\\-") : c == '\\' ? std::string("\\e") : std::string(1, c);
  }
  return out;
}

// The lines between ".\" NAME begin" and ".\" NAME end" of a page.
std::string block(const std::string& page, const std::string& name) {
  const std::string begin = ".\\\" " + name + " begin\n";
  const std::string end = ".\\\" " + name + " end\n";
  auto from = page.find(begin);
  auto to = page.find(end);
  if (from == std::string::npos || to == std::string::npos || to < from) {
    return "(no " + name + " block)";
  }
  return page.substr(from + begin.size(), to - from - begin.size());
}

// One ".TP" entry per item: the term in bold, then its meaning.
std::string entries(const nlohmann::json& items, const char* term) {
  std::string out;
  for (const auto& item : items) {
    out += ".TP\n.B " + troff_text(item[term].get<std::string>()) + "\n" +
           troff_text(item["meaning"].get<std::string>()) + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("kpreempt-output(7) lists every reason code and criterion the program has",
          "[completion][man]") {
  Run r = run_cli({"explain", "--codes", "-o", "json"});
  REQUIRE(r.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  const std::string page = read_page("kpreempt-output.7");
  // On a mismatch, the expected block is printed: paste it into the page.
  std::string codes = entries(doc["codes"], "pattern");
  INFO("expected codes block:\n" << codes);
  CHECK(block(page, "codes") == codes);
  std::string criteria = entries(doc["criteria"], "criterion");
  INFO("expected criteria block:\n" << criteria);
  CHECK(block(page, "criteria") == criteria);
}

TEST_CASE("the section 7 pages render without a groff warning", "[completion][man]") {
  if (!have("groff")) {
    SUCCEED("groff is not installed: skipped");
    return;
  }
  Run list = sh("ls *.7");
  REQUIRE(list.code == 0);
  std::istringstream names(list.out);
  for (std::string name; std::getline(names, name);) {
    INFO(name);
    Run r = sh("groff -man -Tutf8 -ww -z " + name);
    CHECK(r.code == 0);
    CHECK(r.out.empty());
  }
}

TEST_CASE("every subcommand has a man page that kpreempt(1) refers to", "[completion][man]") {
  std::string overview = read_page("kpreempt.1");
  REQUIRE(!overview.empty());
  auto subs = subcommands(run_cli({"--help"}).out);
  REQUIRE(subs.size() >= 4);
  for (const auto& sub : subs) {
    INFO(sub);
    CHECK(!read_page("kpreempt-" + sub + ".1").empty());
    CHECK(overview.find(".BR kpreempt\\-" + sub + " (1)") != std::string::npos);
  }
}

TEST_CASE("every long option in --help is in the subcommand's man page", "[completion][man]") {
  for (const auto& sub : subcommands(run_cli({"--help"}).out)) {
    std::string page = read_page("kpreempt-" + sub + ".1");
    for (const auto& flag : long_flags(run_cli({sub, "--help"}).out)) {
      INFO("kpreempt-" << sub << ".1 lacks " << flag);
      CHECK(documents(page, flag.substr(2)));
    }
  }
}

TEST_CASE("every page has the sections a man page needs", "[completion][man]") {
  for (const auto& name : pages()) {
    std::string page = read_page(name);
    INFO(name);
    for (const char* section :
         {".TH ", ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH EXIT STATUS",
          ".SH ENVIRONMENT", ".SH FILES", ".SH EXAMPLES", ".SH SEE ALSO"}) {
      CHECK(page.find(std::string("\n") + section) != std::string::npos);
    }
  }
}

TEST_CASE("every man page renders without a groff warning", "[completion][man]") {
  if (!have("groff")) {
    SUCCEED("groff is not installed: skipped");
    return;
  }
  for (const auto& name : pages()) {
    INFO(name);
    Run r = sh("groff -man -Tutf8 -ww -z " + name);
    CHECK(r.code == 0);
    CHECK(r.out.empty());
  }
}

TEST_CASE("man -l renders kpreempt(1)", "[completion][man]") {
  if (!have("man")) {
    SUCCEED("man is not installed: skipped");
    return;
  }
  Run r = sh("MANWIDTH=80 man -l kpreempt.1 | cat");
  CHECK(r.code == 0);
  CHECK(r.out.find("KPREEMPT(1)") != std::string::npos);
  CHECK(r.out.find("EXIT STATUS") != std::string::npos);
}

TEST_CASE("every environment variable the program reads is in kpreempt(1)", "[completion][man]") {
  const std::string page = read_page("kpreempt.1");
  const std::string environment = page.substr(page.find("\n.SH ENVIRONMENT"));
  Run vars =
      sh("grep -rhoE 'getenv\\(\"[A-Z_]+\"\\)' ../src | sed -E 's/.*\"(.*)\".*/\\1/' | "
         "sort -u");
  REQUIRE(vars.code == 0);
  const std::vector<std::string> names = lines(vars.out);
  CHECK(std::find(names.begin(), names.end(), "KPREEMPT_PAGER") != names.end());
  for (const std::string& name : names) {
    INFO(name);
    CHECK(environment.find("\n.B " + name + "\n") != std::string::npos);
  }
}

}  // namespace kpreempt::test
