// SPDX-License-Identifier: Apache-2.0
// The transparent snapshot cache: where it lives, when it is used, and that a stale, damaged
// or unwritable entry never changes an answer.
#include "kpreempt/cache/cache.h"

#include "cache/cache_support.h"
#include "support/run.h"

#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace kpreempt::test {
namespace {

const std::string k_demo = KPREEMPT_TESTDATA "/demo/cluster.yaml";
const std::string k_what_if = KPREEMPT_TESTDATA "/cli/what-if-pod.yaml";

// A copy of the demo dump the test may touch, and a cache folder of its own.
struct Fixture {
  TempDir tmp;
  std::string dump = tmp.str("cluster.yaml");
  fs::path cache_dir = tmp.path() / "xdg" / "kpreempt";
  EnvGuard xdg{"XDG_CACHE_HOME", (tmp.path() / "xdg").string()};
  EnvGuard min{"KPREEMPT_CACHE_MIN_BYTES", "0"};

  Fixture() { fs::copy_file(k_demo, dump); }

  Run explain(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"explain", "-f",  dump, "--now", "2026-11-22T10:00:00Z",
                                     "-o",      "json"};
    if (extra.empty()) {
      extra = {"--pod", "ml/trainer-0"};
    }
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  }
  std::size_t entries() const {
    std::error_code ec;
    if (!fs::is_directory(cache_dir, ec)) {
      return 0;
    }
    auto it = fs::directory_iterator(cache_dir);
    return static_cast<std::size_t>(std::distance(it, fs::directory_iterator()));
  }
  cache::Key key() const { return *cache::make_key({dump}, false); }
  fs::path entry() const { return cache::entry_path(cache_dir, key()); }
};

}  // namespace

TEST_CASE("the first run fills the cache and the second reads it", "[cache]") {
  Fixture fx;
  Run first = fx.explain();
  REQUIRE(first.code == 0);
  REQUIRE(fx.entries() == 1);
  REQUIRE(fs::exists(fx.entry()));

  // Replace the entry by one with a warning of its own: seeing it proves the hit.
  cache::SnapshotFile stored = *cache::lookup(fx.key());
  stored.load_diags.push_back({Severity::warning, {"marker.yaml", 1, 1}, "from the cache"});
  spit(fx.entry(), cache::encode(stored, fx.key().text));
  Run second = fx.explain();
  CHECK(second.code == 0);
  CHECK(second.out == first.out);
  CHECK(second.err == first.err + "marker.yaml:1:1: warning: from the cache\n");
}

TEST_CASE("a cache hit prints the warnings of the load it replaces", "[cache]") {
  Fixture fx;
  spit(fx.dump, slurp(k_demo) +
                    "---\napiVersion: v1\nkind: Pod\nmetadata: {name: odd, namespace: ml}\n"
                    "spec:\n  priorityClassName: training-critical\n  priority: 7\n"
                    "  containers: [{name: c}]\n");
  Run plain = fx.explain({"--pod", "ml/trainer-0", "--no-cache"});
  REQUIRE(plain.code == 0);
  REQUIRE(plain.err.find("warning: Pod ml/odd: spec.priority 7 differs") != std::string::npos);
  Run miss = fx.explain();
  Run hit = fx.explain();
  CHECK(fx.entries() == 1);
  CHECK(miss.err == plain.err);
  CHECK(hit.err == plain.err);
  CHECK(hit.out == plain.out);

  SECTION("and --pod-file objects are added to the cached snapshot") {
    Run plain_what_if = fx.explain({"--pod-file", k_what_if, "--no-cache"});
    REQUIRE(plain_what_if.code == 0);
    Run hit_what_if = fx.explain({"--pod-file", k_what_if});
    CHECK(hit_what_if.code == 0);
    CHECK(hit_what_if.out == plain_what_if.out);
    CHECK(hit_what_if.err == plain_what_if.err);
    CHECK(fx.entries() == 1);  // the what-if pod is not part of the entry
  }
}

// Pods added to a cached snapshot are indexed alone unless anything else is added or a name
// is taken twice; either way the answer and every message are those of a plain load.
TEST_CASE("pod files over a cached snapshot answer as a plain load does", "[cache]") {
  const std::string pending =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: next, namespace: ml}\n"
      "spec:\n  priorityClassName: training-critical\n"
      "  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n"
      "  containers: [{name: c, resources: {requests: {cpu: '8', nvidia.com/gpu: '2'}}}]\n";
  const std::string bound =
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: placed, namespace: batch, labels: "
      "{app: x}}\nspec:\n  nodeName: gpu-a100-2\n  priority: 7\n  priorityClassName: research\n"
      "  containers: [{name: c, resources: {requests: {cpu: '1'}}}]\nstatus: {phase: Running}\n";
  const std::string elsewhere =
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: lost, namespace: batch}\n"
      "spec:\n  nodeName: gone-1\n  containers: [{name: c}]\n";
  const std::string daemon_set =
      "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: ml}\n"
      "spec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: "
      "{app: agent}}\n    spec:\n      containers: [{name: c, resources: {requests: {cpu: "
      "'1'}}}]\n";
  const auto [name, text] = GENERATE_COPY(table<std::string, std::string>({
      {"a pending pod", pending},
      {"and one bound to a node of the dump", pending + bound},
      {"and one bound to a node the dump lacks", pending + elsewhere},
      {"and a DaemonSet", pending + daemon_set},
      {"a Deployment", slurp(KPREEMPT_TESTDATA "/sequence/deployment.yaml")},
  }));
  CAPTURE(name);
  Fixture fx;
  const std::string pod_file = fx.tmp.str("what-if.yaml");
  spit(pod_file, text);
  Run plain = fx.explain({"--pod-file", pod_file, "--no-cache"});
  Run miss = fx.explain({"--pod-file", pod_file});
  Run hit = fx.explain({"--pod-file", pod_file});
  CHECK(fx.entries() == 1);
  for (const Run* r : {&miss, &hit}) {
    CHECK(r->code == plain.code);
    CHECK(r->out == plain.out);
    CHECK(r->err == plain.err);
  }
}

// Without the cache the loader sees both copies and says whether they differ; over a cached
// snapshot only the name is known. Either way the pod file is refused at the copy.
TEST_CASE("a pod file pod whose name the dump holds is refused with or without the cache",
          "[cache]") {
  Fixture fx;
  const std::string pod_file = fx.tmp.str("what-if.yaml");
  spit(pod_file,
       "apiVersion: v1\nkind: Pod\nmetadata: {name: notebook-alice, namespace: research}\n"
       "spec:\n  containers: [{name: c}]\n");
  const std::string said = pod_file + ":1:1: error: Pod research/notebook-alice: duplicate object";
  for (const Run& r :
       {fx.explain({"--pod-file", pod_file, "--no-cache"}), fx.explain({"--pod-file", pod_file}),
        fx.explain({"--pod-file", pod_file})}) {
    CHECK(r.code == 2);
    CHECK(r.err.find(said) != std::string::npos);
  }
}

TEST_CASE("a touched input misses and its entry is replaced", "[cache]") {
  Fixture fx;
  Run first = fx.explain();
  REQUIRE(cache::lookup(fx.key()));
  fs::last_write_time(fx.dump, fs::last_write_time(fx.dump) + std::chrono::seconds(2));
  CHECK_FALSE(cache::lookup(fx.key()));
  Run second = fx.explain();
  CHECK(second.out == first.out);
  CHECK(cache::lookup(fx.key()));
  CHECK(fx.entries() == 1);
}

TEST_CASE("a damaged cache entry is silently rebuilt", "[cache]") {
  Fixture fx;
  Run first = fx.explain();
  std::string bytes = slurp(fx.entry());
  SECTION("flipped byte") {
    bytes[bytes.size() - 10] = static_cast<char>(bytes[bytes.size() - 10] ^ 1);
  }
  SECTION("truncated") {
    bytes.resize(bytes.size() / 2);
  }
  SECTION("not a snapshot at all") {
    bytes = "garbage";
  }
  spit(fx.entry(), bytes);
  CHECK_FALSE(cache::lookup(fx.key()));
  Run second = fx.explain();
  CHECK(second.code == 0);
  CHECK(second.out == first.out);
  CHECK(second.err == first.err);
  CHECK(cache::lookup(fx.key()));
}

TEST_CASE("a cache entry that cannot be written costs a warning, not the answer", "[cache]") {
  Fixture fx;
  Run plain = fx.explain({"--pod", "ml/trainer-0", "--no-cache"});
  fs::create_directories(fx.entry());  // rename() cannot replace a folder
  Run r = fx.explain();
  CHECK(r.code == 0);
  CHECK(r.out == plain.out);
  CHECK(r.err == plain.err + "kpreempt: warning: snapshot cache ignored: cannot open \"" +
                     fx.entry().string() + "\": not a regular file\n");
  CHECK(fx.entries() == 1);  // no temporary file left behind
}

TEST_CASE("with --no-cache the cache is neither read nor written", "[cache]") {
  Fixture fx;
  CHECK(fx.explain({"--pod", "ml/trainer-0", "--no-cache"}).code == 0);
  CHECK_FALSE(fs::exists(fx.cache_dir));
  CHECK(run_cli({"matrix", "-f", fx.dump, "--no-cache"}).code == 0);
  CHECK_FALSE(fs::exists(fx.cache_dir));
  CHECK(run_cli({"matrix", "-f", fx.dump, "--cache", "--no-cache"}).code == 2);
}

TEST_CASE("small inputs are cached only with --cache", "[cache]") {
  Fixture fx;
  EnvGuard big{"KPREEMPT_CACHE_MIN_BYTES", "1000000000000"};
  CHECK(fx.explain().code == 0);
  CHECK(fx.entries() == 0);
  CHECK(fx.explain({"--pod", "ml/trainer-0", "--cache"}).code == 0);
  CHECK(fx.entries() == 1);
  CHECK(cache::min_bytes() == 1000000000000ULL);
  EnvGuard unset{"KPREEMPT_CACHE_MIN_BYTES", std::nullopt};
  CHECK(cache::min_bytes() == cache::k_default_min_bytes);
}

TEST_CASE("the cache lives under XDG_CACHE_HOME, else HOME/.cache", "[cache]") {
  Fixture fx;
  SECTION("XDG_CACHE_HOME") {
    CHECK(cache::directory() == fx.tmp.path() / "xdg" / "kpreempt");
  }
  SECTION("HOME when XDG_CACHE_HOME is unset or relative") {
    EnvGuard home{"HOME", fx.tmp.str("home")};
    EnvGuard relative{"XDG_CACHE_HOME", "relative/cache"};
    CHECK(cache::directory() == fx.tmp.path() / "home" / ".cache" / "kpreempt");
    EnvGuard xdg{"XDG_CACHE_HOME", std::nullopt};
    CHECK(fx.explain().code == 0);
    CHECK(fx.entries() == 0);
    CHECK(fs::exists(fx.tmp.path() / "home" / ".cache" / "kpreempt"));
  }
  SECTION("no cache at all, silently, when neither is usable") {
    spit(fx.tmp.path() / "xdg", "a file where the cache folder should be");
    Run r = fx.explain();
    CHECK(r.code == 0);
    CHECK(r.err == fx.explain({"--pod", "ml/trainer-0", "--no-cache"}).err);
    EnvGuard home{"HOME", std::nullopt};
    EnvGuard xdg{"XDG_CACHE_HOME", std::nullopt};
    CHECK_FALSE(cache::directory());
    CHECK(fx.explain().code == 0);
  }
}

TEST_CASE("cache keys follow paths, sizes, times and -R, and stdin has none", "[cache]") {
  Fixture fx;
  CHECK_FALSE(cache::make_key({"-"}, false));
  CHECK_FALSE(cache::make_key({fx.dump, "-"}, false));
  CHECK_FALSE(cache::make_key({fx.tmp.str("absent.yaml")}, false));
  cache::Key file = fx.key();
  // Messages from the entry show the path as written, so another spelling is another entry.
  CHECK(cache::make_key({fx.tmp.str("./cluster.yaml")}, false)->identity != file.identity);
  CHECK(file.total_bytes == fs::file_size(fx.dump));
  CHECK(file.text.find(fs::canonical(fx.dump).string()) != std::string::npos);

  fs::create_directories(fx.tmp.path() / "dir" / "sub");
  spit(fx.tmp.path() / "dir" / "a.yaml", "x");
  std::string dir = fx.tmp.str("dir");
  cache::Key flat = *cache::make_key({dir}, false);
  cache::Key deep = *cache::make_key({dir}, true);
  CHECK(flat.identity != deep.identity);
  spit(fx.tmp.path() / "dir" / "sub" / "b.yaml", "yy");
  CHECK(cache::make_key({dir}, true)->text != deep.text);
  CHECK(cache::make_key({dir}, true)->total_bytes == 3);
  spit(fx.tmp.path() / "dir" / "a.yaml", "z");  // same size
  fs::last_write_time(
      fx.tmp.path() / "dir" / "a.yaml",
      fs::last_write_time(fx.tmp.path() / "dir" / "a.yaml") + std::chrono::nanoseconds(1000));
  CHECK(cache::make_key({dir}, false)->text != flat.text);
}

TEST_CASE("the cache folder and its entries are private to the user", "[cache]") {
  Fixture fx;
  REQUIRE(fx.explain().code == 0);
  struct stat st {};
  REQUIRE(::stat(fx.cache_dir.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  REQUIRE(::stat(fx.entry().c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
}

TEST_CASE("an entry others could have planted is ignored, said once, and not written over",
          "[cache]") {
  Fixture fx;
  Run plain = fx.explain({"--pod", "ml/trainer-0", "--no-cache"});
  REQUIRE(fx.explain().code == 0);
  cache::SnapshotFile planted = *cache::lookup(fx.key());
  planted.load_diags.push_back({Severity::warning, {"planted.yaml", 1, 1}, "planted"});
  const std::string planted_bytes = cache::encode(planted, fx.key().text);
  SECTION("in a folder others can write to") {
    spit(fx.entry(), planted_bytes);
    fs::permissions(fx.cache_dir, fs::perms::others_write, fs::perm_options::add);
    Run r = fx.explain();
    CHECK(r.out == plain.out);
    CHECK(r.err == plain.err + "kpreempt: warning: snapshot cache ignored: \"" +
                       fx.cache_dir.string() + "\" can be written by other users\n");
    CHECK(slurp(fx.entry()) == planted_bytes);
  }
  SECTION("through a link") {
    const fs::path elsewhere = fx.tmp.path() / "elsewhere.kps";
    spit(elsewhere, planted_bytes);
    fs::remove(fx.entry());
    fs::create_symlink(elsewhere, fx.entry());
    Run r = fx.explain();
    CHECK(r.out == plain.out);
    CHECK(r.err.find("planted") == std::string::npos);
    CHECK(r.err.find("snapshot cache ignored: cannot open") != std::string::npos);
    CHECK(slurp(elsewhere) == planted_bytes);
  }
  SECTION("a FIFO at the entry's path") {
    fs::remove(fx.entry());
    REQUIRE(::mkfifo(fx.entry().c_str(), 0600) == 0);
    Run r = fx.explain();
    CHECK(r.code == 0);
    CHECK(r.out == plain.out);
  }
}

TEST_CASE("an input rewritten with its old size and time misses the cache", "[cache]") {
  Fixture fx;
  REQUIRE(fx.explain().code == 0);
  const auto when = fs::last_write_time(fx.dump);
  std::string bytes = slurp(fx.dump);
  const std::size_t at = bytes.find("trainer-0");
  REQUIRE(at != std::string::npos);
  bytes[at + 8] = '9';  // another pod name, same length
  spit(fx.dump, bytes);
  fs::last_write_time(fx.dump, when);
  CHECK_FALSE(cache::lookup(fx.key()));
}

TEST_CASE("only an input changed in the last seconds is hashed; older ones go by their times",
          "[cache]") {
  Fixture fx;
  // An hour from now, nothing in the fixture is recent.
  const std::int64_t later =
      (std::chrono::system_clock::now() + std::chrono::hours(1)).time_since_epoch() /
      std::chrono::nanoseconds(1);
  const cache::Key recent = fx.key();
  const cache::Key settled = *cache::make_key({fx.dump}, false, later);
  CHECK(recent.identity == settled.identity);
  CHECK(recent.text.size() == settled.text.size() + 17);  // " " and 16 hex digits
  CHECK(recent.text.starts_with(settled.text.substr(0, settled.text.size() - 1)));

  // Rewritten in place with its old size and modification time: the change time moves.
  const auto when = fs::last_write_time(fx.dump);
  std::string bytes = slurp(fx.dump);
  const std::size_t at = bytes.find("trainer-0");
  REQUIRE(at != std::string::npos);
  bytes[at + 8] = '9';
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past a coarse clock tick
  spit(fx.dump, bytes);
  fs::last_write_time(fx.dump, when);
  CHECK(cache::make_key({fx.dump}, false, later)->text != settled.text);
}

TEST_CASE("temporary files of writers that died are cleaned up", "[cache]") {
  Fixture fx;
  REQUIRE(fx.explain().code == 0);
  // No process has pid 0x7FFFFFF0 (pid_max is far lower).
  const fs::path stale = fx.cache_dir / "0123456789abcdef.kps.tmp.2147483632.1a2b";
  spit(stale, "half");
  fs::last_write_time(fx.entry(), fs::last_write_time(fx.entry()) - std::chrono::hours(1));
  fs::last_write_time(fx.dump, fs::last_write_time(fx.dump) + std::chrono::seconds(2));
  REQUIRE(fx.explain().code == 0);  // a miss, so an entry is written
  CHECK_FALSE(fs::exists(stale));
  CHECK(fx.entries() == 1);
}

}  // namespace kpreempt::test
