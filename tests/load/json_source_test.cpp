// SPDX-License-Identifier: Apache-2.0
// The JSON source's hand-over between its parsing thread and the reader: errors after many
// batches, abandoned sources, many documents, long strings, chunk boundaries and limits.
#include "load/file_of.h"

#include "kpreempt/load/events.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace kpreempt::load {
namespace {

using test::file_of;

std::string where(const Event& ev) {
  return std::to_string(ev.mark.line) + ":" + std::to_string(ev.mark.column);
}

// Every event as "type text@line:col".
std::vector<std::string> dump(EventSource& src) {
  std::vector<std::string> out;
  for (;;) {
    const Event& ev = src.next();
    out.push_back(std::to_string(static_cast<int>(ev.type)) + " " + std::string(ev.text) + "@" +
                  where(ev));
    if (ev.type == EventType::stream_end) {
      return out;
    }
  }
}

std::string error_of(EventSource& src) {
  try {
    dump(src);
  } catch (const InputError& e) {
    return e.loc().file + ":" + std::to_string(e.loc().line) + ":" +
           std::to_string(e.loc().column) + ": " + e.what();
  }
  return "no error";
}

std::string error_of(std::string_view text) {
  auto src = open_source(text, "in");
  return error_of(*src);
}

// One small object per line, `count` of them, in a top-level list.
std::string many_objects(int count) {
  std::string text = "[\n";
  for (int i = 0; i < count; ++i) {
    text += "{\"a\": " + std::to_string(i) + ", \"b\": [true, null]},\n";
  }
  return text;
}

TEST_CASE("a JSON error after several batches comes after every earlier event", "[load]") {
  std::string text = many_objects(20000) + "{\"a\" 1}\n]\n";
  auto src = open_source(file_of(text), "big.json");
  int maps = 0;
  std::string error;
  try {
    for (;;) {
      const Event& ev = src->next();
      maps += ev.type == EventType::map_start ? 1 : 0;
    }
  } catch (const InputError& e) {
    error = e.loc().file + ":" + std::to_string(e.loc().line) + ":" +
            std::to_string(e.loc().column) + ": " + e.what();
  }
  CHECK(maps == 20001);
  CHECK(error == "big.json:20002:6: missing a colon after a name of object member");
  // The error stays: a caller that asks again is told again.
  CHECK_THROWS_AS(src->next(), InputError);
}

TEST_CASE("abandoning a JSON source mid-stream stops its parsing thread", "[load]") {
  std::string text = many_objects(50000) + "{}]";
  for (int read : {0, 1, 5, 20000}) {
    auto src = open_source(file_of(text), "big.json");
    for (int i = 0; i < read; ++i) {
      src->next();
    }
    src.reset();  // must return: the thread is waiting for room and is told to stop
  }
  auto src = open_source(std::string_view(text), "big.json");
  src->next();
  src->next();
  src->skip_value_rest();
  CHECK(src->next().type == EventType::document_end);
}

TEST_CASE("many small JSON documents each get their own start and end", "[load]") {
  std::string text;
  for (int i = 0; i < 30000; ++i) {
    text += "{\"i\": " + std::to_string(i) + "}\n";
  }
  auto src = open_source(file_of(text), "docs.json");
  int docs = 0;
  int ends = 0;
  std::string last_value;
  std::string last_mark;
  for (;;) {
    const Event& ev = src->next();
    if (ev.type == EventType::stream_end) {
      break;
    }
    docs += ev.type == EventType::document_start ? 1 : 0;
    ends += ev.type == EventType::document_end ? 1 : 0;
    if (ev.type == EventType::scalar && ev.style == ScalarStyle::plain) {
      last_value = ev.text;
      last_mark = where(ev);
    }
  }
  CHECK(docs == 30000);
  CHECK(ends == 30000);
  CHECK(last_value == "29999");
  CHECK(last_mark == "30000:7");
  CHECK(src->next().type == EventType::stream_end);
}

TEST_CASE("a 200 KB JSON string arrives whole and positions after it stay right", "[load]") {
  std::string big(200 * 1024, 'x');
  big[1000] = '\\';
  big[1001] = 'n';  // an escape inside, decoded
  std::string text = "{\"s\": \"" + big + "\", \"k\": 1}";
  auto src = open_source(file_of(text), "long.json");
  src->next();
  src->next();
  CHECK(src->next().text == "s");
  const Event& s = src->next();
  REQUIRE(s.text.size() == big.size() - 1);
  CHECK(s.text.substr(999, 3) == "x\nx");
  const Event& k = src->next();
  CHECK(k.text == "k");
  CHECK(where(k) == "1:" + std::to_string(8 + big.size() + 3));
}

TEST_CASE("JSON read in chunks gives the same events as from memory", "[load]") {
  std::string text = "\xEF\xBB\xBF" + many_objects(5000) + "{\"long\": \"" +
                     std::string(70000, 'y') + "\"},\r\n\"\\u00e9\", -1.50e+3]\n{}";
  auto from_memory = open_source(std::string_view(text), "x.json");
  auto from_file = open_source(file_of(text), "x.json");
  std::vector<std::string> events = dump(*from_memory);
  CHECK(events == dump(*from_file));
  REQUIRE(events.size() > 8);
  CHECK(events[events.size() - 8] == "6 -1.50e+3@5003:11");
}

TEST_CASE("JSON numbers keep the text written", "[load]") {
  auto src = open_source(std::string_view("[1.50, -0, 12345678901234567890123, 2E-3]"), "in");
  std::vector<std::string> texts;
  for (const Event* ev = &src->next(); ev->type != EventType::stream_end; ev = &src->next()) {
    if (ev->type == EventType::scalar) {
      CHECK(ev->style == ScalarStyle::plain);
      texts.emplace_back(ev->text);
    }
  }
  CHECK(texts == std::vector<std::string>{"1.50", "-0", "12345678901234567890123", "2E-3"});
}

TEST_CASE("invalid UTF-8 in a JSON string is refused at the bad byte", "[load]") {
  CHECK(error_of("{\"a\": \"caf\xC3\"}") == "in:1:11: invalid encoding in string");
  CHECK(error_of("[1,\n \"\xFF\"]") == "in:2:3: invalid encoding in string");
  CHECK(error_of("{\"0123456789\xE9\": 1}") == "in:1:13: invalid encoding in string");
  CHECK(error_of("[\"\xED\xA0\"]") == "in:1:3: invalid encoding in string");
  CHECK(error_of("[\"\xC0\xAF\"]") == "in:1:3: invalid encoding in string");
  CHECK(error_of("[\"\xF4\x90\x80\x80\"]") == "in:1:3: invalid encoding in string");
  CHECK(error_of("[\"caf\xC3\xA9 \xF0\x9F\x98\x80 \\udc00\"]") == "no error");
}

TEST_CASE("hostile JSON nesting is refused without exhausting the stack", "[load]") {
  CHECK(error_of(std::string(100000, '[')) == "in:1:1001: nesting is too deep");
  std::string deep = std::string(1000, '[') + std::string(1000, ']');
  CHECK(error_of(deep) == "no error");
}

TEST_CASE("JSON on stdin is called <stdin> in messages", "[load]") {
  auto src = open_source(file_of("[1,\n2 3]"), "-");
  CHECK(error_of(*src) == "<stdin>:2:3: missing a comma or ']' after an array element");
}

TEST_CASE("JSON values after a complete one on the same line are new documents", "[load]") {
  auto src = open_source(std::string_view("{} []  null"), "in");
  std::vector<std::string> events = dump(*src);
  CHECK(events.size() == 12);
  CHECK(events[9] == "6 null@1:8");
}

}  // namespace
}  // namespace kpreempt::load
