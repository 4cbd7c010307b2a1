// SPDX-License-Identifier: Apache-2.0
// JSON and YAML output: the same document (render/document.h), two syntaxes.
#include "render/structured.h"

#include "render/document.h"

#include <yaml-cpp/yaml.h>

#include <ostream>

namespace kpreempt::render {
namespace {

void emit(YAML::Emitter& out, const nlohmann::ordered_json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object:
      out << YAML::BeginMap;
      for (const auto& [key, value] : j.items()) {
        out << YAML::Key << key << YAML::Value;
        emit(out, value);
      }
      out << YAML::EndMap;
      break;
    case nlohmann::json::value_t::array:
      out << YAML::BeginSeq;
      for (const auto& item : j) {
        emit(out, item);
      }
      out << YAML::EndSeq;
      break;
    case nlohmann::json::value_t::string:
      out << j.get_ref<const std::string&>();
      break;
    case nlohmann::json::value_t::boolean:
      out << j.get<bool>();
      break;
    case nlohmann::json::value_t::number_integer:
      out << j.get<std::int64_t>();
      break;
    case nlohmann::json::value_t::number_unsigned:
      out << j.get<std::uint64_t>();
      break;
    case nlohmann::json::value_t::number_float:
      out << j.get<double>();
      break;
    default:
      out << YAML::Null;
      break;
  }
}

}  // namespace

void print_structured(const nlohmann::ordered_json& doc, bool yaml, std::ostream& out) {
  if (!yaml) {
    out << doc.dump(2) << '\n';
    return;
  }
  YAML::Emitter emitter;
  emitter.SetIndent(2);
  emitter.SetSeqFormat(YAML::Block);
  emitter.SetBoolFormat(YAML::TrueFalseBool);
  emit(emitter, doc);
  out << emitter.c_str() << '\n';
}

void render_json(const model::Snapshot& snap, const std::vector<Explanation>& all,
                 std::ostream& out) {
  print_structured(to_document(snap, all), false, out);
}

void render_yaml(const model::Snapshot& snap, const std::vector<Explanation>& all,
                 std::ostream& out) {
  print_structured(to_document(snap, all), true, out);
}

}  // namespace kpreempt::render
