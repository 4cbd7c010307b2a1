// SPDX-License-Identifier: Apache-2.0
// The loader's entry points: files, folders (their dump files in name order) and stdin.
#include "kpreempt/load/load.h"

#include "load/file_stamp.h"
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
#include <set>
#include <utility>

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

void warn(std::vector<Diagnostic>& diags, std::string message) {
  diags.push_back(Diagnostic{Severity::warning, SourceLoc{}, std::move(message)});
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

// Folders already read, by device and inode: a link loop (`x -> .`) or a second link to the
// same folder is read once.
using Visited = std::set<std::pair<dev_t, ino_t>>;

void load_folder(const fs::path& dir, const LoadOptions& opts, DecodeContext& ctx,
                 Visited& visited);

// One folder entry: links are followed (each folder is read once), and only regular files
// are read: a FIFO or device named like a dump would block or never end.
void load_entry(const fs::path& p, const LoadOptions& opts, DecodeContext& ctx, Visited& visited) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) {
    if (dump_file(p)) {
      load_file(p.string(), opts.threads, ctx);  // reports why it cannot be opened
    }
    return;
  }
  if (S_ISDIR(st.st_mode)) {
    if (opts.recursive) {
      load_folder(p, opts, ctx, visited);
    }
  } else if (dump_file(p)) {
    if (S_ISREG(st.st_mode)) {
      load_file(p.string(), opts.threads, ctx);
    } else {
      warn(ctx.diags, "skipping \"" + p.string() + "\": not a regular file");
    }
  }
}

void load_folder(const fs::path& dir, const LoadOptions& opts, DecodeContext& ctx,
                 Visited& visited) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && !visited.emplace(st.st_dev, st.st_ino).second) {
    warn(ctx.diags, "skipping \"" + dir.string() + "\": a folder already read (a link loop?)");
    return;
  }
  std::error_code ec;
  std::vector<fs::directory_entry> entries = sorted_entries(dir, ec);
  if (ec) {
    error(ctx.diags, "cannot read folder \"" + dir.string() + "\": " + ec.message());
    return;
  }
  for (const fs::directory_entry& e : entries) {
    load_entry(e.path(), opts, ctx, visited);
  }
}

}  // namespace

void load_path(const std::string& path, const LoadOptions& opts, model::SnapshotBuilder& out,
               std::vector<Diagnostic>& diags, std::vector<model::ObjectRef>* pods) {
  DecodeContext ctx{out, diags, pods, opts.derive_pods, opts.progress};
  std::error_code ec;
  if (path != "-" && fs::is_directory(path, ec)) {
    Visited visited;
    load_folder(path, opts, ctx, visited);
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
