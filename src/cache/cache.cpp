// SPDX-License-Identifier: Apache-2.0
// Where cache entries live, what names and validates them, and reading and writing them. Any
// trouble with an entry means a miss: the cache can make a run faster, never wrong or fail.
#include "kpreempt/cache/cache.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <set>
#include <string_view>
#include <utility>

namespace kpreempt::cache {
namespace {

namespace fs = std::filesystem;

// A fingerprint of the file's bytes: size and mtime alone miss a file rewritten within the
// same second, or one given its old mtime back.
std::optional<std::uint64_t> content_hash(const fs::path& p) {
  int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return std::nullopt;
  }
  struct stat st {};
  std::optional<std::uint64_t> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    std::string buf(std::size_t{1} << 20, '\0');
    std::uint64_t h = 0;
    for (;;) {
      ssize_t n = ::read(fd, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        out = n == 0 ? std::optional<std::uint64_t>(h) : std::nullopt;
        break;
      }
      h = (h ^ checksum(std::string_view(buf.data(), static_cast<std::size_t>(n)))) *
          0x9E3779B185EBCA87ULL;
    }
  }
  ::close(fd);
  return out;
}

// A file changed this recently may change again within the same timestamp tick (or, on
// coarse file systems, the same two seconds) without its times moving.
constexpr std::int64_t k_racy_ns = std::int64_t{10} * 1'000'000'000;

std::int64_t ns_of(const struct timespec& t) {
  return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

bool racy(const struct stat& st, std::int64_t now_ns) {
  return std::max(ns_of(st.st_mtim), ns_of(st.st_ctim)) > now_ns - k_racy_ns;
}

// Size, inode, mtime and ctime; and for a regular file changed in the last seconds, a hash of
// its bytes. Any write, truncation or restored mtime moves the ctime, which no user can set
// back, so hashing every file (as long as reading it) would only catch a change within one
// timestamp tick of the last one: the racy case, as git calls it, hashed here. An entry
// written while its input was racy misses once later, when the hash leaves the key.
std::string stamp(const fs::path& p, const struct stat& st, std::int64_t now_ns) {
  std::string out = fmt::format("{} {} {}.{:09} {}.{:09}", st.st_size, st.st_ino, st.st_mtim.tv_sec,
                                st.st_mtim.tv_nsec, st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
  if (S_ISREG(st.st_mode) && racy(st, now_ns)) {
    std::optional<std::uint64_t> h = content_hash(p);
    out += h ? fmt::format(" {:016x}", *h) : " unreadable";
  } else if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    out += " special";
  }
  return out;
}

using Visited = std::set<std::pair<dev_t, ino_t>>;

// Every file of a folder counts, not only the ones the loader reads: a spare change costs a
// miss, a missed change would cost a wrong answer. Folder mtimes catch added and removed files.
bool add_folder(const fs::path& dir, bool recursive, Key& key, Visited& visited,
                std::int64_t now_ns) {
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
      // A folder met again (a link loop) is read once by the loader too.
      if (recursive && visited.emplace(st.st_dev, st.st_ino).second) {
        key.text += fmt::format("d {} {}\n", p.string(), stamp(p, st, now_ns));
        if (!add_folder(p, recursive, key, visited, now_ns)) {
          return false;
        }
      }
    } else {
      key.text += fmt::format("f {} {}\n", p.string(), stamp(p, st, now_ns));
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

std::optional<Key> make_key(const std::vector<std::string>& files, bool recursive,
                            std::optional<std::int64_t> now_ns) {
  if (!now_ns) {
    struct timespec now {};
    ::clock_gettime(CLOCK_REALTIME, &now);
    now_ns = ns_of(now);
  }
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
      inner.text = fmt::format("d {} {}\n", canonical.string(), stamp(canonical, st, *now_ns));
      Visited visited{{st.st_dev, st.st_ino}};
      if (!add_folder(canonical, recursive, inner, visited, *now_ns)) {
        return std::nullopt;
      }
      stamps += inner.text;
      key.total_bytes += inner.total_bytes;
    } else {
      stamps += fmt::format("f {} {}\n", canonical.string(), stamp(canonical, st, *now_ns));
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

namespace {

// Why the cache folder must not be used, or an empty string. Entries in a folder another user
// can write to, or reached through a link, could be planted to make a run answer wrongly.
std::string untrusted_folder(const fs::path& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    return fmt::format("cannot open \"{}\": {}", dir.string(), std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) {
    return fmt::format("\"{}\" is a link", dir.string());
  }
  if (!S_ISDIR(st.st_mode)) {
    return fmt::format("\"{}\" is not a folder", dir.string());
  }
  if (st.st_uid != ::geteuid()) {
    return fmt::format("\"{}\" belongs to another user", dir.string());
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return fmt::format("\"{}\" can be written by other users", dir.string());
  }
  return {};
}

// An entry is a compact form of its inputs: bigger than this, it was not written by kpreempt.
EntryRules rules_for(const Key& key) {
  return EntryRules{key.total_bytes * 4 + (std::uint64_t{64} << 20)};
}

// Temporary files of writers that died (SIGTERM, power loss) and entries of other releases.
void remove_leftovers(const fs::path& dir) {
  std::error_code ec;
  const std::time_t now = std::time(nullptr);
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::size_t tmp = name.find(".kps.tmp.");
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      continue;
    }
    if (tmp != std::string::npos) {
      const long pid = std::strtol(name.c_str() + tmp + 9, nullptr, 10);
      const bool writer_gone =
          pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH);
      if (writer_gone || now - st.st_mtim.tv_sec > 24 * 3600) {
        ::unlink(it->path().c_str());
      }
    } else if (name.ends_with(".kps") && other_version(it->path().string())) {
      ::unlink(it->path().c_str());
    }
  }
}

}  // namespace

std::optional<SnapshotFile> lookup(const Key& key, std::string* ignored) {
  auto dir = directory();
  if (!dir) {
    return std::nullopt;
  }
  std::error_code ec;
  if (!fs::exists(*dir, ec)) {
    return std::nullopt;
  }
  if (std::string why = untrusted_folder(*dir); !why.empty()) {
    if (ignored != nullptr) {
      *ignored = why;
    }
    return std::nullopt;
  }
  const std::string path = entry_path(*dir, key).string();
  try {
    return read_cache_entry(path, key.text, rules_for(key));
  } catch (const SnapshotError& e) {
    // Absent, stale, other version, corrupt: rebuilt by the caller. Not ours: say so.
    struct stat st {};
    if (ignored != nullptr && ::lstat(path.c_str(), &st) == 0 &&
        e.kind() == SnapshotError::Kind::unreadable) {
      *ignored = e.what();
    }
    return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string store(const Key& key, const SnapshotFile& file) {
  auto dir = directory();
  if (!dir) {
    return {};
  }
  std::error_code ec;
  fs::create_directories(dir->parent_path(), ec);
  if (::mkdir(dir->c_str(), 0700) != 0 && errno != EEXIST) {
    return {};  // no usable cache folder: silently no cache
  }
  if (std::string why = untrusted_folder(*dir); !why.empty()) {
    return why;
  }
  remove_leftovers(*dir);
  return write_snapshot_file(entry_path(*dir, key).string(), file, key.text);
}

}  // namespace kpreempt::cache
