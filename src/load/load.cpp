// SPDX-License-Identifier: Apache-2.0
// The loader's entry points: files, folders (their dump files in name order) and stdin.
#include "kpreempt/load/load.h"

#include "load/file_stamp.h"
#include "load/folder_walk.h"
#include "load/input_hints.h"
#include "load/parallel_list.h"
#include "load/stream.h"

#include "kpreempt/load/events.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace kpreempt::load {
namespace {

namespace fs = std::filesystem;

void error(std::vector<Diagnostic>& diags, std::string message) {
  // No location: the file itself is what is wrong, and the message names it.
  diags.push_back(Diagnostic{Severity::error, SourceLoc{}, std::move(message)});
}

// Whether the file at `path` is no longer the one `before` describes. A file replaced by a
// rename is not a change to what was read, but one truncated or rewritten in place is.
bool changed_since(const std::string& path, const FileStamp& before) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return false;
  }
  const std::optional<FileStamp> now = FileStamp::of(fd);
  ::close(fd);
  return now && now->device == before.device && now->inode == before.inode && *now != before;
}

void read_file(const std::string& path, unsigned threads, DecodeContext& ctx);

void load_file(const std::string& path, unsigned threads, DecodeContext& ctx) {
  const std::size_t first = ctx.diags.size();
  const std::size_t objects = ctx.objects;
  read_file(path, threads, ctx);
  add_input_hints(path, first, ctx.diags);
  if (ctx.objects == objects && ctx.diags.size() == first) {
    // An empty file, a List with no items, or a redirect that failed: the answer then comes
    // from the other inputs alone, which the user should know.
    ctx.diags.push_back(Diagnostic{Severity::warning, SourceLoc{path == "-" ? "<stdin>" : path},
                                   "holds no Kubernetes object"});
  }
}

void read_file(const std::string& path, unsigned threads, DecodeContext& ctx) {
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
  const std::optional<FileStamp> before = FileStamp::of(fileno(file));
  try {
    std::unique_ptr<EventSource> src =
        open_source(file, path, ctx.progress != nullptr ? &ctx.progress->bytes : nullptr);
    read_stream(*src, ctx);
    // The source has closed the file: the path tells whether it changed meanwhile.
  } catch (const InputError& e) {
    ctx.diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
  if (before && changed_since(path, *before)) {
    ctx.diags.push_back(changed_while_read(path));
  }
}

void read_buffer(std::string_view data, const std::string& name, DecodeContext& ctx) {
  try {
    std::unique_ptr<EventSource> src = open_source(data, name);
    read_stream(*src, ctx);
  } catch (const InputError& e) {
    ctx.diags.push_back(Diagnostic{Severity::error, e.loc(), e.what()});
  }
}

}  // namespace

void load_path(const std::string& path, const LoadOptions& opts, model::SnapshotBuilder& out,
               std::vector<Diagnostic>& diags, std::vector<model::ObjectRef>* pods) {
  DecodeContext ctx{out, diags, pods, opts.derive_pods, opts.progress};
  ctx.skip_objects = opts.skip_objects;
  ctx.content_identity = opts.content_identity;
  std::error_code ec;
  if (path != "-" && fs::is_directory(path, ec)) {
    FolderWalk::run(path, opts.recursive, ctx.diags,
                    [&](const std::string& file) { load_file(file, opts.threads, ctx); });
    return;
  }
  load_file(path, opts.threads, ctx);
}

void load_buffer(std::string_view data, const std::string& name, model::SnapshotBuilder& out,
                 std::vector<Diagnostic>& diags, std::vector<model::ObjectRef>* pods) {
  DecodeContext ctx{out, diags, pods};
  read_buffer(data, name, ctx);
}

void load_buffer(std::string_view data, const std::string& name, const LoadOptions& opts,
                 model::SnapshotBuilder& out, std::vector<Diagnostic>& diags) {
  DecodeContext ctx{out, diags, nullptr, opts.derive_pods, opts.progress};
  ctx.skip_objects = opts.skip_objects;
  ctx.content_identity = opts.content_identity;
  read_buffer(data, name, ctx);
}

}  // namespace kpreempt::load
