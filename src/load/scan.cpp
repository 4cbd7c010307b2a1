// SPDX-License-Identifier: Apache-2.0
// Scanning entry points: the stream walk of stream.cpp (documents, Lists, items), keeping each
// object's tree rather than decoding it.
#include "kpreempt/load/scan.h"

#include "load/document_rules.h"
#include "load/folder_walk.h"
#include "load/input_hints.h"
#include "load/tree_builder.h"
#include "load/value.h"

#include "kpreempt/load/events.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace kpreempt::load {
namespace {

namespace fs = std::filesystem;

bool null_scalar(const Event& ev) {
  return ev.style == ScalarStyle::plain &&
         (ev.text.empty() || ev.text == "~" || ev.text == "null" || ev.text == "Null" ||
          ev.text == "NULL");
}

class Scanner {
 public:
  Scanner(EventSource& src, std::vector<ScannedObject>& out, std::vector<Diagnostic>& diags)
      : m_src(src), m_out(out), m_diags(diags), m_builder(src, m_tree) {
    m_tree.file = src.file_name();
  }

  void run() {
    for (;;) {
      const Event& ev = m_src.next();
      if (ev.type == EventType::stream_end) {
        return;
      }
      if (ev.type == EventType::map_start) {
        top_map(ev.mark);
      } else if (ev.type == EventType::seq_start) {
        items();
      } else if (ev.type == EventType::scalar && !table_output_error(ev.text).empty()) {
        throw InputError(m_tree.loc(ev.mark), table_output_error(ev.text));
      } else if (ev.type == EventType::scalar && !null_scalar(ev)) {
        error(ev.mark, "expected a Kubernetes object, got \"" + std::string(ev.text) + "\"");
      }
    }
  }

 private:
  void error(Mark m, std::string message) {
    m_diags.push_back(Diagnostic{Severity::error, m_tree.loc(m), std::move(message)});
  }

  // A document's root map: an object, or a List when it holds an `items` list.
  void top_map(Mark mark) {
    m_builder.begin(mark);
    RootKeys root(m_tree.file);
    for (;;) {
      const Event& key = m_src.next();
      if (key.type == EventType::map_end) {
        m_builder.check_root_duplicates();
        keep();
        return;
      }
      if (key.type != EventType::scalar) {
        throw InputError(m_tree.loc(key.mark), "only string keys are supported");
      }
      std::string name(key.text);
      Mark key_mark = key.mark;
      const Event& value = m_src.next();
      root.add(name, key_mark, value);
      if (name == "items" && value.type == EventType::seq_start) {
        root.check_repeats();
        items(&root);
        root.read_rest(m_src);  // the List's own kind and metadata
        keep_held(root);
        return;
      }
      m_builder.add_root_member(name, key_mark, value);
    }
  }

  void items(const RootKeys* list = nullptr) {
    for (;;) {
      const Event& ev = m_src.next();
      if (ev.type == EventType::seq_end || ev.type == EventType::stream_end) {
        return;
      }
      if (ev.type == EventType::map_start) {
        m_builder.begin(ev.mark);
        m_builder.finish();
        if (list != nullptr && !has_kind(m_tree)) {
          if (!list->kind_seen()) {
            m_held.push_back(m_tree);  // the List's kind may follow its items
            continue;
          }
          lend_kind(m_builder, m_tree, *list);
        }
        keep();
      } else if (ev.type == EventType::seq_start) {
        error(ev.mark, "expected a Kubernetes object, got a list");
        m_src.skip_value_rest();
      } else if (!null_scalar(ev)) {
        error(ev.mark, "expected a Kubernetes object, got \"" + std::string(ev.text) + "\"");
      }
    }
  }

  void keep_held(const RootKeys& list) {
    for (Tree& tree : m_held) {
      resume_held(m_tree, tree);
      lend_kind(m_builder, m_tree, list);
      keep();
    }
    m_held.clear();
  }

  std::string member_text(std::string_view key) const {
    for (std::uint32_t c = m_tree.nodes[0].first_child; c != k_nil; c = m_tree.nodes[c].next) {
      if (m_tree.key(c) == key && m_tree.nodes[c].type == NodeType::scalar) {
        return std::string(m_tree.scalar(c));
      }
    }
    return {};
  }

  bool has_member(std::string_view key) const {
    for (std::uint32_t c = m_tree.nodes[0].first_child; c != k_nil; c = m_tree.nodes[c].next) {
      if (m_tree.key(c) == key) {
        return true;
      }
    }
    return false;
  }

  void keep() {
    name_from_generate_name(m_tree, m_generated);
    std::string kind = member_text("kind");
    if (kind.empty()) {
      if (!has_member("partitions")) {
        error(m_tree.nodes[0].mark, "object has no kind");
        return;
      }
      kind = "queues.yaml";
    }
    if (m_tree.duplicate != k_nil) {
      error(m_tree.nodes[m_tree.duplicate].key_mark, kind + ": " + duplicate_key_message(m_tree));
      return;
    }
    m_out.push_back(ScannedObject{std::make_shared<Tree>(m_tree), member_text("apiVersion"), kind});
  }

  EventSource& m_src;
  std::vector<ScannedObject>& m_out;
  std::vector<Diagnostic>& m_diags;
  Tree m_tree;
  TreeBuilder m_builder;
  std::map<std::string, unsigned, std::less<>> m_generated;
  std::vector<Tree> m_held;  // kindless List items, kept until the List's kind is read
};

void scan_source(EventSource& src, std::vector<ScannedObject>& out,
                 std::vector<Diagnostic>& diags) {
  try {
    Scanner(src, out, diags).run();
  } catch (const InputError& e) {
    diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
}

void scan_file(const std::string& path, std::vector<ScannedObject>& out,
               std::vector<Diagnostic>& diags) {
  std::FILE* file = path == "-" ? fdopen(dup(fileno(stdin)), "rb") : std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    diags.push_back(Diagnostic{Severity::error, SourceLoc{},
                               "cannot open \"" + path + "\": " + std::strerror(errno)});
    return;
  }
  const std::size_t first = diags.size();
  try {
    std::unique_ptr<EventSource> src = open_source(file, path);
    scan_source(*src, out, diags);
  } catch (const InputError& e) {
    diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
  add_input_hints(path, first, diags);
}

}  // namespace

void scan_path(const std::string& path, const LoadOptions& opts, std::vector<ScannedObject>& out,
               std::vector<Diagnostic>& diags) {
  std::error_code ec;
  if (path != "-" && fs::is_directory(path, ec)) {
    FolderWalk::run(path, opts.recursive, diags,
                    [&](const std::string& file) { scan_file(file, out, diags); });
    return;
  }
  scan_file(path, out, diags);
}

void scan_buffer(std::string_view data, const std::string& name, std::vector<ScannedObject>& out,
                 std::vector<Diagnostic>& diags) {
  try {
    std::unique_ptr<EventSource> src = open_source(data, name);
    scan_source(*src, out, diags);
  } catch (const InputError& e) {
    diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
}

std::shared_ptr<Tree> scan_document(std::string_view text, const std::string& name) {
  std::unique_ptr<EventSource> src = open_source(text, name);
  auto tree = std::make_shared<Tree>();
  tree->file = src->file_name();
  TreeBuilder builder(*src, *tree);
  for (;;) {
    const Event& ev = src->next();
    if (ev.type == EventType::map_start) {
      builder.begin(ev.mark);
      builder.finish();
      return tree;
    }
    if (ev.type == EventType::stream_end || ev.type == EventType::seq_start ||
        (ev.type == EventType::scalar && !null_scalar(ev))) {
      throw InputError(tree->loc(ev.mark), "expected a map with \"partitions\"");
    }
  }
}

}  // namespace kpreempt::load
