// SPDX-License-Identifier: Apache-2.0
// Where cache entries live, what names and validates them, and reading and writing them. Any
// trouble with an entry means a miss: the cache can make a run faster, never wrong or fail.
#include "kpreempt/cache/cache.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string_view>

namespace kpreempt::cache {
namespace {

namespace fs = std::filesystem;

std::string stamp(const struct stat& st) {
  return fmt::format("{} {}.{:09}", st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

// Every file of a folder counts, not only the ones the loader reads: a spare change costs a
// miss, a missed change would cost a wrong answer. Folder mtimes catch added and removed files.
bool add_folder(const fs::path& dir, bool recursive, Key& key) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    entries.push_back(it->path());
  }
  if (ec) {
    return false;
  }
  std::sort(entries.begin(), entries.end());
  for (const fs::path& p : entries) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) {
      continue;  // a dangling link: the loader skips or reports it the same way each time
    }
    if (S_ISDIR(st.st_mode)) {
      if (recursive) {
        key.text += fmt::format("d {} {}\n", p.string(), stamp(st));
        if (!add_folder(p, recursive, key)) {
          return false;
        }
      }
    } else {
      key.text += fmt::format("f {} {}\n", p.string(), stamp(st));
      key.total_bytes += static_cast<std::uint64_t>(st.st_size);
    }
  }
  return true;
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (char c : s) {
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
  }
  return h;
}

const char* non_empty_env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

}  // namespace

std::uint64_t min_bytes() {
  const char* v = non_empty_env("KPREEMPT_CACHE_MIN_BYTES");
  if (v == nullptr) {
    return k_default_min_bytes;
  }
  std::uint64_t n = 0;
  std::string_view text(v);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  return ec == std::errc() && end == text.data() + text.size() ? n : k_default_min_bytes;
}

std::optional<Key> make_key(const std::vector<std::string>& files, bool recursive) {
  Key key;
  key.identity = fmt::format("kpreempt {} format {} recursive {}\n", tool_version(),
                             k_format_version, recursive ? 1 : 0);
  std::string stamps;
  for (const std::string& file : files) {
    std::error_code ec;
    fs::path canonical = file == "-" ? fs::path() : fs::canonical(file, ec);
    struct stat st {};
    if (file == "-" || ec || ::stat(canonical.c_str(), &st) != 0) {
      return std::nullopt;
    }
    // The path as written too: it is what messages and source locations in the entry show.
    key.identity += fmt::format("input {} {}\n", canonical.string(), file);
    if (S_ISDIR(st.st_mode)) {
      Key inner;
      inner.text = fmt::format("d {} {}\n", canonical.string(), stamp(st));
      if (!add_folder(canonical, recursive, inner)) {
        return std::nullopt;
      }
      stamps += inner.text;
      key.total_bytes += inner.total_bytes;
    } else {
      stamps += fmt::format("f {} {}\n", canonical.string(), stamp(st));
      key.total_bytes += static_cast<std::uint64_t>(st.st_size);
    }
  }
  key.text = key.identity + stamps;
  return key;
}

std::optional<fs::path> directory() {
  // The XDG spec says a relative XDG_CACHE_HOME is invalid and must be ignored.
  if (const char* xdg = non_empty_env("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') {
    return fs::path(xdg) / "kpreempt";
  }
  if (const char* home = non_empty_env("HOME"); home != nullptr) {
    return fs::path(home) / ".cache" / "kpreempt";
  }
  return std::nullopt;
}

// One entry per set of inputs (named by their identity, not their sizes and times), so an
// edited dump replaces its stale entry instead of leaving it behind.
fs::path entry_path(const fs::path& dir, const Key& key) {
  return dir / fmt::format("{:016x}.kps", fnv1a(key.identity));
}

std::optional<SnapshotFile> lookup(const Key& key) {
  auto dir = directory();
  if (!dir) {
    return std::nullopt;
  }
  try {
    return read_snapshot_file(entry_path(*dir, key).string(), key.text);
  } catch (const std::exception&) {
    return std::nullopt;  // absent, stale, other version, corrupt: rebuilt by the caller
  }
}

std::string store(const Key& key, const SnapshotFile& file) {
  auto dir = directory();
  if (!dir) {
    return {};
  }
  std::error_code ec;
  fs::create_directories(*dir, ec);
  if (ec) {
    return {};  // no usable cache folder: silently no cache
  }
  return write_snapshot_file(entry_path(*dir, key).string(), file, key.text);
}

}  // namespace kpreempt::cache
