// SPDX-License-Identifier: Apache-2.0
// Walking the -f arguments for `lint`: which files are manifests, which are recognised as
// something else (Helm and kustomize files) and skipped, and one diagnostic per file that
// cannot be read, so the rest of a repository is still linted.
#include "kpreempt/lint/inputs.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
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

class Walker {
 public:
  Walker(const WalkOptions& opts, Gathered& out) : m_opts(opts), m_out(out) {}

  void argument(const std::string& path) {
    std::error_code ec;
    if (path != "-" && fs::is_directory(path, ec)) {
      m_root = path;
      folder(path, in_chart(path));
      return;
    }
    file(path, false);  // named on the command line: read whatever its extension
  }

 private:
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

  // The first --exclude glob matching the path as walked, the path below the -f folder, or
  // the name alone.
  std::optional<std::string> exclude_glob(const fs::path& p) const {
    std::string full = p.generic_string();
    std::string name = p.filename().string();
    std::string below = p.lexically_relative(m_root).generic_string();
    for (const std::string& g : m_opts.excludes) {
      for (const std::string* s : {&full, &below, &name}) {
        if (fnmatch(g.c_str(), s->c_str(), 0) == 0) {
          return g;
        }
      }
    }
    return std::nullopt;
  }

  void folder(const fs::path& dir, bool chart) {
    std::error_code ec;
    std::vector<fs::directory_entry> entries;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      entries.push_back(*it);
    }
    if (ec) {
      unreadable(SourceLoc{dir.string(), 0, 0}, "cannot read folder: " + ec.message());
      return;
    }
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      return a.path().filename() < b.path().filename();
    });
    chart = chart || std::any_of(entries.begin(), entries.end(),
                                 [](const auto& e) { return e.path().filename() == "Chart.yaml"; });
    std::size_t unread_folders = 0;
    for (const fs::directory_entry& e : entries) {
      visit(e, chart, unread_folders);
    }
    if (unread_folders > 0) {
      m_out.notes.push_back(fmt::format("{}: {} sub-folder{} not read without -R", dir.string(),
                                        unread_folders, unread_folders == 1 ? "" : "s"));
    }
  }

  void visit(const fs::directory_entry& e, bool chart, std::size_t& unread_folders) {
    const fs::path& p = e.path();
    std::error_code ec;
    if (std::optional<std::string> glob = exclude_glob(p)) {
      m_out.skipped.push_back(SkippedFile{p.string(), "--exclude " + *glob});
      return;
    }
    if (e.is_directory(ec)) {
      if (p.filename().string().starts_with(".")) {
        return;  // .git, .github and other tool folders
      }
      if (!m_opts.recursive) {
        ++unread_folders;
        return;
      }
      folder(p, chart);
      return;
    }
    if (!manifest_extension(p) && p.filename() != "Kustomization") {
      return;
    }
    file(p.string(), chart);
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
    load::scan_path(path, load::LoadOptions{}, m_out.objects, diags);
    report(path, diags);
  }

  // Helm templates are recognised by their actions, not by the folder they are in: a plain
  // manifest under templates/ is linted like any other.
  static bool holds_template(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str().find("{{") != std::string::npos;
  }

  void report(const std::string& path, const std::vector<Diagnostic>& diags) {
    std::vector<const Diagnostic*> errors;
    for (const Diagnostic& d : diags) {
      if (d.severity == Severity::error) {
        errors.push_back(&d);
      }
    }
    if (errors.empty()) {
      return;
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
  }

  void unreadable(SourceLoc loc, std::string message) {
    m_out.unreadable.push_back(Diagnostic{Severity::error, std::move(loc), std::move(message)});
  }

  const WalkOptions& m_opts;
  Gathered& m_out;
  fs::path m_root;
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
