// SPDX-License-Identifier: Apache-2.0
// The simdjson source against the RapidJSON one: the same events (type, style, text, mark) and
// the same error, on every JSON file of the test data and on inputs made to be awkward, read
// whole and cut into small chunks, from memory and from a file, with and without skipping.
#include "load/file_of.h"
#include "load/sources.h"

#include "kpreempt/diag.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kpreempt::load {
namespace {

// Every event as a line, ending with the error if any. With `skip`, every map opened below
// the top two levels is skipped after its start.
std::string dump(EventSource& src, bool skip) {
  std::string out;
  int depth = 0;
  try {
    for (;;) {
      const Event& ev = src.next();
      out += std::to_string(static_cast<int>(ev.type)) +
             (ev.style == ScalarStyle::quoted ? " q " : " p ") + std::string(ev.text) + "@" +
             std::to_string(ev.mark.line) + ":" + std::to_string(ev.mark.column) + "\n";
      if (ev.type == EventType::stream_end) {
        return out;
      }
      if (ev.type == EventType::map_start || ev.type == EventType::seq_start) {
        if (skip && depth >= 2 && ev.type == EventType::map_start) {
          src.skip_value_rest();
          out += "skipped\n";
        } else {
          ++depth;
        }
      } else if (ev.type == EventType::map_end || ev.type == EventType::seq_end) {
        --depth;
      }
    }
  } catch (const InputError& e) {
    return out + "error " + e.loc().file + ":" + std::to_string(e.loc().line) + ":" +
           std::to_string(e.loc().column) + ": " + e.what() + "\n";
  }
}

using test::file_of;

// Both sources agree on `text`, read from memory and from a file, whole and in chunks.
void check_same(const std::string& text) {
  for (bool skip : {false, true}) {
    std::string want = dump(*make_rapidjson_source(std::make_unique<ByteReader>(text, "in")), skip);
    for (std::size_t chunk : {k_json_chunk_bytes, std::size_t{1}, std::size_t{40}}) {
      INFO("chunk " << chunk << " skip " << skip);
      CHECK(dump(*make_json_source(std::make_unique<ByteReader>(text, "in"), chunk), skip) == want);
      CHECK(dump(*make_json_source(std::make_unique<ByteReader>(file_of(text), "in"), chunk),
                 skip) == want);
    }
  }
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A pretty-printed top-level array of `n` items, as a part of a split List looks.
std::string pretty_items(int n, const std::string& odd_item = "", int odd_at = -1) {
  std::string text = "[\n";
  for (int i = 0; i < n; ++i) {
    text += i == 0 ? "" : ",\n";
    if (i == odd_at) {
      text += odd_item;
      continue;
    }
    text += "        {\n            \"name\": \"item-" + std::to_string(i) +
            "\",\n            \"n\": " + std::to_string(i) +
            ",\n            \"list\": [\n                {\n                    \"x\": true\n"
            "                },\n                null\n            ]\n        }";
  }
  return text + "\n]";
}

TEST_CASE("simdjson and RapidJSON read every JSON file of the test data alike", "[load][json]") {
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(KPREEMPT_TESTDATA)) {
    if (e.is_regular_file() && e.path().extension() == ".json") {
      INFO(e.path().string());
      check_same(read_file(e.path()));
      ++files;
    }
  }
  CHECK(files > 50);
}

TEST_CASE("simdjson and RapidJSON agree on awkward JSON", "[load][json]") {
  const char* inputs[] = {
      "",
      "   \n",
      "{}",
      "[]",
      "[{}, [], {\"\": []}]",
      "{\"a\": {}}\n",
      // Escapes and surrogates, lone and paired.
      R"(["\"\\\/\b\f\n\r\t", "\u00e9\u4e2d", "\ud83d\ude00", "\ud83d", "\udc00", "\ud83dx"])",
      R"(["\u12", "\x", "\uD83D\u0041", "\uDBFF\uDFFF"])",
      // Numbers: RapidJSON's text, its limits.
      "[-0, 0, 1.0E+2, 1e-400, 1e400, 1e308, 1e309, 12345678901234567890123, -1.5e-7, 01, 1.]",
      "[-, 2.e3, .5, +1, 1e, 0x10, 1_000]",
      "123",
      "\"top\"",
      "true",
      "null false",
      "truefalse",
      "1 2 3",
      "{}{}",
      "[1]garbage",
      "[1]\n\n",
      "{\"a\":1,}",
      "[1,]",
      "[1 2]",
      "{\"a\" 1}",
      "{1:2}",
      "[\"a\nb\"]",
      // Unicode keys, invalid UTF-8, a byte order mark, NUL bytes.
      "{\"ключ\": \"значение\", \"キー\": 1}",
      "[\"\xC3\x28\"]",
      "[\"\xED\xA0\x80\"]",
      "[\"\xF4\x90\x80\x80\"]",
      "[\"\xC0\xAF\"]",
      "\xEF\xBB\xBF{\"bom\": 1}",
      "\xEF\xBB\xBF\xEF\xBB\xBF{}",
      // Truncated.
      "[{\"a\": [1, 2",
      "{\"a\": \"unterminated",
      "[tru]",
      "[nul",
      "{\"a\":",
  };
  for (const char* in : inputs) {
    INFO(in);
    check_same(in);
  }
  check_same(std::string("[\"a\0b\"]", 7));
  check_same(std::string("[1]\0 [2]", 8));
}

TEST_CASE("simdjson and RapidJSON agree on nesting around the depth limit", "[load][json]") {
  for (int depth : {999, 1000, 1001, 5000}) {
    INFO(depth);
    check_same(std::string(static_cast<std::size_t>(depth), '[') +
               std::string(static_cast<std::size_t>(depth), ']'));
    check_same("[\n        {\"a\": 1},\n        {\"b\": " +
               std::string(static_cast<std::size_t>(depth), '[') +
               std::string(static_cast<std::size_t>(depth), ']') + "}\n]");
  }
}

// A skipped value is not tokenised; what RapidJSON would still refuse in it (a lone low
// surrogate, a number past its range, nesting past its limit) must be found all the same.
TEST_CASE("simdjson and RapidJSON agree on what a skipped value holds", "[load][json]") {
  const char* inputs[] = {
      R"([[{"k": {"\"q\"": {"f:x": {}}, "s": "a\\b"}, "after": 1}]])",
      R"([[{"k": {"s": "\udc00"}, "after": 1}]])",
      R"([[{"k": {"s": "\ud83d"}}]])",
      R"([[{"k": {"s": "\ud83dx", "t": "\uD83D\u0041"}}]])",
      R"([[{"k": {"s": "\ud83d\ude00", "t": "\\u"}}]])",
      R"([[{"k": {"n": [1, -2.5e3, 1e400]}}]])",
      R"([[{"k": {"n": 1e309}}]])",
      R"([[{"k": {"n": 12345678901234567890123}}]])",
      R"([[{"k": {"x": "\x"}}]])",
      R"([[{"k": {"t": true, "f": false, "z": null, "e": {}, "a": []}}, {"k2": {}}]])",
  };
  for (const char* in : inputs) {
    INFO(in);
    check_same(in);
  }
  for (int depth : {996, 997, 998, 999, 1000}) {
    INFO(depth);
    check_same("[[{\"k\": {\"a\": " + std::string(static_cast<std::size_t>(depth), '[') +
               std::string(static_cast<std::size_t>(depth), ']') + "}}]]");
  }
}

TEST_CASE("a top-level array read in chunks gives the events of a whole read", "[load][json]") {
  check_same(pretty_items(50));
  // Whatever goes wrong in a later chunk is found where RapidJSON finds it.
  for (const std::string& odd :
       {std::string("        {\"a\" 1}"), std::string("        {\"n\": 1e999}"),
        std::string("        {\"s\": \"\\ud800\"}"), std::string("        {\"s\": \"\xC3\"}"),
        std::string("        {\"s\": \"\\udc00\"}"),
        std::string("        {\"d\": ") + std::string(1200, '[') + std::string(1200, ']') + "}",
        std::string("        {\n        },\n        {"), std::string("        ]"),
        std::string("        {}]]"), std::string("        {}\n] [")}) {
    for (int at : {0, 1, 17, 49}) {
      INFO(odd << " at " << at);
      check_same(pretty_items(50, odd, at));
    }
  }
  // Trailing garbage or another document after the array.
  check_same(pretty_items(20) + "\n[]");
  check_same(pretty_items(20) + "x");
}

// Reads `text` to its end with the simdjson source; whether RapidJSON had to take over.
bool fell_back(const std::string& text, std::size_t chunk) {
  auto src = make_json_source(std::make_unique<ByteReader>(file_of(text), "in"), chunk);
  try {
    while (src->next().type != EventType::stream_end) {
    }
  } catch (const InputError&) {
  }
  return json_source_fell_back(*src);
}

TEST_CASE("simdjson reads pretty-printed arrays and small documents itself", "[load][json]") {
  for (std::size_t chunk : {k_json_chunk_bytes, std::size_t{1}, std::size_t{300}}) {
    INFO(chunk);
    CHECK_FALSE(fell_back(pretty_items(200), chunk));
    CHECK_FALSE(fell_back("{\"kind\": \"List\", \"items\": [{\"a\": \"\\u00e9\"}]}\n", chunk));
    CHECK(fell_back(pretty_items(200, "        {\"a\" 1}", 150), chunk));
    CHECK(fell_back("{}{}", chunk));
  }
  // The part of a split List: "[\n" before the items, "\n]" after.
  std::string part = "[\n" + pretty_items(100).substr(2);
  CHECK_FALSE(fell_back(part, 500));
}

TEST_CASE("tokens past RapidJSON's length limit are left to it", "[load][json]") {
  std::string big(9u << 20, 'x');
  check_same("[\"" + big + "\"]");
  check_same("[1," + std::string(9u << 20, ' ') + "2]");
  check_same(pretty_items(3) + std::string(9u << 20, '\n'));
}

}  // namespace
}  // namespace kpreempt::load
