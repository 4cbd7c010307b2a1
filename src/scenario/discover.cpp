// SPDX-License-Identifier: Apache-2.0
// Finding scenarios: a case file, a case folder, or a tree of case folders.
#include "kpreempt/scenario/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace kpreempt::scenario {
namespace {

namespace fs = std::filesystem;

constexpr const char* k_case_file = "case.yaml";

// The last component of a path as the user wrote it ("testdata/check/" and "." included).
std::string base_name(const fs::path& p) {
  fs::path normal = p.lexically_normal();
  if (!normal.has_filename()) {
    normal = normal.parent_path();
  }
  std::string name = normal.filename().string();
  if (name.empty() || name == ".") {
    std::error_code ec;
    name = fs::absolute(p, ec).lexically_normal().parent_path().filename().string();
  }
  return name;
}

// A case file named case.yaml is named after its folder; any other after itself, sans .yaml.
std::string name_of_file(const fs::path& file) {
  if (file.filename() == k_case_file) {
    return base_name(file.parent_path().empty() ? fs::path(".") : file.parent_path());
  }
  return file.stem().string();
}

std::vector<fs::path> case_files_under(const fs::path& dir, std::error_code& ec) {
  std::vector<fs::path> found;
  auto options = fs::directory_options::skip_permission_denied;
  for (auto it = fs::recursive_directory_iterator(dir, options, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename() == k_case_file && it->is_regular_file()) {
      found.push_back(it->path());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

// The folder a scenario's paths must stay in: the folder searched, or for a single case the
// folder holding its case folder.
PathRules rules_for(const fs::path& root, bool is_dir, bool allow_outside) {
  std::error_code ec;
  fs::path folder = is_dir ? root : root.parent_path();
  if (folder.empty()) {
    folder = ".";
  }
  const bool single_case = !is_dir || fs::exists(root / k_case_file, ec);
  fs::path boundary = single_case ? (folder / "..").lexically_normal() : folder;
  return PathRules{boundary.string(), allow_outside};
}

}  // namespace

std::vector<Scenario> discover(const std::string& path, std::vector<Diagnostic>& diags,
                               bool allow_outside) {
  std::vector<Scenario> out;
  std::error_code ec;
  const fs::path root(path);
  if (!fs::exists(root, ec)) {
    diags.push_back({Severity::error, {path, 0, 0}, "no such file or folder"});
    return out;
  }
  const bool is_dir = fs::is_directory(root, ec);
  const PathRules rules = rules_for(root, is_dir, allow_outside);
  if (!is_dir) {
    if (auto s = parse_case(path, name_of_file(root), diags, rules)) {
      out.push_back(std::move(*s));
    }
    return out;
  }
  std::vector<fs::path> files = case_files_under(root, ec);
  if (ec) {
    diags.push_back({Severity::error, {path, 0, 0}, fmt::format("cannot list: {}", ec.message())});
    return out;
  }
  if (files.empty()) {
    diags.push_back({Severity::error, {path, 0, 0}, "no case.yaml in this folder or below"});
  }
  for (const fs::path& file : files) {
    fs::path rel = file.parent_path().lexically_relative(root);
    std::string name = rel.empty() || rel == "." ? base_name(root) : rel.generic_string();
    if (auto s = parse_case(file.string(), std::move(name), diags, rules)) {
      out.push_back(std::move(*s));
    }
  }
  return out;
}

}  // namespace kpreempt::scenario
