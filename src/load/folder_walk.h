// SPDX-License-Identifier: Apache-2.0
// Walking a folder of dump files safely, for the loader, the scanner and `lint`: entries in
// name order, links followed with each folder read once (a link loop such as `x -> .` ends),
// and only regular files read (a FIFO or device named like a dump would block or never end).
#pragma once

#include "kpreempt/diag.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kpreempt::load {

// The safe part of a walk; which entries matter is the visitor's. A Visitor has:
//   void enter(const path& dir, const std::vector<path>& entries)  entries in name order
//   void leave(const path& dir)
//   bool wants_folder(const path& sub)   walk this sub-folder?
//   bool wants_file(const path& entry)   read this entry, not a folder, if it can be?
//   void read(const path& file)          a regular file, or a dangling link (the reader
//                                        then says why it cannot be opened)
//   void not_read(const path& entry, const std::string& why)   wanted but unsafe to read
//   void cannot_list(const path& dir, const std::string& why)
template <class Visitor>
class SafeWalk {
 public:
  static void run(const std::filesystem::path& dir, Visitor& visitor) {
    SafeWalk walk(visitor);
    walk.folder(dir);
  }

 private:
  explicit SafeWalk(Visitor& visitor) : m_visitor(visitor) {}

  void folder(const std::filesystem::path& dir) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && !m_visited.emplace(st.st_dev, st.st_ino).second) {
      m_visitor.not_read(dir, "a folder already read (a link loop?)");
      return;
    }
    std::error_code ec;
    std::vector<std::filesystem::path> entries;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      entries.push_back(it->path());
    }
    if (ec) {
      m_visitor.cannot_list(dir, ec.message());
      return;
    }
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
    m_visitor.enter(dir, entries);
    for (const std::filesystem::path& p : entries) {
      entry(p);
    }
    m_visitor.leave(dir);
  }

  void entry(const std::filesystem::path& p) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) {
      if (m_visitor.wants_file(p)) {
        m_visitor.read(p);
      }
    } else if (S_ISDIR(st.st_mode)) {
      if (m_visitor.wants_folder(p)) {
        folder(p);
      }
    } else if (m_visitor.wants_file(p)) {
      if (S_ISREG(st.st_mode)) {
        m_visitor.read(p);
      } else {
        m_visitor.not_read(p, "not a regular file");
      }
    }
  }

  Visitor& m_visitor;
  std::set<std::pair<dev_t, ino_t>> m_visited;
};

// The dump files (.yaml, .yml, .json) of a folder, and of its sub-folders when recursive, as
// the loader and the scanner read them; skipped entries are warnings in `diags`.
class FolderWalk {
 public:
  // `read(path)` is called for each dump file; problems go to `diags`.
  template <class Read>
  static void run(const std::filesystem::path& dir, bool recursive, std::vector<Diagnostic>& diags,
                  Read&& read) {
    Visitor<Read> visitor{recursive, diags, read};
    SafeWalk<Visitor<Read>>::run(dir, visitor);
  }

  static bool dump_file(const std::filesystem::path& p) {
    const std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml" || ext == ".json";
  }

 private:
  template <class Read>
  struct Visitor {
    bool recursive;
    std::vector<Diagnostic>& diags;
    Read& reader;

    void enter(const std::filesystem::path&, const std::vector<std::filesystem::path>&) {}
    void leave(const std::filesystem::path&) {}
    bool wants_folder(const std::filesystem::path&) const { return recursive; }
    bool wants_file(const std::filesystem::path& p) const { return dump_file(p); }
    void read(const std::filesystem::path& p) { reader(p.string()); }
    // No location: the entry itself is what is wrong, and the message names it.
    void not_read(const std::filesystem::path& p, const std::string& why) {
      diags.push_back(
          Diagnostic{Severity::warning, SourceLoc{}, "skipping \"" + p.string() + "\": " + why});
    }
    void cannot_list(const std::filesystem::path& dir, const std::string& why) {
      diags.push_back(Diagnostic{Severity::error, SourceLoc{},
                                 "cannot read folder \"" + dir.string() + "\": " + why});
    }
  };
};

}  // namespace kpreempt::load
