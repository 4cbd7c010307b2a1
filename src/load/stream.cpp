// SPDX-License-Identifier: Apache-2.0
// Top-level shapes of a dump: `---` separated documents, empty documents, and Lists (or
// top-level sequences) whose items are streamed one by one. kubectl sorts keys, so `items:`
// comes before `kind: List`: any top-level map with an `items` list is taken for a List.
#include "load/stream.h"

#include "load/document_rules.h"
#include "load/tree_builder.h"

#include <fmt/format.h>

namespace kpreempt::load {
namespace {

constexpr std::size_t k_max_held_bytes = std::size_t{64} << 20;

bool null_scalar(const Event& ev) {
  return ev.style == ScalarStyle::plain &&
         (ev.text.empty() || ev.text == "~" || ev.text == "null" || ev.text == "Null" ||
          ev.text == "NULL");
}

// Keeps the first k_max_diagnostics_per_file diagnostics of a stream and counts the rest.
class DiagnosticCap {
 public:
  explicit DiagnosticCap(std::vector<Diagnostic>& diags) : m_diags(diags), m_first(diags.size()) {}

  void trim() {
    while (m_diags.size() > m_first + k_max_diagnostics_per_file) {
      m_dropped_error = m_dropped_error || m_diags.back().severity == Severity::error;
      m_diags.pop_back();
      ++m_dropped;
    }
  }
  void finish(const std::string& file) {
    trim();
    if (m_dropped > 0) {
      m_diags.push_back(Diagnostic{
          m_dropped_error ? Severity::error : Severity::warning, SourceLoc{file},
          fmt::format("... and {} more diagnostics (only the first {} of a file are shown)",
                      m_dropped, k_max_diagnostics_per_file)});
    }
  }

 private:
  std::vector<Diagnostic>& m_diags;
  std::size_t m_first;
  std::size_t m_dropped = 0;
  bool m_dropped_error = false;
};

class StreamReader {
 public:
  StreamReader(EventSource& src, DecodeContext& ctx, DiagnosticCap& cap)
      : m_src(src), m_ctx(ctx), m_cap(cap), m_builder(src, m_tree) {
    m_tree.file = src.file_name();
  }

  void run();

 private:
  void top_map(Mark mark);
  void items(const RootKeys* list = nullptr);
  void hold_kindless();
  void decode_held(const RootKeys& list);
  void decode();
  // False for a copy of the object `key` ("group/Kind/namespace/name") read before, which is
  // then not decoded again; throws when the earlier copy differs.
  bool first_copy(const std::string& key, const Field& root, const Object& obj);
  void decode_checked(Field root, Object& obj);
  std::string describe(const KindEntry& entry, const Field& root) const;
  void error(SourceLoc loc, std::string message) {
    m_ctx.diags.push_back(Diagnostic{Severity::error, std::move(loc), std::move(message)});
  }

  EventSource& m_src;
  DecodeContext& m_ctx;
  DiagnosticCap& m_cap;
  Tree m_tree;
  TreeBuilder m_builder;
  std::string m_key;
  // Items without a kind in a List whose kind comes after its items (kubectl sorts keys):
  // decoded once the List's kind is read.
  std::vector<Tree> m_held;
  std::size_t m_held_bytes = 0;
};

void StreamReader::run() {
  for (;;) {
    m_cap.trim();
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
        m_builder.count_object(ev.mark);
        if (std::string table = table_output_error(ev.text); !table.empty()) {
          throw InputError(m_tree.loc(ev.mark), std::move(table));
        }
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
  RootKeys root(m_tree.file);
  for (;;) {
    const Event& key = m_src.next();
    if (key.type == EventType::map_end) {
      m_builder.check_root_duplicates();
      decode();
      return;
    }
    if (key.type != EventType::scalar) {
      throw InputError(m_tree.loc(key.mark), "only string keys are supported");
    }
    m_builder.refuse_merge_key(key);
    m_key.assign(key.text);
    Mark key_mark = key.mark;
    const Event& value = m_src.next();
    root.add(m_key, key_mark, value);
    if (m_key == "items" && value.type == EventType::seq_start) {
      root.check_repeats();
      items(&root);
      // The members after the items (kind, metadata) are read for their kind and keys only.
      root.read_rest(m_src);
      decode_held(root);
      return;
    }
    m_builder.add_root_member(m_key, key_mark, value);
  }
}

// The items of a List (or of a top-level sequence), each decoded on its own.
void StreamReader::items(const RootKeys* list) {
  for (;;) {
    m_cap.trim();
    const Event& ev = m_src.next();
    switch (ev.type) {
      case EventType::seq_end:
      case EventType::stream_end:
        return;
      case EventType::map_start:
        m_builder.begin(ev.mark);
        m_builder.finish();
        if (list != nullptr && !has_kind(m_tree)) {
          if (!list->kind_seen()) {
            hold_kindless();
            break;
          }
          lend_kind(m_builder, m_tree, *list);
        }
        decode();
        break;
      case EventType::seq_start:
        m_builder.count_object(ev.mark);
        error(m_tree.loc(ev.mark), "expected a Kubernetes object, got a list");
        m_src.skip_value_rest();
        break;
      default:
        m_builder.count_object(ev.mark);
        if (!null_scalar(ev)) {
          error(m_tree.loc(ev.mark),
                "expected a Kubernetes object, got \"" + std::string(ev.text) + "\"");
        }
        break;
    }
  }
}

// A kindless item waits for the List's kind. Held items are bounded like one object: past
// that, the List must name each item's kind itself.
void StreamReader::hold_kindless() {
  m_held_bytes += m_tree.text.size() + m_tree.nodes.size() * sizeof(TreeNode);
  if (m_held_bytes > k_max_held_bytes) {
    throw InputError(m_tree.loc(m_tree.nodes[0].mark),
                     "items without a kind are held until the List's kind is read, and these "
                     "exceed 64 MiB; give each item its kind");
  }
  m_held.push_back(m_tree);
  m_ctx.whole_stream_only = true;
}

void StreamReader::decode_held(const RootKeys& list) {
  for (Tree& tree : m_held) {
    resume_held(m_tree, tree);
    lend_kind(m_builder, m_tree, list);
    decode();
  }
  m_held.clear();
  m_held_bytes = 0;
}

// FNV-1a over every key and scalar in document order: two copies of one object, wherever
// they were read, digest alike.
std::string content_digest(const Tree& tree) {
  std::uint64_t h = 14695981039346656037ULL;
  const auto mix = [&h](std::string_view s, char end) {
    for (char c : s) {
      h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    }
    h = (h ^ static_cast<unsigned char>(end)) * 1099511628211ULL;
  };
  for (std::uint32_t n = 0; n < tree.nodes.size(); ++n) {
    const TreeNode& node = tree.nodes[n];
    mix(tree.key(n), static_cast<char>(node.type));
    mix(tree.scalar(n), static_cast<char>(node.size));
  }
  return fmt::format("{:016x}", h);
}

std::string StreamReader::describe(const KindEntry& entry, const Field& root) const {
  Field meta = root["metadata"];
  if (!meta.is_map() || meta["name"].is_map() || meta["name"].is_seq() || !meta["name"].present()) {
    return std::string(entry.kind);
  }
  // A name the API server would refuse is not repeated in messages: it may hold escape
  // sequences or line breaks; the message about it gives its location instead.
  std::string name = meta["name"].str();
  if (!valid_object_name(name)) {
    return std::string(entry.kind);
  }
  std::string out = std::string(entry.kind) + " ";
  if (entry.namespaced && !meta["namespace"].is_map() && !meta["namespace"].is_seq()) {
    std::string ns = meta["namespace"].str("default");
    out += (dns1123_label(ns) ? ns : std::string("?")) + "/";
  }
  return out + name;
}

void StreamReader::decode() {
  if (m_ctx.progress != nullptr) {
    m_ctx.progress->objects.fetch_add(1, std::memory_order_relaxed);
  }
  if (name_from_generate_name(m_tree, m_ctx.generated_names)) {
    m_ctx.whole_stream_only = true;
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
      ++m_ctx.objects;
      kindless->decode(root, m_ctx);
      return;
    }
    throw InputError(root.loc(), "object has no kind");
  }
  const KindEntry* entry = find_kind(root["apiVersion"].str(), kind.str());
  if (entry == nullptr && kind.str().ends_with("List")) {
    Field items = root["items"];
    if (items.is_null()) {
      return;  // an empty List written as `items: null`: no object
    }
    // A top-level List with a list of items is streamed, never decoded here.
    throw InputError(items.loc(), items.is_seq()
                                      ? kind.str() +
                                            ": a List inside a List is not read; "
                                            "put its items in the outer List"
                                      : kind.str() + ": items: expected a list of objects");
  }
  ++m_ctx.objects;  // an object, read or skipped
  if (entry == nullptr) {
    m_ctx.out.count_skipped(kind.str());
    return;
  }
  obj.description = describe(*entry, root);
  if (m_tree.duplicate != k_nil) {
    const TreeNode& dup = m_tree.nodes[m_tree.duplicate];
    Field map(obj, dup.parent);
    std::string where = map.path().empty() ? "" : map.path() + ": ";
    throw InputError(m_tree.loc(dup.key_mark),
                     obj.description + ": " + where + duplicate_key_message(m_tree));
  }
  const std::string key =
      fmt::format("{}/{}/{}/{}", entry->group, entry->kind,
                  entry->namespaced ? object_namespace(root) : "", root["metadata"]["name"].str());
  if (m_ctx.skip_objects != nullptr && m_ctx.skip_objects->contains(key)) {
    return;  // another input replaces it
  }
  if (!first_copy(key, root, obj)) {
    return;
  }
  try {
    entry->decode(root, m_ctx);
  } catch (const InputError&) {
    m_ctx.out.forget(key);
    throw;
  }
}

bool StreamReader::first_copy(const std::string& key, const Field& root, const Object& obj) {
  const std::string uid = m_ctx.content_identity ? "" : root["metadata"]["uid"].str();
  const std::string identity = uid.empty() ? "content " + content_digest(m_tree) : "uid " + uid;
  SourceLoc first;
  switch (m_ctx.out.see(key, identity, root.loc(), first)) {
    case model::SnapshotBuilder::Seen::first:
      return true;
    case model::SnapshotBuilder::Seen::identical:
      return false;
    case model::SnapshotBuilder::Seen::conflict:
      break;
  }
  throw InputError(root.loc(), fmt::format("{}: duplicate object; first defined at {}:{}:{}, with "
                                           "different content",
                                           obj.description, first.file, first.line, first.column));
}

}  // namespace

void read_stream(EventSource& src, DecodeContext& ctx) {
  DiagnosticCap cap(ctx.diags);
  try {
    StreamReader(src, ctx, cap).run();
  } catch (const InputError& e) {
    ctx.diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
  cap.finish(src.file_name());
}

}  // namespace kpreempt::load
