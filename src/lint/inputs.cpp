// SPDX-License-Identifier: Apache-2.0
// Walking the -f arguments for `lint`: which files are manifests, which are recognised as
// something else (Helm and kustomize files) and skipped, and one diagnostic per file that
// cannot be read, so the rest of a repository is still linted.
#include "kpreempt/lint/inputs.h"

#include "load/folder_walk.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace kpreempt::lint {
namespace {

namespace fs = std::filesystem;

// Files Helm and kustomize read themselves; none of them is a Kubernetes object.
constexpr std::string_view k_helm_files[] = {"Chart.yaml",  "Chart.lock", "requirements.yaml",
                                             "values.yaml", "values.yml", "values.schema.json"};
constexpr std::string_view k_kustomize_files[] = {"kustomization.yaml", "kustomization.yml",
                                                  "Kustomization"};

bool manifest_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

template <std::size_t N>
bool named(const fs::path& p, const std::string_view (&names)[N]) {
  std::string name = p.filename().string();
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

// The lint side of a walk: which entries are manifests, the conventional skips, --exclude and
// -R; load::SafeWalk keeps it to regular files and each folder once.
class Walker {
 public:
  Walker(const WalkOptions& opts, Gathered& out) : m_opts(opts), m_out(out) {}

  void argument(const std::string& path) {
    std::error_code ec;
    if (path != "-" && fs::is_directory(path, ec)) {
      m_root = path;
      load::SafeWalk<Walker>::run(path, *this);
      return;
    }
    file(path, false);  // named on the command line: read whatever its extension
  }

  // load::SafeWalk's visitor.
  void enter(const fs::path& dir, const std::vector<fs::path>& entries) {
    bool chart = m_folders.empty() ? in_chart(dir) : m_folders.back().chart;
    chart = chart || std::any_of(entries.begin(), entries.end(),
                                 [](const fs::path& e) { return e.filename() == "Chart.yaml"; });
    m_folders.push_back(Folder{chart, 0});
  }

  void leave(const fs::path& dir) {
    std::size_t unread = m_folders.back().unread_folders;
    m_folders.pop_back();
    if (unread > 0) {
      m_out.notes.push_back(fmt::format("{}: {} sub-folder{} not read without -R", dir.string(),
                                        unread, unread == 1 ? "" : "s"));
    }
  }

  bool wants_folder(const fs::path& p) {
    if (excluded(p) || p.filename().string().starts_with(".")) {
      return false;  // hidden: .git, .github and other tool folders
    }
    if (!m_opts.recursive) {
      ++m_folders.back().unread_folders;
      return false;
    }
    return true;
  }

  bool wants_file(const fs::path& p) {
    return !excluded(p) && (manifest_extension(p) || p.filename() == "Kustomization");
  }

  void read(const fs::path& p) { file(p.string(), m_folders.back().chart); }

  void not_read(const fs::path& p, const std::string& why) {
    m_out.skipped.push_back(SkippedFile{p.string(), why});
  }

  void cannot_list(const fs::path& dir, const std::string& why) {
    unreadable(SourceLoc{dir.string(), 0, 0}, "cannot read folder: " + why);
  }

 private:
  struct Folder {
    bool chart;                  // in a Helm chart: the folder or one above has Chart.yaml
    std::size_t unread_folders;  // sub-folders left without -R
  };

  static bool in_chart(const fs::path& dir) {
    std::error_code ec;
    for (fs::path d = fs::absolute(dir, ec); !ec && !d.empty(); d = d.parent_path()) {
      if (fs::exists(d / "Chart.yaml", ec)) {
        return true;
      }
      if (d == d.parent_path()) {
        break;
      }
    }
    return false;
  }

  // Whether an --exclude glob matches the path as walked, the path below the -f folder, or
  // the name alone; a match is listed as skipped.
  bool excluded(const fs::path& p) {
    std::string full = p.generic_string();
    std::string name = p.filename().string();
    std::string below = p.lexically_relative(m_root).generic_string();
    for (const std::string& g : m_opts.excludes) {
      for (const std::string* s : {&full, &below, &name}) {
        if (fnmatch(g.c_str(), s->c_str(), 0) == 0) {
          m_out.skipped.push_back(SkippedFile{p.string(), "--exclude " + g});
          return true;
        }
      }
    }
    return false;
  }

  void file(const std::string& path, bool chart) {
    fs::path p(path);
    if (path != "-" && named(p, k_helm_files)) {
      m_out.skipped.push_back(SkippedFile{path, "Helm chart file"});
      return;
    }
    if (path != "-" && named(p, k_kustomize_files)) {
      m_out.skipped.push_back(SkippedFile{path, "kustomize file"});
      return;
    }
    if (chart && holds_template(path)) {
      m_out.skipped.push_back(SkippedFile{path, "Helm template"});
      std::string folder = p.parent_path().string();
      auto& tf = m_out.template_folders;
      if (std::find(tf.begin(), tf.end(), folder) == tf.end()) {
        tf.push_back(folder);
      }
      return;
    }
    ++m_out.files;
    std::vector<Diagnostic> diags;
    const std::size_t before = m_out.objects.size();
    load::scan_path(path, load::LoadOptions{}, m_out.objects, diags);
    if (report(path, diags)) {
      // A file read in part is not linted at all: its missing objects would make others look
      // unused or undefined.
      m_out.objects.resize(before);
    }
  }

  // Helm templates are recognised by their actions, not by the folder they are in: a plain
  // manifest under templates/ is linted like any other.
  static bool holds_template(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str().find("{{") != std::string::npos;
  }

  // Whether the file had errors (then it is counted as unreadable, with one diagnostic).
  bool report(const std::string& path, const std::vector<Diagnostic>& diags) {
    std::vector<const Diagnostic*> errors;
    for (const Diagnostic& d : diags) {
      if (d.severity == Severity::error) {
        errors.push_back(&d);
      }
    }
    if (errors.empty()) {
      return false;
    }
    --m_out.files;  // counted as unreadable instead
    const Diagnostic& first = *errors.front();
    SourceLoc loc =
        first.loc.file.empty() ? SourceLoc{path == "-" ? "<stdin>" : path, 0, 0} : first.loc;
    std::string more = errors.size() == 1
                           ? ""
                           : fmt::format(" (and {} more problem{})", errors.size() - 1,
                                         errors.size() == 2 ? "" : "s");
    unreadable(loc, fmt::format("not linted: {}{}", first.message, more));
    return true;
  }

  void unreadable(SourceLoc loc, std::string message) {
    m_out.unreadable.push_back(Diagnostic{Severity::error, std::move(loc), std::move(message)});
  }

  const WalkOptions& m_opts;
  Gathered& m_out;
  fs::path m_root;
  std::vector<Folder> m_folders;  // the folders being walked, innermost last
};

}  // namespace

Gathered gather(const std::vector<std::string>& paths, const WalkOptions& opts) {
  Gathered out;
  Walker walker(opts, out);
  for (const std::string& p : paths) {
    walker.argument(p);
  }
  return out;
}

}  // namespace kpreempt::lint
