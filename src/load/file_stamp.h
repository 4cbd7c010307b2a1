// SPDX-License-Identifier: Apache-2.0
// What a regular file looked like when reading began, to tell afterwards whether it changed
// while being read (a dump still being written, or rotated under the reader).
#pragma once

#include "kpreempt/diag.h"

#include <sys/stat.h>

#include <cstdint>
#include <optional>
#include <string>

namespace kpreempt::load {

struct FileStamp {
  dev_t device = 0;
  ino_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;

  // Of the open file `fd`; nothing when it is not a regular file.
  static std::optional<FileStamp> of(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      return std::nullopt;
    }
    return FileStamp{st.st_dev, st.st_ino, static_cast<std::uint64_t>(st.st_size),
                     std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec};
  }
  bool operator==(const FileStamp&) const = default;
};

inline Diagnostic changed_while_read(const std::string& path) {
  // No location: the file itself is what is wrong, and the message names it.
  return Diagnostic{Severity::error, SourceLoc{},
                    "\"" + path + "\" changed while being read; read it again once it is complete"};
}

}  // namespace kpreempt::load
