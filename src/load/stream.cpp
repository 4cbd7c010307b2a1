// SPDX-License-Identifier: Apache-2.0
// Top-level shapes of a dump: `---` separated documents, empty documents, and Lists (or
// top-level sequences) whose items are streamed one by one. kubectl sorts keys, so `items:`
// comes before `kind: List`: any top-level map with an `items` list is taken for a List.
#include "load/stream.h"

#include "load/tree_builder.h"

namespace kpreempt::load {
namespace {

bool null_scalar(const Event& ev) {
  return ev.style == ScalarStyle::plain &&
         (ev.text.empty() || ev.text == "~" || ev.text == "null" || ev.text == "Null" ||
          ev.text == "NULL");
}

class StreamReader {
 public:
  StreamReader(EventSource& src, DecodeContext& ctx)
      : m_src(src), m_ctx(ctx), m_builder(src, m_tree) {
    m_tree.file = src.file_name();
  }

  void run();

 private:
  void top_map(Mark mark);
  void items();
  void decode();
  void decode_checked(Field root, Object& obj);
  std::string describe(const KindEntry& entry, const Field& root) const;
  void error(SourceLoc loc, std::string message) {
    m_ctx.diags.push_back(Diagnostic{Severity::error, std::move(loc), std::move(message)});
  }

  EventSource& m_src;
  DecodeContext& m_ctx;
  Tree m_tree;
  TreeBuilder m_builder;
  std::string m_key;
};

void StreamReader::run() {
  for (;;) {
    const Event& ev = m_src.next();
    switch (ev.type) {
      case EventType::stream_end:
        return;
      case EventType::map_start:
        top_map(ev.mark);
        break;
      case EventType::seq_start:
        items();
        break;
      case EventType::scalar:
        if (!null_scalar(ev)) {
          error(m_tree.loc(ev.mark),
                "expected a Kubernetes object, got \"" + std::string(ev.text) + "\"");
        }
        break;
      default:
        break;
    }
  }
}

// The root map of a document: an object, or a List when it holds an `items` list.
void StreamReader::top_map(Mark mark) {
  m_builder.begin(mark);
  for (;;) {
    const Event& key = m_src.next();
    if (key.type == EventType::map_end) {
      decode();
      return;
    }
    if (key.type != EventType::scalar) {
      throw InputError(m_tree.loc(key.mark), "only string keys are supported");
    }
    m_key.assign(key.text);
    Mark key_mark = key.mark;
    const Event& value = m_src.next();
    if (m_key == "items" && value.type == EventType::seq_start) {
      items();
      // The members of a List after its items (kind, metadata) say nothing kpreempt needs.
      m_src.skip_value_rest();
      return;
    }
    m_builder.add_root_member(m_key, key_mark, value);
  }
}

// The items of a List (or of a top-level sequence), each decoded on its own.
void StreamReader::items() {
  for (;;) {
    const Event& ev = m_src.next();
    switch (ev.type) {
      case EventType::seq_end:
      case EventType::stream_end:
        return;
      case EventType::map_start:
        m_builder.begin(ev.mark);
        m_builder.finish();
        decode();
        break;
      case EventType::seq_start:
        error(m_tree.loc(ev.mark), "expected a Kubernetes object, got a list");
        m_src.skip_value_rest();
        break;
      default:
        if (!null_scalar(ev)) {
          error(m_tree.loc(ev.mark),
                "expected a Kubernetes object, got \"" + std::string(ev.text) + "\"");
        }
        break;
    }
  }
}

std::string StreamReader::describe(const KindEntry& entry, const Field& root) const {
  Field meta = root["metadata"];
  if (!meta.is_map() || meta["name"].is_map() || meta["name"].is_seq() || !meta["name"].present()) {
    return std::string(entry.kind);
  }
  std::string out = std::string(entry.kind) + " ";
  if (entry.namespaced && !meta["namespace"].is_map() && !meta["namespace"].is_seq()) {
    out += meta["namespace"].str("default") + "/";
  }
  return out + meta["name"].str();
}

void StreamReader::decode() {
  if (m_ctx.progress != nullptr) {
    m_ctx.progress->objects.fetch_add(1, std::memory_order_relaxed);
  }
  Object obj{m_tree, ""};
  try {
    decode_checked(Field(obj, 0), obj);
  } catch (const InputError& e) {
    error(e.loc(), e.what());
  }
}

void StreamReader::decode_checked(Field root, Object& obj) {
  Field kind = root["kind"];
  if (!kind.present()) {
    if (const KindEntry* kindless = find_kindless(root)) {
      obj.description = std::string(kindless->kind);
      kindless->decode(root, m_ctx);
      return;
    }
    throw InputError(root.loc(), "object has no kind");
  }
  const KindEntry* entry = find_kind(root["apiVersion"].str(), kind.str());
  if (entry == nullptr && kind.str().ends_with("List") && root["items"].is_null()) {
    return;  // an empty List written as `items: null`
  }
  if (entry == nullptr) {
    m_ctx.out.count_skipped(kind.str());
    return;
  }
  obj.description = describe(*entry, root);
  if (m_tree.duplicate != k_nil) {
    const TreeNode& dup = m_tree.nodes[m_tree.duplicate];
    Field map(obj, dup.parent);
    std::string where = map.path().empty() ? "" : map.path() + ": ";
    throw InputError(m_tree.loc(dup.key_mark), obj.description + ": " + where + "duplicate key \"" +
                                                   std::string(m_tree.key(m_tree.duplicate)) +
                                                   "\"");
  }
  entry->decode(root, m_ctx);
}

}  // namespace

void read_stream(EventSource& src, DecodeContext& ctx) {
  try {
    StreamReader(src, ctx).run();
  } catch (const InputError& e) {
    ctx.diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
}

}  // namespace kpreempt::load
