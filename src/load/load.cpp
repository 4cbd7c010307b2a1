// SPDX-License-Identifier: Apache-2.0
// The loader's entry points: files, folders (their dump files in name order) and stdin.
#include "kpreempt/load/load.h"

#include "load/parallel_list.h"
#include "load/stream.h"

#include "kpreempt/load/events.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace kpreempt::load {
namespace {

namespace fs = std::filesystem;

bool dump_file(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

void error(std::vector<Diagnostic>& diags, std::string message) {
  // No location: the file itself is what is wrong, and the message names it.
  diags.push_back(Diagnostic{Severity::error, SourceLoc{}, std::move(message)});
}

void load_file(const std::string& path, unsigned threads, DecodeContext& ctx) {
  if (path != "-" && load_list_in_parts(path, threads, ctx)) {
    return;
  }
  std::FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    error(ctx.diags, "cannot open \"" + path + "\": " + std::strerror(errno));
    return;
  }
  if (path == "-") {
    // The source closes what it is given; stdin must stay open for a second "-".
    file = fdopen(dup(fileno(stdin)), "rb");
  }
  try {
    std::unique_ptr<EventSource> src =
        open_source(file, path, ctx.progress != nullptr ? &ctx.progress->bytes : nullptr);
    read_stream(*src, ctx);
  } catch (const InputError& e) {
    ctx.diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
}

// Entries in name order, so that a folder loads the same way everywhere.
std::vector<fs::directory_entry> sorted_entries(const fs::path& dir, std::error_code& ec) {
  std::vector<fs::directory_entry> out;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    out.push_back(*it);
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
  return out;
}

void load_folder(const fs::path& dir, const LoadOptions& opts, DecodeContext& ctx) {
  std::error_code ec;
  std::vector<fs::directory_entry> entries = sorted_entries(dir, ec);
  if (ec) {
    error(ctx.diags, "cannot read folder \"" + dir.string() + "\": " + ec.message());
    return;
  }
  for (const fs::directory_entry& e : entries) {
    std::error_code type_ec;
    if (e.is_directory(type_ec)) {
      if (opts.recursive) {
        load_folder(e.path(), opts, ctx);
      }
    } else if (dump_file(e.path())) {
      load_file(e.path().string(), opts.threads, ctx);
    }
  }
}

}  // namespace

void load_path(const std::string& path, const LoadOptions& opts, model::SnapshotBuilder& out,
               std::vector<Diagnostic>& diags, std::vector<model::ObjectRef>* pods) {
  DecodeContext ctx{out, diags, pods, opts.derive_pods, opts.progress};
  std::error_code ec;
  if (path != "-" && fs::is_directory(path, ec)) {
    load_folder(path, opts, ctx);
    return;
  }
  load_file(path, opts.threads, ctx);
}

void load_buffer(std::string_view data, const std::string& name, model::SnapshotBuilder& out,
                 std::vector<Diagnostic>& diags, std::vector<model::ObjectRef>* pods) {
  DecodeContext ctx{out, diags, pods};
  try {
    std::unique_ptr<EventSource> src = open_source(data, name);
    read_stream(*src, ctx);
  } catch (const InputError& e) {
    diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
}

}  // namespace kpreempt::load
