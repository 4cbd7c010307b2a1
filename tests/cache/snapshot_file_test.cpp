// SPDX-License-Identifier: Apache-2.0
// Snapshot files: every testdata dump survives a write and a read, explain answers the same
// from a .kps as from the YAML, and damaged files given with -f are refused with a reason.
#include "kpreempt/cache/snapshot_file.h"

#include "cache/cache_support.h"
#include "cache/codec.h"
#include "support/cases.h"
#include "support/run.h"

#include "kpreempt/load/load.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

namespace kpreempt::test {
namespace {

const std::string k_demo = KPREEMPT_TESTDATA "/demo/cluster.yaml";

cache::SnapshotFile load_file(const std::vector<std::string>& paths) {
  model::SnapshotBuilder b;
  std::vector<Diagnostic> diags;
  for (const auto& p : paths) {
    load::load_path(p, load::LoadOptions{true}, b, diags);
  }
  cache::SnapshotFile f;
  f.snapshot = std::move(b).build(f.build_diags);
  f.load_diags = std::move(diags);
  return f;
}

std::size_t header_size() {
  return 8 + 4 + 4 + cache::tool_version().size() + 4 + 8 + 8;
}

}  // namespace

TEST_CASE("every explain case answers the same from a snapshot file as from its YAML", "[cache]") {
  TempDir tmp;
  auto dirs = explain_case_dirs();
  REQUIRE(dirs.size() > 50);
  for (const fs::path& dir : dirs) {
    INFO(dir.string());
    std::string yaml = (dir / "cluster.yaml").string();
    std::string kps = tmp.str("case.kps");
    Run made = run_cli({"snapshot", "-f", yaml, "-o", kps});
    Run plain = run_cli(explain_case_args(dir, yaml));
    REQUIRE(made.code == plain.code);
    if (made.code != 0) {
      continue;  // a dump with errors has no snapshot; its explain failed the same way
    }
    Run fast = run_cli(explain_case_args(dir, kps));
    CHECK(plain.err.rfind(made.err, 0) == 0);  // the load's warnings come first
    CHECK(fast.code == plain.code);
    CHECK(fast.out == plain.out);
    CHECK(fast.err == plain.err);
  }
}

TEST_CASE("every testdata dump survives a write and a read byte for byte", "[cache]") {
  cache::SnapshotFile f = load_file({KPREEMPT_TESTDATA "/explain", k_demo});
  REQUIRE(f.snapshot.pods().size() > 100);
  std::string bytes = cache::encode(f, "");
  cache::SnapshotFile back = cache::decode(bytes);
  CHECK(cache::encode(back, "") == bytes);
  CHECK(back.load_diags.size() == f.load_diags.size());
  CHECK(back.build_diags.size() == f.build_diags.size());
  // The indexes are rebuilt, not stored.
  const model::Pod& last = f.snapshot.pods().back();
  CHECK(back.snapshot.find_pod(last.namespace_, last.name) ==
        f.snapshot.find_pod(last.namespace_, last.name));
  const model::Node& node = f.snapshot.nodes().back();
  CHECK(back.snapshot.find_node(node.name) == f.snapshot.find_node(node.name));
}

TEST_CASE("the demo answers the same from a snapshot file, with and without --pod-file",
          "[cache]") {
  TempDir tmp;
  std::string kps = tmp.str("demo.kps");
  REQUIRE(run_cli({"snapshot", "-f", k_demo, "-o", kps}).code == 0);
  for (std::vector<std::string> tail :
       {std::vector<std::string>{"--pod", "ml/trainer-0"},
        std::vector<std::string>{"--pod-file", KPREEMPT_TESTDATA "/cli/what-if-pod.yaml"}}) {
    std::vector<std::string> a = {"explain", "--now", "2026-11-22T10:00:00Z", "-o", "json", "-f"};
    std::vector<std::string> b = a;
    a.push_back(k_demo);
    b.push_back(kps);
    a.insert(a.end(), tail.begin(), tail.end());
    b.insert(b.end(), tail.begin(), tail.end());
    Run plain = run_cli(a);
    Run fast = run_cli(b);
    REQUIRE(plain.code == 0);
    CHECK(fast.code == 0);
    CHECK(fast.out == plain.out);
    CHECK(fast.err == plain.err);
  }
}

TEST_CASE("a snapshot file combines with further -f inputs in either order", "[cache]") {
  TempDir tmp;
  std::string kps = tmp.str("demo.kps");
  std::string extra = tmp.str("extra.yaml");
  spit(extra,
       "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: extra-low}\n"
       "value: 5\n");
  REQUIRE(run_cli({"snapshot", "-f", k_demo, "-o", kps}).code == 0);
  Run plain = run_cli({"matrix", "-f", k_demo, "-f", extra, "-o", "json"});
  REQUIRE(plain.code == 0);
  REQUIRE(plain.out.find("extra-low") != std::string::npos);
  Run first = run_cli({"matrix", "-f", kps, "-f", extra, "-o", "json"});
  CHECK(first.out == plain.out);
  CHECK(first.err == plain.err);
  Run reversed = run_cli({"matrix", "-f", extra, "-f", kps, "-o", "json"});
  Run reversed_plain = run_cli({"matrix", "-f", extra, "-f", k_demo, "-o", "json"});
  CHECK(reversed.code == 0);
  CHECK(reversed.out == reversed_plain.out);
}

TEST_CASE("snapshot files are recognised by their first bytes, not their name", "[cache]") {
  TempDir tmp;
  std::string disguised = tmp.str("demo.yaml");
  REQUIRE(run_cli({"snapshot", "-f", k_demo, "-o", disguised}).code == 0);
  Run r = run_cli({"matrix", "-f", disguised});
  CHECK(r.code == 0);
  CHECK(r.out == run_cli({"matrix", "-f", k_demo}).out);
}

TEST_CASE("a damaged snapshot file given with -f is refused with the reason", "[cache]") {
  TempDir tmp;
  std::string good = tmp.str("good.kps");
  REQUIRE(run_cli({"snapshot", "-f", k_demo, "-o", good}).code == 0);
  const std::string bytes = slurp(good);
  const std::string recreate = "; recreate it with kpreempt snapshot\n";
  std::string bad = tmp.str("bad.kps");
  auto refused = [&](const std::string& content) {
    spit(bad, content);
    Run r = run_cli({"matrix", "-f", bad});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    return r.err;
  };

  SECTION("a flipped payload byte fails the checksum") {
    std::string flipped = bytes;
    flipped[bytes.size() / 2] = static_cast<char>(flipped[bytes.size() / 2] ^ 0x20);
    CHECK(refused(flipped) == bad + ": error: corrupted snapshot (checksum mismatch)" + recreate);
  }
  SECTION("a cut payload is reported with both lengths") {
    std::size_t payload = bytes.size() - header_size();
    CHECK(refused(bytes.substr(0, bytes.size() - 100)) ==
          fmt::format("{}: error: truncated snapshot (the payload has {} bytes, expected {}){}",
                      bad, payload - 100, payload, recreate));
  }
  SECTION("a cut header is reported as such") {
    CHECK(refused(bytes.substr(0, 14)) ==
          bad + ": error: truncated snapshot (the header is cut short)" + recreate);
  }
  SECTION("a file named .kps without the magic bytes is read as the YAML it is") {
    CHECK(refused("apiVersion: v1\nkind: Node\n")
              .starts_with(bad + ":1:1: error: Node: metadata.name: required field is missing\n"));
  }
  SECTION("a file of another kpreempt release names both versions") {
    cache::SnapshotFile f = load_file({k_demo});
    CHECK(refused(cache::encode(f, "", "0.0.1")) ==
          fmt::format("{}: error: written by kpreempt 0.0.1, this is {}{}", bad,
                      cache::tool_version(), recreate));
  }
  SECTION("a missing snapshot file is reported like a missing dump") {
    Run r = run_cli({"matrix", "-f", tmp.str("absent.kps")});
    CHECK(r.code == 2);
    CHECK(r.err.find("absent.kps") != std::string::npos);
  }
}

TEST_CASE("a decoded string or quantity is checked like parsed input", "[cache]") {
  cache::SnapshotFile f;
  f.load_diags.push_back(Diagnostic{Severity::warning, SourceLoc{"dump.yaml", 1, 1}, "ok"});
  const std::string good = cache::encode(f, "");
  REQUIRE_NOTHROW(cache::decode(good));
  cache::SnapshotFile bad = f;
  bad.load_diags.front().message = "not \xC3\x28 UTF-8";
  try {
    cache::decode(cache::encode(bad, ""));
    FAIL("decoded");
  } catch (const cache::SnapshotError& e) {
    CHECK(std::string(e.what()) ==
          "corrupted snapshot (a string is not UTF-8); recreate it with kpreempt snapshot");
  }
}

TEST_CASE("a text the objects repeat is stored once", "[cache]") {
  cache::SnapshotFile f = load_file({k_demo});
  REQUIRE(f.snapshot.nodes().size() > 1);
  const std::string bytes = cache::encode(f, "");
  std::size_t seen = 0;
  for (std::size_t at = bytes.find("kubernetes.io/hostname"); at != std::string::npos;
       at = bytes.find("kubernetes.io/hostname", at + 1)) {
    ++seen;
  }
  CHECK(seen == 1);
  const cache::SnapshotFile back = cache::decode(bytes);
  CHECK(back.snapshot.nodes().front().labels == f.snapshot.nodes().front().labels);
}

TEST_CASE("decoding never trusts the lengths in a file", "[cache]") {
  cache::SnapshotFile f = load_file({k_demo});
  const std::string bytes = cache::encode(f, "");
  for (std::size_t cut = 0; cut < bytes.size(); cut += 97) {
    CHECK_THROWS_AS(cache::decode(std::string_view(bytes).substr(0, cut)), cache::SnapshotError);
  }
  for (std::size_t at = 8; at < bytes.size(); at += 101) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0xFF);
    CHECK_THROWS_AS(cache::decode(flipped), cache::SnapshotError);
  }
  // Behind the checksum, the payload decoder itself bounds-checks every length: a payload cut
  // anywhere or with a flipped byte decodes or fails cleanly, never reads past its end.
  const std::string payload = cache::codec::encode_payload(f);
  for (std::size_t cut = 0; cut < payload.size(); cut += 89) {
    cache::SnapshotFile out;
    CHECK_THROWS_AS(cache::codec::decode_payload(std::string_view(payload).substr(0, cut), out),
                    cache::codec::DecodeError);
  }
  for (std::size_t at = 0; at < payload.size(); at += 53) {
    std::string flipped = payload;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x80);
    cache::SnapshotFile out;
    try {
      cache::codec::decode_payload(flipped, out);
    } catch (const cache::codec::DecodeError&) {
    }
  }
}

TEST_CASE("snapshot refuses a dump with errors and writes nothing", "[cache]") {
  TempDir tmp;
  std::string out = tmp.str("bad.kps");
  Run r = run_cli({"snapshot", "-f", KPREEMPT_TESTDATA "/cli/bad-quantity.yaml", "-o", out});
  CHECK(r.code == 2);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("snapshot reports a file it cannot write", "[cache]") {
  TempDir tmp;
  std::string out = tmp.str("missing/demo.kps");
  Run r = run_cli({"snapshot", "-f", k_demo, "-o", out});
  CHECK(r.code == 2);
  CHECK(r.err == "kpreempt: error: cannot write \"" + out + "\": No such file or directory\n");
}

TEST_CASE("a snapshot file keeps the dump's scheduler images", "[cache][images]") {
  TempDir tmp;
  const std::string dump = KPREEMPT_TESTDATA "/cli/scheduler-images/cluster.yaml";
  std::string kps = tmp.str("images.kps");
  REQUIRE(run_cli({"snapshot", "-f", dump, "-o", kps}).code == 0);
  cache::SnapshotFile plain = load_file({dump});
  cache::SnapshotFile back = cache::decode(cache::encode(plain, ""));
  REQUIRE(back.snapshot.scheduler_images().size() == plain.snapshot.scheduler_images().size());
  REQUIRE_FALSE(back.snapshot.scheduler_images().empty());
  CHECK(back.snapshot.scheduler_images()[0].image == plain.snapshot.scheduler_images()[0].image);
  std::vector<std::string> a = {"explain", "--now", "2026-10-06T12:30:00Z", "-o",
                                "json",    "--pod", "ml/trainer-0",         "--policy",
                                "all",     "-f"};
  std::vector<std::string> b = a;
  a.push_back(dump);
  b.push_back(kps);
  Run from_yaml = run_cli(a);
  Run from_file = run_cli(b);
  REQUIRE(from_yaml.code == 0);
  CHECK(from_file.out == from_yaml.out);
  CHECK(from_yaml.out.find("\"upstreamFrom\": \"image registry.k8s.io/kueue/kueue:v0.14.3") !=
        std::string::npos);
}

}  // namespace kpreempt::test
