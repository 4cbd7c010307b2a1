// SPDX-License-Identifier: Apache-2.0
// The kubectl reader against libyaml: on every input it takes, the same events (types, marks,
// texts, styles); on the rest, a decline with libyaml's first events handed out before it.
#include "load/kubectl_yaml.h"

#include "load/byte_reader.h"
#include "load/sources.h"

#include "kpreempt/diag.h"
#include "kpreempt/load/events.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace kpreempt::load;
namespace fs = std::filesystem;

std::string show(const Event& e) {
  return fmt::format("{}@{}:{} {}'{}'", static_cast<int>(e.type), e.mark.line, e.mark.column,
                     e.style == ScalarStyle::quoted ? "q" : "", e.text);
}

template <typename Failure>
std::vector<std::string> events(EventSource& src, bool& failed) {
  std::vector<std::string> out;
  try {
    for (;;) {
      const Event& e = src.next();
      out.push_back(show(e));
      if (e.type == EventType::stream_end) {
        return out;
      }
    }
  } catch (const Failure&) {
    failed = true;
  }
  return out;
}

enum class Outcome { taken, declined };

// Runs both readers over `text` and checks the kubectl reader's promise.
Outcome compare(const std::string& text) {
  bool yaml_failed = false;
  std::vector<std::string> want;
  try {
    auto libyaml = make_yaml_source(std::make_unique<ByteReader>(text, "in.yaml"));
    want = events<kpreempt::InputError>(*libyaml, yaml_failed);
  } catch (const kpreempt::InputError&) {
    yaml_failed = true;
  }
  bool declined = false;
  auto kubectl = make_kubectl_yaml_source(std::make_unique<ByteReader>(text, "in.yaml"));
  const std::vector<std::string> got = events<ScanDeclined>(*kubectl, declined);
  if (!declined) {
    INFO(text);
    CHECK_FALSE(yaml_failed);
    CHECK(got == want);
    return Outcome::taken;
  }
  const std::size_t common = std::min(got.size(), want.size());
  INFO(text);
  CHECK(std::equal(got.begin(), got.begin() + common, want.begin()));
  CHECK((yaml_failed || got.size() <= want.size()));
  return Outcome::declined;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// What kubectl writes, and what go-yaml writes for the awkward values.
const std::vector<std::string> k_taken = {
    "a: 1\nb: \"1\"\nc: '1'\nd: null\ne: ~\nf:\ng: ''\nh: \"\"\n",
    "a: b   \nc: 'd'  \ne: \"f\" \n",
    "a:\n- x\n- y\nb: c\n",
    "a:\n  - x\n  - - y\n    - z\n  - - - w\n",
    "- a: 1\n  b:\n  - c\n  - d: e\n    f: g\n- h\n- - i\n",
    "ключ: значение\n\"é\": 'ü'\nzh: 日本語のテキスト\nemoji: \"\\U0001F600 😀\"\n",
    "a: \"\\x41\\u00e9\\U0001F600\\t\\n\\\\\\\"\\/\\0\\N\\_\\L\\P\\e\\a\\b\\v\\f\\r\\ \"\n",
    "a: \"abc \\\n    def\\\n\n    ghi \\\n  \"\n",
    "a: 'one two  \n  three\n\n  four''s'\nb: 'x\n\n\n  y'\n",
    "a: one two\n  three\n\n\n  four\nb: x\n",
    "- one\n  two\n- 'three\n  four'\n",
    "a: |\n  line1\n   line2\n\n  line3\n\nb: |-\n  x\nc: |+\n  y\n\n\nd: |2\n    lead\ne: |\nf: "
    "x\n",
    "a:\n  b: |\n    #not a comment\n    key: value\n    - item\n\n  c: |-\n      deeper\n",
    "- |\n  item text\n- x\n",
    "a: {}\nb: []\nc:\n- []\n- {}\n",
    "a:\n",
    "a: b",
    "a:",
    "- a\n- b\n",
    "a:b: c\nhttp://x: y\n-x: 1\n?y: 2\n:z: 3\n",
    "a: b\n  - c\n",
    "a:  two spaces\nb:    \n  c: d\n",
    "a: '#no comment' \nb: x#y\nc: \"a # b\"\n",
    "a: -1\nb: -\"x\"\nc: ?x\nd: :x\ne: 'a''b'\nf: ''''\n",
    "\n\n  \na: b\n\n\n",
    "---a: b\n....: c\n--: d\n",
    "a: b\n\n  \n",
    "a:\n  b:\n    c: d\n   ",
    "a:\n- b:\n  - c\n      ",
    "a:\n  b: |\n    x\n  ",
    "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    annotations:\n"
    "      kubectl.kubernetes.io/last-applied-configuration: |\n        {\"a\":1}\n"
    "    name: p\n  status:\n    conditions:\n    - message: '0/3 nodes are available: 3 "
    "Insufficient cpu. preemption: 0/3 nodes\n        are available: 3 No preemption "
    "victims found for incoming pod.'\n      type: PodScheduled\nkind: List\nmetadata:\n"
    "  resourceVersion: \"\"\n",
};

// Outside the subset, or not YAML at all: declined.
const std::vector<std::string> k_declined = {
    "a: b: c\n",
    "a: b # c\n",
    "# c\na: b\n",
    "a: &x b\n",
    "a: *x\n",
    "a: !!str b\n",
    "a: [1, 2]\n",
    "a: {b: c}\n",
    "---\na: b\n",
    "a: b\n...\n",
    "a:\n...  b: c\n",
    "a:\n--- b: c\n",
    "- a\n---\n- b\n",
    "a:\tb\n",
    "a: \"f\"\t\n",
    "a: b\r\n",
    "\xEF\xBB\xBF"
    "a: b\n",
    "a: \xC2\x85\n",
    "a: \xE2\x80\xA8\n",
    "a: \xFF\n",
    "a: \xC0\x80\n",
    "a: \"\\q\"\n",
    "a: \"\\uD800\"\n",
    "a: 'open\n",
    "a: 'open\nb: c\n",
    "",
    "\n\n",
    "? a\n: b\n",
    "a:\n   b: c\n  d: e\n",
    "a: x\n  b: c\n",
    "a: 'x'\n  b: c\n",
    "a: >\n  folded\n",
    "a: |0\n  x\n",
    "a: |\n    x\n  y\n",
    "-\n  a: b\n",
    "-   x\n",
    "a : b\n",
    "\"a\" : b\n",
    "  a: b\n",
    "a: b\n- c\n",
    "- a\nb: c\n",
    "a: @x\n",
    "a: `x\n",
    "a: %x\n",
    "a: |\n  x\n # c\n",
    "a: -\n",
    std::string(1100, 'k') + ": v\n",
};

}  // namespace

TEST_CASE("the kubectl reader gives libyaml's events for what kubectl writes", "[load][yaml]") {
  for (const std::string& text : k_taken) {
    CHECK(compare(text) == Outcome::taken);
  }
}

TEST_CASE("the kubectl reader declines the rest, before any event that differs", "[load][yaml]") {
  for (const std::string& text : k_declined) {
    CHECK(compare(text) == Outcome::declined);
  }
}

TEST_CASE("the kubectl reader declines a nesting deeper than the loader takes", "[load][yaml]") {
  std::string deep;
  for (int i = 0; i < 3000; ++i) {
    deep += "- ";
  }
  CHECK(compare(deep + "x\n") == Outcome::declined);
  CHECK(compare("- - - - x\n      - y\n") == Outcome::taken);
}

TEST_CASE("the kubectl reader equals libyaml on every YAML file of the test data", "[load][yaml]") {
  std::size_t taken = 0, files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(KPREEMPT_TESTDATA)) {
    const fs::path& p = entry.path();
    if (!entry.is_regular_file() || (p.extension() != ".yaml" && p.extension() != ".yml")) {
      continue;
    }
    ++files;
    if (compare(slurp(p)) == Outcome::taken) {
      ++taken;
    }
  }
  CHECK(files > 500);
  CHECK(taken > 50);
}

TEST_CASE("the kubectl reader takes the generated dumps of the test data whole", "[load][yaml]") {
  const std::string dir = std::string(KPREEMPT_TESTDATA);
  for (const char* file : {"/load/list/kubectl-list.yaml", "/cli/batch/kueue-small.yaml",
                           "/cli/batch/pending-50.yaml"}) {
    CHECK(compare(slurp(dir + file)) == Outcome::taken);
  }
}

TEST_CASE("every cut of a kubectl List is taken or declined as the promise says", "[load][yaml]") {
  // Prefixes end inside scalars, keys and block texts: each is its own input.
  const std::string list = slurp(std::string(KPREEMPT_TESTDATA) + "/load/list/kubectl-list.yaml");
  for (std::size_t n = 0; n < std::min<std::size_t>(list.size(), 4000); n += 7) {
    compare(list.substr(0, n));
  }
}
