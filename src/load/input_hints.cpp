// SPDX-License-Identifier: Apache-2.0
// Recognising files that must be rendered before kpreempt can read them. Only a file that
// already failed to load is sniffed, so a good dump pays nothing.
#include "load/input_hints.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace kpreempt::load {
namespace {

constexpr std::size_t k_sniffed = std::size_t{64} << 10;

std::string head_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string out(k_sniffed, '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  return out;
}

bool kustomization(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  return name == "kustomization.yaml" || name == "kustomization.yml" || name == "Kustomization";
}

}  // namespace

void add_input_hints(const std::string& path, std::size_t first, std::vector<Diagnostic>& diags) {
  const bool failed =
      std::any_of(diags.begin() + static_cast<std::ptrdiff_t>(first), diags.end(),
                  [](const Diagnostic& d) { return d.severity == Severity::error; });
  if (!failed || path == "-") {
    return;
  }
  const SourceLoc file{path, 0, 0};
  if (kustomization(path)) {
    const std::string dir = std::filesystem::path(path).parent_path().string();
    diags.push_back({Severity::note, file,
                     "this is a kustomization, not objects; render it first: kubectl kustomize " +
                         (dir.empty() ? std::string(".") : dir) + " > rendered.yaml"});
    return;
  }
  if (head_of(path).find("{{") != std::string::npos) {
    diags.push_back({Severity::note, file,
                     "this looks like a Helm template; render it first: helm template RELEASE "
                     "CHART > rendered.yaml"});
  }
}

}  // namespace kpreempt::load
