// SPDX-License-Identifier: Apache-2.0
// JSON and YAML output: the same document (render/document.h), two syntaxes.
#include "render/structured.h"

#include "render/document.h"

#include <yaml-cpp/yaml.h>

#include <memory>
#include <ostream>
#include <regex>
#include <string>
#include <string_view>

namespace kpreempt::render {
namespace {

// Whether a reader would take `text`, written as a plain YAML scalar, for something else than
// a string: null, a boolean, an integer, a float or a timestamp, by the YAML 1.2 core schema or
// the YAML 1.1 words and forms many readers still resolve (yes, on, 0x1F, 1:20, 2026-01-01).
// A quantity such as "8" or "1e3" is a string in the JSON document and must stay one in YAML.
bool reads_as_non_string(std::string_view text) {
  static const std::regex k_other(
      "~|null|Null|NULL|"
      "[yY]|yes|Yes|YES|[nN]|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|"
      "[-+]?[0-9][0-9_]*|[-+]?0[xX][0-9a-fA-F_]+|0o[0-7]+|[-+]?0b[01_]+|"
      "[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?|"
      "[-+]?(\\.[0-9][0-9_]*|[0-9][0-9_]*\\.[0-9_]*|[0-9][0-9_]*)([eE][-+]?[0-9]+)?|"
      "[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)|"
      "[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(([Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(\\.[0-9]*)?"
      "([ \\t]*(Z|[-+][0-9]{1,2}(:[0-9]{2})?))?)?");
  return text.empty() || std::regex_match(text.begin(), text.end(), k_other);
}

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
    case nlohmann::json::value_t::string: {
      const std::string& text = j.get_ref<const std::string&>();
      if (reads_as_non_string(text)) {
        out << YAML::DoubleQuoted;
      }
      out << text;
      break;
    }
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
      out << j.dump();  // the digits JSON prints, not the emitter's own precision
      break;
    default:
      out << YAML::Null;
      break;
  }
}

// From this many nodes on, an explanation's document is left to the operating system at exit.
constexpr std::size_t k_big_cluster_nodes = 1000;

// The JSON serializer hands its output over a few bytes at a time, and each ostream call costs
// a sentry and a buffer check: 0.02 s on the 15 MB explanation of a 5,000-node cluster.
// Collected here and written 64 KiB at a time instead.
class BlockWriter final : public nlohmann::detail::output_adapter_protocol<char> {
 public:
  explicit BlockWriter(std::ostream& out) : m_out(out) { m_block.reserve(k_size); }
  BlockWriter(const BlockWriter&) = delete;
  BlockWriter& operator=(const BlockWriter&) = delete;
  ~BlockWriter() override { flush(); }

  void write_character(char c) override {
    m_block.push_back(c);
    if (m_block.size() >= k_size) {
      flush();
    }
  }
  void write_characters(const char* s, std::size_t length) override {
    m_block.append(s, length);
    if (m_block.size() >= k_size) {
      flush();
    }
  }
  void flush() {
    m_out.write(m_block.data(), static_cast<std::streamsize>(m_block.size()));
    m_block.clear();
  }

 private:
  static constexpr std::size_t k_size = std::size_t{64} << 10;
  std::ostream& m_out;
  std::string m_block;
};

}  // namespace

void print_structured(const nlohmann::ordered_json& doc, bool yaml, std::ostream& out) {
  if (!yaml) {
    // Streamed as it is serialized, as dump(2) prints it: an explanation of every node of a big
    // cluster is tens of megabytes, not held twice.
    {
      auto writer = std::make_shared<BlockWriter>(out);
      nlohmann::detail::serializer<nlohmann::ordered_json> serializer(writer, ' ');
      serializer.dump(doc, true, false, 2);
    }  // the last block is written as the writer goes
    out << '\n';
    return;
  }
  YAML::Emitter emitter;
  emitter.SetIndent(2);
  emitter.SetSeqFormat(YAML::Block);
  emitter.SetBoolFormat(YAML::TrueFalseBool);
  emit(emitter, doc);
  out << emitter.c_str() << '\n';
}

void print_explanations(nlohmann::ordered_json&& doc, const model::Snapshot& snap, bool yaml,
                        std::ostream& out) {
  auto held = std::make_unique<nlohmann::ordered_json>(std::move(doc));
  print_structured(*held, yaml, out);
  // The explanation of a big cluster is millions of JSON values, and freeing them one by one
  // takes a fifteenth of an explain from the cache, just before the process ends: the
  // operating system takes them back at exit instead, as the command line does with the
  // snapshot. Not under the address sanitizer, whose leak check would count them.
#if defined(__SANITIZE_ADDRESS__)
  (void)snap;
#else
  if (snap.nodes().size() >= k_big_cluster_nodes) {
    (void)held.release();
  }
#endif
}

void render_json(const model::Snapshot& snap, const std::vector<Explanation>& all,
                 std::ostream& out) {
  print_explanations(to_document(snap, all), snap, false, out);
}

void render_yaml(const model::Snapshot& snap, const std::vector<Explanation>& all,
                 std::ostream& out) {
  print_explanations(to_document(snap, all), snap, true, out);
}

}  // namespace kpreempt::render
