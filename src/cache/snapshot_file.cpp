// SPDX-License-Identifier: Apache-2.0
// The snapshot file container: magic, format and tool version, the inputs' key, the payload
// length and checksum, then the payload. Read with one read, written atomically.
#include "kpreempt/cache/snapshot_file.h"

#include "cache/codec.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <random>
#include <stdexcept>
#include <thread>

namespace kpreempt::cache {
namespace {

// 0x89 cannot start a YAML or JSON document, so sniffing never mistakes a dump for a snapshot.
constexpr std::array<char, 8> k_magic = {'\x89', 'K', 'P', 'S', 'N', 'A', 'P', '\n'};
constexpr std::size_t k_max_header_string = 1 << 24;
constexpr std::string_view k_recreate = "recreate it with kpreempt snapshot";

using Kind = SnapshotError::Kind;

std::uint64_t rotl(std::uint64_t v, int r) {
  return (v << r) | (v >> (64 - r));
}

std::uint64_t load64(const char* p) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, sizeof v);
  return codec::to_little(v);
}

// A 64-bit checksum in the manner of xxHash64 (four multiply-rotate lanes over 32-byte
// stripes, then an avalanche): several GB/s, so checking a large file costs little.
}  // namespace

std::uint64_t checksum(std::string_view data) {
  constexpr std::uint64_t k_p1 = 0x9E3779B185EBCA87ULL;
  constexpr std::uint64_t k_p2 = 0xC2B2AE3D27D4EB4FULL;
  constexpr std::uint64_t k_p3 = 0x165667B19E3779F9ULL;
  std::array<std::uint64_t, 4> lane = {k_p1 + k_p2, k_p2, 0, 0 - k_p1};
  const char* p = data.data();
  std::size_t n = data.size();
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    for (std::size_t k = 0; k < 4; ++k) {
      lane[k] = rotl(lane[k] + load64(p + i + 8 * k) * k_p2, 31) * k_p1;
    }
  }
  std::uint64_t h = rotl(lane[0], 1) + rotl(lane[1], 7) + rotl(lane[2], 12) + rotl(lane[3], 18);
  h ^= n;
  for (; i < n; ++i) {
    h = (h ^ static_cast<unsigned char>(p[i])) * 0x100000001B3ULL;  // FNV-1a for the tail
  }
  h ^= h >> 33;
  h *= k_p2;
  h ^= h >> 29;
  h *= k_p3;
  h ^= h >> 32;
  return h;
}

namespace {

template <class I>
void put_int(std::string& out, I v) {
  I le = codec::to_little(v);
  out.append(reinterpret_cast<const char*>(&le), sizeof le);
}

void put_string(std::string& out, std::string_view s) {
  put_int(out, static_cast<std::uint32_t>(s.size()));
  out.append(s);
}

// Reads the header fields in order; every read is bounds-checked against the bytes present.
class HeaderReader {
 public:
  explicit HeaderReader(std::string_view in) : m_in(in) {}
  template <class I>
  I read_int() {
    I v{};
    std::memcpy(&v, take(sizeof v).data(), sizeof v);
    return codec::to_little(v);
  }
  std::string_view read_string() {
    auto n = read_int<std::uint32_t>();
    if (n > k_max_header_string) {
      throw SnapshotError(Kind::corrupt,
                          fmt::format("corrupted snapshot (bad header); {}", k_recreate));
    }
    return take(n);
  }
  std::string_view rest() const { return m_in.substr(m_pos); }

 private:
  std::string_view take(std::size_t n) {
    if (n > m_in.size() - m_pos) {
      throw SnapshotError(
          Kind::corrupt,
          fmt::format("truncated snapshot (the header is cut short); {}", k_recreate));
    }
    std::string_view s = m_in.substr(m_pos, n);
    m_pos += n;
    return s;
  }
  std::string_view m_in;
  std::size_t m_pos = 0;
};

void check_versions(HeaderReader& h) {
  auto format = h.read_int<std::uint32_t>();
  std::string_view version = h.read_string();
  if (version != tool_version()) {
    throw SnapshotError(Kind::version, fmt::format("written by kpreempt {}, this is {}; {}",
                                                   version, tool_version(), k_recreate));
  }
  if (format != k_format_version) {
    throw SnapshotError(
        Kind::version, fmt::format("snapshot format {} is not the one this kpreempt reads ({}); {}",
                                   format, k_format_version, k_recreate));
  }
}

std::string errno_text() {
  return std::strerror(errno);
}

std::string header(std::string_view payload, std::string_view key, std::string_view version) {
  std::string out(k_magic.data(), k_magic.size());
  put_int(out, k_format_version);
  put_string(out, version);
  put_string(out, key);
  put_int(out, static_cast<std::uint64_t>(payload.size()));
  put_int(out, checksum(payload));
  return out;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

std::string_view tool_version() {
  return KPREEMPT_VERSION;
}

bool looks_like_snapshot(const std::string& path) {
  if (path == "-") {
    return false;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return false;
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return false;
  }
  std::array<char, 4> head{};
  ssize_t n = ::read(fd, head.data(), head.size());
  ::close(fd);
  return n == static_cast<ssize_t>(head.size()) &&
         std::memcmp(head.data(), k_magic.data(), head.size()) == 0;
}

std::string encode(const SnapshotFile& file, std::string_view key, std::string_view version) {
  std::string payload = codec::encode_payload(file);
  return header(payload, key, version) + payload;
}

namespace {

SnapshotFile decode_with(std::string_view bytes, std::string_view key,
                         const codec::Reader::Release& release) {
  if (bytes.size() < k_magic.size() ||
      std::memcmp(bytes.data(), k_magic.data(), k_magic.size()) != 0) {
    throw SnapshotError(Kind::bad_magic, "not a kpreempt snapshot (bad magic)");
  }
  HeaderReader h(bytes.substr(k_magic.size()));
  check_versions(h);
  std::string_view stored_key = h.read_string();
  if (!key.empty() && stored_key != key) {
    throw SnapshotError(Kind::other_key, "the snapshot was made from other inputs");
  }
  auto size = h.read_int<std::uint64_t>();
  auto sum = h.read_int<std::uint64_t>();
  std::string_view payload = h.rest();
  if (payload.size() != size) {
    throw SnapshotError(
        Kind::corrupt, fmt::format("truncated snapshot (the payload has {} bytes, expected {}); {}",
                                   payload.size(), size, k_recreate));
  }
  // The checksum is summed on a second core while the payload decodes: decoding is bounds-
  // checked and safe on any bytes, and its result is dropped unless the sum matches.
  std::uint64_t actual = 0;
  SnapshotFile file;
  std::string decode_error;
  {
    std::jthread summer([&actual, payload] { actual = checksum(payload); });
    try {
      codec::decode_payload(payload, file, release);
    } catch (const codec::DecodeError& e) {
      decode_error = e.what();
    } catch (const std::length_error&) {  // a damaged count, before the sum has said so
      decode_error = "a length exceeds what can be held";
    } catch (const std::bad_alloc&) {
      decode_error = "a length exceeds what can be held";
    }
  }
  if (actual != sum) {
    throw SnapshotError(Kind::corrupt,
                        fmt::format("corrupted snapshot (checksum mismatch); {}", k_recreate));
  }
  if (!decode_error.empty()) {
    throw SnapshotError(Kind::corrupt,
                        fmt::format("corrupted snapshot ({}); {}", decode_error, k_recreate));
  }
  return file;
}

}  // namespace

SnapshotFile decode(std::string_view bytes, std::string_view key) {
  return decode_with(bytes, key, {});
}

namespace {

// Opens without blocking (a FIFO answers no read) and checks the file before reading it.
int open_checked(const std::string& path, const EntryRules* rules) {
  const int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (rules != nullptr ? O_NOFOLLOW : 0);
  int fd = ::open(path.c_str(), flags);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    std::string why = errno_text();
    if (fd >= 0) {
      ::close(fd);
    }
    throw SnapshotError(Kind::unreadable, fmt::format("cannot open \"{}\": {}", path, why));
  }
  std::string why;
  if (!S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else if (rules != nullptr && st.st_uid != ::geteuid()) {
    why = "owned by another user";
  } else if (rules != nullptr && static_cast<std::uint64_t>(st.st_size) > rules->max_bytes) {
    why = fmt::format("{} bytes, more than the {} an entry for these inputs can have", st.st_size,
                      rules->max_bytes);
  }
  if (!why.empty()) {
    ::close(fd);
    throw SnapshotError(Kind::unreadable, fmt::format("cannot open \"{}\": {}", path, why));
  }
  return fd;
}

// The file's pages mapped, not copied: a large snapshot is then read once, by the decoder.
// Snapshots are only ever replaced by rename(), never rewritten in place, so the mapping
// does not shrink under the reader.
class Mapping {
 public:
  Mapping(int fd, std::size_t size) : m_size(size) {
    if (size > 0) {
      void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      m_data = p == MAP_FAILED ? nullptr : static_cast<const char*>(p);
    }
  }
  ~Mapping() {
    if (m_data != nullptr) {
      ::munmap(const_cast<char*>(m_data), m_size);
    }
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  bool ok() const { return m_data != nullptr; }
  std::string_view bytes() const { return {m_data, m_size}; }
  // Gives back the whole pages of `part` (of bytes()) that hold nothing read later: the
  // decoded objects then do not sit in memory beside their encoding. A page read again
  // (the checksum still summing it) is simply read from the page cache again.
  void release(std::string_view part) const {
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<std::uintptr_t>(part.data()) + page - 1) / page * page;
    const auto end = (reinterpret_cast<std::uintptr_t>(part.data()) + part.size()) / page * page;
    if (end > begin) {
      ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
    }
  }

 private:
  const char* m_data = nullptr;
  std::size_t m_size;
};

std::string read_all(int fd, std::size_t size) {
  std::string buf(size, '\0');
  std::size_t got = 0;
  while (got < size) {
    ssize_t n = ::read(fd, buf.data() + got, size - got);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    got += static_cast<std::size_t>(n);
  }
  buf.resize(got);
  return buf;
}

SnapshotFile read_checked(const std::string& path, std::string_view key, const EntryRules* rules) {
  int fd = open_checked(path, rules);
  struct stat st {};
  ::fstat(fd, &st);
  auto size = static_cast<std::size_t>(st.st_size);
  Mapping map(fd, size);
  if (map.ok()) {
    ::close(fd);
    return decode_with(map.bytes(), key, [&map](std::string_view part) { map.release(part); });
  }
  std::string bytes = read_all(fd, size);  // a file system that cannot map it
  ::close(fd);
  return decode(bytes, key);
}

}  // namespace

SnapshotFile read_snapshot_file(const std::string& path, std::string_view key) {
  return read_checked(path, key, nullptr);
}

SnapshotFile read_cache_entry(const std::string& path, std::string_view key,
                              const EntryRules& rules) {
  return read_checked(path, key, &rules);
}

bool other_version(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) {
    return false;
  }
  std::array<char, 256> head{};
  ssize_t n = ::read(fd, head.data(), head.size());
  ::close(fd);
  if (n < static_cast<ssize_t>(k_magic.size()) ||
      std::memcmp(head.data(), k_magic.data(), k_magic.size()) != 0) {
    return false;  // not a snapshot at all: not ours to remove
  }
  try {
    HeaderReader h(
        std::string_view(head.data(), static_cast<std::size_t>(n)).substr(k_magic.size()));
    check_versions(h);
    return false;
  } catch (const SnapshotError& e) {
    return e.kind() == Kind::version;
  }
}

std::string write_snapshot_file(const std::string& path, const SnapshotFile& file,
                                std::string_view key) {
  // Header and payload are written apart: a large snapshot is not copied once more.
  std::string payload = codec::encode_payload(file);
  // A unique name in the same folder: rename() is atomic only within one file system, and
  // two processes filling the same cache entry must not write into one temporary file.
  std::string tmp = fmt::format("{}.tmp.{}.{:x}", path, ::getpid(), std::random_device{}());
  // A cache entry is for this user's eyes only; a snapshot written on request is a document.
  const mode_t mode = key.empty() ? 0644 : 0600;
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
  if (fd < 0) {
    return fmt::format("cannot write \"{}\": {}", path, errno_text());
  }
  if (!write_all(fd, header(payload, key, tool_version())) || !write_all(fd, payload)) {
    std::string why = errno_text();
    ::close(fd);
    ::unlink(tmp.c_str());
    return fmt::format("cannot write \"{}\": {}", path, why);
  }
  if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = errno_text();
    ::unlink(tmp.c_str());
    return fmt::format("cannot write \"{}\": {}", path, why);
  }
  return {};
}

}  // namespace kpreempt::cache
