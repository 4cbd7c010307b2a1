// SPDX-License-Identifier: Apache-2.0
// JSON output: printed in blocks, byte for byte as nlohmann's dump(2) prints.
#include "render/structured.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

namespace {

using Json = nlohmann::ordered_json;

std::string printed(const Json& doc) {
  std::ostringstream out;
  kpreempt::render::print_structured(doc, false, out);
  return out.str();
}

}  // namespace

TEST_CASE("JSON output is dump(2) byte for byte, whatever the shape", "[render]") {
  Json node = {{"name", "gpu-\"a\"/1"}, {"verdict", "fits"}, {"pods", {1, 2, {{"x", nullptr}}}}};
  Json many = Json::array();
  for (int i = 0; i < 7; ++i) {
    node["index"] = i;
    many.push_back(node);
  }
  const Json docs[] = {
      Json::object(),
      Json::array(),
      Json("text"),
      Json{{"results", Json::array()}},
      Json{{"results", {node}}},
      Json{{"results", {node, node}}},
      Json{{"apiVersion", "v1"}, {"results", many}, {"empty", Json::object()}},
      Json{{"a", many}, {"b", {1, 2, 3}}, {"\u00e9t\u00e9\n\"key\"", {{"k", "\u00fc\t"}}}},
      Json{{"results", {Json::array(), Json::object(), 1.5, "s", true, nullptr}}},
  };
  for (const Json& doc : docs) {
    INFO(doc.dump());
    CHECK(printed(doc) == doc.dump(2) + "\n");
  }
}
