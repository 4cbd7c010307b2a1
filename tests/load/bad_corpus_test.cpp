// SPDX-License-Identifier: Apache-2.0
// The malformed-input corpus (testdata/bad/): every file through the command line, each with
// the exit code and first message expected.tsv gives it. Whatever the input, never a crash.
#include "support/run.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace kpreempt::test {
namespace {

const std::string k_dir = "testdata/bad";
const std::string k_default_command =
    "explain -f {file} --pod a/p --now 2026-01-01T00:00:00Z --color never";

// One row of expected.tsv: file, exit code, message prefix, and optionally the command.
struct Expectation {
  std::string file;
  int code = 0;
  std::string prefix;  // a leading ':' stands for the file's path
  std::string command;
};

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) {
    out.push_back(field);
  }
  if (!line.empty() && line.back() == sep) {
    out.emplace_back();
  }
  return out;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::vector<Expectation> read_expectations() {
  std::ifstream in(std::string(KPREEMPT_TESTDATA) + "/bad/expected.tsv");
  REQUIRE(in);
  std::vector<Expectation> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    std::vector<std::string> f = split(line, '\t');
    INFO(line);
    REQUIRE(f.size() >= 3);
    Expectation e{f[0], std::stoi(f[1]), f[2], f.size() > 3 ? f[3] : k_default_command};
    out.push_back(std::move(e));
  }
  return out;
}

bool has_line_starting_with(const std::string& output, const std::string& prefix) {
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with(prefix)) {
      return true;
    }
  }
  return false;
}

// Files of the corpus other than the manifest itself and the fuzzers' findings notes.
std::set<std::string> corpus_files() {
  std::set<std::string> out;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(KPREEMPT_TESTDATA) + "/bad")) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && name != "expected.tsv" && name != "README.md") {
      out.insert(name);
    }
  }
  return out;
}

// Runs `command` (words separated by single spaces) in process from the project root, as the
// binary would run there: stdout and stderr together. In process, the sanitizer build checks
// the whole corpus in seconds; a crash or a sanitizer report ends the test run itself.
Run run_in_root(const std::string& command) {
  struct InRoot {
    std::filesystem::path before = std::filesystem::current_path();
    InRoot() { std::filesystem::current_path(std::string(KPREEMPT_TESTDATA) + "/.."); }
    ~InRoot() { std::filesystem::current_path(before); }
  } in_root;
  Run r = run_cli(split(command, ' '));
  r.out += r.err;
  return r;
}

}  // namespace

TEST_CASE("every malformed input gives its exit code and located message", "[bad]") {
  for (const Expectation& e : read_expectations()) {
    const std::string path = k_dir + "/" + e.file;
    const std::string command = replace_all(e.command, "{file}", path);
    Run r = run_in_root(command);
    INFO(e.file << "\n" << command << "\n" << r.out);
    CHECK(r.code == e.code);
    if (e.prefix.empty()) {
      CHECK_FALSE(r.out.find(": error: ") != std::string::npos);
    } else {
      const std::string prefix = e.prefix[0] == ':' ? path + e.prefix : e.prefix;
      CHECK(has_line_starting_with(r.out, prefix));
    }
  }
}

TEST_CASE("every file of the malformed-input corpus has an expectation", "[bad]") {
  std::set<std::string> listed;
  for (const Expectation& e : read_expectations()) {
    CHECK(listed.insert(e.file).second);  // listed once
  }
  CHECK(listed == corpus_files());
}

// In process, like the test above.
TEST_CASE("lint never crashes on a malformed input", "[bad]") {
  for (const std::string& file : corpus_files()) {
    Run r = run_cli({"lint", "-f", std::string(KPREEMPT_TESTDATA) + "/bad/" + file});
    INFO(file << "\n" << r.out << r.err);
    // 0 or 1 (findings) or 2 (input error); 3 is a bug, -1 a signal.
    CHECK(r.code >= 0);
    CHECK(r.code <= 2);
  }
}

}  // namespace kpreempt::test
