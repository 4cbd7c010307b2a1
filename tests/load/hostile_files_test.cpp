// SPDX-License-Identifier: Apache-2.0
// Files that change, loop or never end: a truncated file is an error, never a signal; folders
// read only regular files, each folder once; diagnostics and endless values are bounded.
#include "load/file_region.h"

#include "kpreempt/load/load.h"
#include "kpreempt/load/scan.h"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace kpreempt::load {
namespace {

namespace fs = std::filesystem;

// A fresh folder under the system's temporary folder, removed afterwards.
struct Scratch {
  fs::path dir;
  Scratch() {
    dir = fs::temp_directory_path() / fmt::format("kpreempt-hostile-{}", ::getpid());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  }
};

struct Result {
  model::Snapshot snapshot;
  std::vector<std::string> diags;
};

Result load(const std::string& path, bool recursive = false) {
  model::SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  LoadOptions opts;
  opts.recursive = recursive;
  opts.threads = 1;
  load_path(path, opts, builder, diags);
  Result out{std::move(builder).build(diags), {}};
  for (const Diagnostic& d : diags) {
    out.diags.push_back(format(d));
  }
  return out;
}

std::string node(const std::string& name) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n";
}

}  // namespace

TEST_CASE("a file cut short while a part of it is read is an error, not SIGBUS",
          "[load][hostile]") {
  Scratch s;
  std::string text;
  for (int i = 0; i < 400000; ++i) {  // several windows
    text += fmt::format("- line {}\n", i);
  }
  const std::string path = s.write("cut.yaml", text);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  FileRegion region(fd, 0, text.size(), true, nullptr);
  CHECK_FALSE(region.next().empty());
  REQUIRE(::truncate(path.c_str(), 100) == 0);
  auto read_all = [&] {
    while (!region.next().empty()) {
    }
  };
  CHECK_THROWS_AS(read_all(), FileChanged);
  ::close(fd);
}

TEST_CASE("a folder's FIFOs and devices named like dumps are skipped with a warning",
          "[load][hostile]") {
  Scratch s;
  s.write("a.yaml", node("n1"));
  REQUIRE(::mkfifo((s.dir / "b.yaml").c_str(), 0600) == 0);
  Result r = load(s.dir.string());
  CHECK(r.snapshot.nodes().size() == 1);
  CHECK(r.diags ==
        std::vector<std::string>{"kpreempt: warning: skipping \"" + (s.dir / "b.yaml").string() +
                                 "\": not a regular file"});
}

TEST_CASE("reading with -R visits each folder once, however links loop", "[load][hostile]") {
  Scratch s;
  s.write("a.yaml", node("n1"));
  fs::create_directory_symlink(".", s.dir / "x");
  fs::create_directories(s.dir / "sub");
  s.write("sub/b.yaml", node("n2"));
  fs::create_directory_symlink("..", s.dir / "sub" / "up");
  fs::create_symlink("a.yaml", s.dir / "c.yaml");  // a link to a file is read as the file
  Result r = load(s.dir.string(), true);
  CHECK(r.snapshot.nodes().size() == 2);  // n1 from a.yaml and c.yaml is a duplicate
  std::size_t loops = 0;
  for (const std::string& d : r.diags) {
    loops += d.find("a folder already read") != std::string::npos ? 1 : 0;
  }
  CHECK(loops == 2);
}

TEST_CASE("the scanner behind lint walks folders the same way", "[load][hostile]") {
  Scratch s;
  s.write("a.yaml", node("n1"));
  REQUIRE(::mkfifo((s.dir / "b.yaml").c_str(), 0600) == 0);
  fs::create_directory_symlink(".", s.dir / "x");
  std::vector<ScannedObject> objects;
  std::vector<Diagnostic> diags;
  LoadOptions opts;
  opts.recursive = true;
  scan_path(s.dir.string(), opts, objects, diags);
  CHECK(objects.size() == 1);
  REQUIRE(diags.size() == 2);
  CHECK(format(diags[0]) ==
        "kpreempt: warning: skipping \"" + (s.dir / "b.yaml").string() + "\": not a regular file");
  CHECK(format(diags[1]).find("a folder already read") != std::string::npos);
}

TEST_CASE("past 1000 diagnostics a file's further ones are counted, not kept", "[load][hostile]") {
  std::string text;
  for (int i = 0; i < 5000; ++i) {
    text += "- a\n";
  }
  model::SnapshotBuilder builder;
  std::vector<Diagnostic> diags;
  load_buffer(text, "many.yaml", builder, diags);
  REQUIRE(diags.size() == 1001);
  CHECK(format(diags[999]) == "many.yaml:1000:3: error: expected a Kubernetes object, got \"a\"");
  CHECK(
      format(diags[1000]) ==
      "many.yaml: error: ... and 4000 more diagnostics (only the first 1000 of a file are shown)");
}

TEST_CASE("a value that never ends stops at 64 MiB of input", "[load][hostile]") {
  Scratch s;
  const std::string path = (s.dir / "endless.yaml").string();
  {
    std::ofstream out(path, std::ios::binary);
    out << "apiVersion: v1\nkind: Node\nmetadata:\n  name: ";
    const std::string lines(1 << 20, 'y');
    for (int i = 0; i < 66; ++i) {
      out << lines << "\n   ";
    }
  }
  Result r = load(path);
  REQUIRE(r.diags.size() == 1);
  CHECK(r.diags[0] == path +
                          ":4:3: error: a value runs on for more than 64 MiB of input; the "
                          "rest is not read");
}

TEST_CASE("a JSON string that never ends stops a few MiB in, not at the end of the input",
          "[load][hostile]") {
  Scratch s;
  const std::string path = (s.dir / "endless.json").string();
  {
    std::ofstream out(path, std::ios::binary);
    out << R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")";
    const std::string chunk(1 << 20, 'y');
    for (int i = 0; i < 40; ++i) {
      out << chunk;
    }
    out << R"("}})";
  }
  Result r = load(path);
  REQUIRE(r.diags.size() == 1);
  CHECK(r.diags[0] == path +
                          ":1:59: error: value is longer than the limit of 1 MiB (over 8 MiB of "
                          "JSON text without an end)");
}

TEST_CASE("an input that holds no object says so", "[load][hostile]") {
  Scratch s;
  for (const std::string text :
       {"", "# only a comment\n", "apiVersion: v1\nkind: List\nitems: null\n",
        "apiVersion: v1\nkind: NodeList\nitems: []\n", "{\"kind\": \"List\", \"items\": []}"}) {
    const std::string path = s.write("empty.yaml", text);
    Result r = load(path);
    INFO(text);
    REQUIRE(r.diags.size() == 1);
    CHECK(r.diags[0] == path + ": warning: holds no Kubernetes object");
  }
  // A file whose objects are all skipped kinds still holds objects.
  const std::string path =
      s.write("secret.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n");
  CHECK(load(path).diags.empty());
}

}  // namespace kpreempt::load
