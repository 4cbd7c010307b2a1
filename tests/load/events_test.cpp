// SPDX-License-Identifier: Apache-2.0
// The two event sources: event order, positions, format sniffing and syntax errors.
#include "kpreempt/load/events.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace kpreempt::load {
namespace {

// "type@line:col" per event, with scalar text: `s:name@2:3`.
std::vector<std::string> trace(std::string_view text, std::string name = "in") {
  auto src = open_source(text, std::move(name));
  std::vector<std::string> out;
  for (;;) {
    const Event& ev = src->next();
    std::string where = "@" + std::to_string(ev.mark.line) + ":" + std::to_string(ev.mark.column);
    switch (ev.type) {
      case EventType::document_start:
        out.push_back("doc" + where);
        break;
      case EventType::document_end:
        out.push_back("/doc");
        break;
      case EventType::map_start:
        out.push_back("{" + where);
        break;
      case EventType::map_end:
        out.push_back("}");
        break;
      case EventType::seq_start:
        out.push_back("[" + where);
        break;
      case EventType::seq_end:
        out.push_back("]");
        break;
      case EventType::scalar:
        out.push_back((ev.style == ScalarStyle::quoted ? "q:" : "s:") + std::string(ev.text) +
                      where);
        break;
      case EventType::stream_end:
        return out;
    }
  }
}

std::string error_of(std::string_view text, std::string name = "in") {
  try {
    trace(text, std::move(name));
  } catch (const InputError& e) {
    return e.loc().file + ":" + std::to_string(e.loc().line) + ":" +
           std::to_string(e.loc().column) + ": " + e.what();
  }
  return "no error";
}

using V = std::vector<std::string>;

TEST_CASE("YAML events carry 1-based positions and scalar styles", "[load]") {
  CHECK(trace("a: 1\nb:\n- 'x'\n") == V{"doc@1:1", "{@1:1", "s:a@1:1", "s:1@1:4", "s:b@2:1",
                                        "[@3:1", "q:x@3:3", "]", "}", "/doc"});
}

TEST_CASE("JSON events start where their token starts", "[load]") {
  CHECK(trace("{\n  \"a\": [1, \"x\\\"y\", true],\n  \"b\": null\n}") ==
        V{"doc@1:1", "{@1:1", "q:a@2:3", "[@2:8", "s:1@2:9", "q:x\"y@2:12", "s:true@2:20", "]",
          "q:b@3:3", "s:null@3:8", "}", "/doc"});
}

TEST_CASE("concatenated JSON values are separate documents", "[load]") {
  CHECK(trace("{\"a\":1}\n[2]") == V{"doc@1:1", "{@1:1", "q:a@1:2", "s:1@1:6", "}", "/doc",
                                     "doc@2:1", "[@2:1", "s:2@2:2", "]", "/doc"});
}

TEST_CASE("JSON escapes decode to UTF-8", "[load]") {
  CHECK(trace(R"(["\u00e9\ud83d\ude00\n"])") == V{"doc@1:1", "[@1:1", "q:é😀\n@1:2", "]", "/doc"});
}

TEST_CASE("a UTF-8 byte order mark is skipped and does not shift columns", "[load]") {
  CHECK(trace("\xEF\xBB\xBF{\"a\": 1}") ==
        V{"doc@1:1", "{@1:1", "q:a@1:2", "s:1@1:7", "}", "/doc"});
  CHECK(trace("\xEF\xBB\xBF"
              "a: 1\n") == V{"doc@1:1", "{@1:1", "s:a@1:1", "s:1@1:4", "}", "/doc"});
}

TEST_CASE("CRLF line ends count as one line", "[load]") {
  CHECK(trace("a: 1\r\nb: 2\r\n") ==
        V{"doc@1:1", "{@1:1", "s:a@1:1", "s:1@1:4", "s:b@2:1", "s:2@2:4", "}", "/doc"});
  CHECK(trace("{\r\n\"a\":\r\n 1}") == V{"doc@1:1", "{@1:1", "q:a@2:1", "s:1@3:2", "}", "/doc"});
}

TEST_CASE("skipping a JSON value skips nested strings with brackets", "[load]") {
  auto src = open_source(std::string_view(R"({"m": {"x": ["]}", {"y": "\"}"}]}, "k": 2})"), "in");
  CHECK(src->next().type == EventType::document_start);
  CHECK(src->next().type == EventType::map_start);
  CHECK(src->next().text == "m");
  CHECK(src->next().type == EventType::map_start);
  src->skip_value_rest();
  const Event& key = src->next();
  CHECK(key.text == "k");
  CHECK(key.mark.column == 36);
  CHECK(src->next().text == "2");
  CHECK(src->next().type == EventType::map_end);
}

TEST_CASE("skipping a YAML value consumes its end", "[load]") {
  auto src = open_source(std::string_view("m:\n  x: [1, {y: 2}]\nk: 2\n"), "in");
  src->next();
  src->next();
  src->next();
  REQUIRE(src->next().type == EventType::map_start);
  src->skip_value_rest();
  CHECK(src->next().text == "k");
}

TEST_CASE("syntax errors name the file, line, column and problem", "[load]") {
  CHECK(error_of("a: 1\nb: c: d\n", "cluster.yaml") ==
        "cluster.yaml:2:5: mapping values are not allowed in this context");
  CHECK(error_of("{\"a\": 1,\n \"b\" 2}", "c.json") ==
        "c.json:2:6: missing a colon after a name of object member");
  CHECK(error_of("[1, 2", "c.json") == "c.json:1:6: missing a comma or ']' after an array element");
  CHECK(error_of("[tru]") == "in:1:5: invalid value");
  CHECK(error_of("[\"a\\x\"]") == "in:1:4: invalid escape character in string");
}

TEST_CASE("YAML anchors and aliases are refused", "[load]") {
  CHECK(error_of("a: &x 1\nb: *x\n") == "in:1:4: YAML anchors are not supported");
  CHECK(error_of("a: 1\nb: *x\n") == "in:2:4: YAML aliases are not supported");
}

TEST_CASE("stdin is called <stdin> in messages", "[load]") {
  CHECK(error_of("a: [", "-").rfind("<stdin>:", 0) == 0);
}

}  // namespace
}  // namespace kpreempt::load
