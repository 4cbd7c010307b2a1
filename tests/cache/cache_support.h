// SPDX-License-Identifier: Apache-2.0
// Shared by the snapshot file and cache tests: a scratch folder, environment overrides, and
// byte-level file edits.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>

namespace kpreempt::test {

namespace fs = std::filesystem;

// A fresh folder under the system temp folder, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    m_path = fs::temp_directory_path() / ("kpreempt-cache-test-" + std::to_string(rd()));
    fs::create_directories(m_path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(m_path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return m_path; }
  std::string str(const std::string& name) const { return (m_path / name).string(); }

 private:
  fs::path m_path;
};

// Sets (or unsets, with nullopt) an environment variable for one scope.
class EnvGuard {
 public:
  EnvGuard(const char* name, std::optional<std::string> value) : m_name(name) {
    if (const char* old = std::getenv(name)) {
      m_old = old;
    }
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~EnvGuard() {
    if (m_old) {
      ::setenv(m_name, m_old->c_str(), 1);
    } else {
      ::unsetenv(m_name);
    }
  }
  EnvGuard(const EnvGuard&) = delete;
  EnvGuard& operator=(const EnvGuard&) = delete;

 private:
  const char* m_name;
  std::optional<std::string> m_old;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void spit(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

}  // namespace kpreempt::test
