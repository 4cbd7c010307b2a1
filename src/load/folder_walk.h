// SPDX-License-Identifier: Apache-2.0
// The dump files of a folder, as the loader and the scanner read them: entries in name order,
// links followed with each folder read once (a link loop such as `x -> .` ends), and only
// regular files read (a FIFO or device named like a dump would block or never end).
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

class FolderWalk {
 public:
  // `read(path)` is called for each dump file; problems go to `diags`.
  template <class Read>
  static void run(const std::filesystem::path& dir, bool recursive, std::vector<Diagnostic>& diags,
                  Read&& read) {
    FolderWalk walk(recursive, diags);
    walk.folder(dir, read);
  }

  static bool dump_file(const std::filesystem::path& p) {
    const std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml" || ext == ".json";
  }

 private:
  FolderWalk(bool recursive, std::vector<Diagnostic>& diags)
      : m_recursive(recursive), m_diags(diags) {}

  void say(Severity severity, std::string message) {
    // No location: the entry itself is what is wrong, and the message names it.
    m_diags.push_back(Diagnostic{severity, SourceLoc{}, std::move(message)});
  }

  template <class Read>
  void folder(const std::filesystem::path& dir, Read& read) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && !m_visited.emplace(st.st_dev, st.st_ino).second) {
      say(Severity::warning,
          "skipping \"" + dir.string() + "\": a folder already read (a link loop?)");
      return;
    }
    std::error_code ec;
    std::vector<std::filesystem::path> entries;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      entries.push_back(it->path());
    }
    if (ec) {
      say(Severity::error, "cannot read folder \"" + dir.string() + "\": " + ec.message());
      return;
    }
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
    for (const std::filesystem::path& p : entries) {
      entry(p, read);
    }
  }

  template <class Read>
  void entry(const std::filesystem::path& p, Read& read) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) {
      if (dump_file(p)) {
        read(p.string());  // a dangling link: the reader says why it cannot be opened
      }
      return;
    }
    if (S_ISDIR(st.st_mode)) {
      if (m_recursive) {
        folder(p, read);
      }
    } else if (dump_file(p)) {
      if (S_ISREG(st.st_mode)) {
        read(p.string());
      } else {
        say(Severity::warning, "skipping \"" + p.string() + "\": not a regular file");
      }
    }
  }

  bool m_recursive;
  std::vector<Diagnostic>& m_diags;
  std::set<std::pair<dev_t, ino_t>> m_visited;
};

}  // namespace kpreempt::load
