// SPDX-License-Identifier: Apache-2.0
// Loader throughput: load each file given, report MB/s and what was decoded. Not run by ctest.
#include "kpreempt/load/load.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  using namespace kpreempt;
  for (int i = 1; i < argc; ++i) {
    const std::string path = argv[i];
    auto start = std::chrono::steady_clock::now();
    model::SnapshotBuilder builder;
    std::vector<Diagnostic> diags;
    load::load_path(path, load::LoadOptions{}, builder, diags);
    auto loaded = std::chrono::steady_clock::now();
    model::Snapshot snap = std::move(builder).build(diags);
    auto built = std::chrono::steady_clock::now();
    double load_s = std::chrono::duration<double>(loaded - start).count();
    double build_s = std::chrono::duration<double>(built - loaded).count();
    double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
    std::printf(
        "%s: %.1f MB, load %.2f s (%.1f MB/s), build %.2f s; %zu nodes, %zu pods, "
        "%zu pdbs, %zu diagnostics\n",
        path.c_str(), mb, load_s, mb / load_s, build_s, snap.nodes().size(), snap.pods().size(),
        snap.pdbs().size(), diags.size());
    for (std::size_t d = 0; d < diags.size() && d < 5; ++d) {
      std::printf("  %s\n", format(diags[d]).c_str());
    }
  }
}
