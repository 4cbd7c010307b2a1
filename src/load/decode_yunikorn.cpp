// SPDX-License-Identifier: Apache-2.0
// Finds YuniKorn's queue file in a dump: the ConfigMaps the shim watches (yunikorn-k8shim
// v1.7.0 pkg/conf/schedulerconf.go: yunikorn-defaults overlaid by yunikorn-configs, namespace
// yunikorn, key <service.policyGroup>.yaml), or a bare queues.yaml given on its own.
#include "load/queues_yaml.h"

#include <fstream>

namespace kpreempt::load {
namespace {

constexpr std::string_view k_namespace = "yunikorn";
constexpr std::string_view k_configs = "yunikorn-configs";
constexpr std::string_view k_defaults = "yunikorn-defaults";

// Line `line` (1-based) of a file, or nullopt when it cannot be read (stdin, gone).
std::optional<std::string> file_line(const std::string& file, std::uint32_t line) {
  std::ifstream in(file, std::ios::binary);
  if (!in || line == 0) {
    return std::nullopt;
  }
  std::string text;
  for (std::uint32_t i = 0; i < line; ++i) {
    if (!std::getline(in, text)) {
      return std::nullopt;
    }
  }
  return text;
}

// Where the string value at `value` starts. For a block scalar (`|`, `>`) the text starts on a
// following line at the block's indentation, which only the file itself tells; kubectl writes
// it two spaces deeper than the key, which is the fallback.
}  // namespace

QueuesYamlOrigin origin_of(const Field& value, const std::string& text, const std::string& what) {
  SourceLoc at = value.loc();
  QueuesYamlOrigin o{.file = at.file,
                     .first_line = at.line,
                     .first_column = at.column + 1,
                     .indent = 4,
                     .block = false,
                     .what = what};
  std::optional<std::string> line = file_line(at.file, at.line);
  if (!line || at.column == 0 || at.column > line->size()) {
    // Not readable again (stdin, a buffer): kubectl writes multi-line strings as `|` blocks.
    if (text.find('\n') != std::string::npos) {
      o.block = true;
      o.first_line = at.line + 1;
    }
    return o;
  }
  const char indicator = (*line)[at.column - 1];
  if (indicator != '|' && indicator != '>') {
    o.first_column = indicator == '"' || indicator == '\'' ? at.column + 1 : at.column;
    return o;
  }
  o.block = true;
  o.first_line = at.line + 1;
  for (std::uint32_t n = at.line + 1;; ++n) {
    std::optional<std::string> next = file_line(at.file, n);
    if (!next) {
      break;
    }
    std::size_t spaces = next->find_first_not_of(' ');
    if (spaces != std::string::npos) {
      o.indent = static_cast<std::uint32_t>(spaces);
      break;
    }
  }
  return o;
}

namespace {

void store(DecodeContext& ctx, std::string_view name, model::YunikornConfig c) {
  if (name == k_configs) {
    ctx.out.yunikorn().configs = std::move(c);
  } else {
    ctx.out.yunikorn().defaults = std::move(c);
  }
}

}  // namespace

void decode_config_map(const Field& root, DecodeContext& ctx) {
  const std::string ns = object_namespace(root);
  const std::string name = object_name(root);
  if (ns != k_namespace || (name != k_configs && name != k_defaults)) {
    if (!decode_kueue_config_map(root, ns, name, ctx) &&
        !decode_scheduler_config_map(root, ns, name, ctx)) {
      ctx.out.count_skipped("ConfigMap");  // some other ConfigMap: not read
    }
    return;
  }
  Field data = root["data"];
  const std::string group = data["service.policyGroup"].str("queues");
  Field file = data[group + ".yaml"];
  if (!file.present()) {
    if (root["binaryData"][group + ".yaml.gz"].present()) {
      ctx.warn(root["binaryData"],
               "ConfigMap " + ns + "/" + name + ": binaryData." + group +
                   ".yaml.gz: compressed queue files are not read; the built-in default is used");
    }
    return;
  }
  const std::string what = "ConfigMap " + ns + "/" + name + ": " + file.path();
  const std::string text = file.str();
  store(ctx, name, parse_queues_yaml(text, origin_of(file, text, what)));
}

void decode_bare_queues_yaml(const Field& root, DecodeContext& ctx) {
  // The tree holds only what a decoder of Kubernetes objects keeps; the queue file is parsed
  // again from its own text so that its strict checks see every field.
  SourceLoc at = root.loc();
  std::ifstream in(at.file, std::ios::binary);
  if (!in) {
    throw InputError(at, "a bare queues.yaml must be given as a file, not on stdin");
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  QueuesYamlOrigin o{.file = at.file,
                     .first_line = 1,
                     .first_column = 1,
                     .indent = 0,
                     .block = true,
                     .what = "queues.yaml"};
  store(ctx, k_configs, parse_queues_yaml(text, o));
}

}  // namespace kpreempt::load
