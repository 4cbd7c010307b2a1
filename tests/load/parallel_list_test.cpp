// SPDX-License-Identifier: Apache-2.0
// A List read in parts must equal the one-thread read: objects, order, lines, messages.
#include "load/parallel_list.h"

#include "load/pruned_fields_blanker.h"

#include "kpreempt/cache/snapshot_file.h"
#include "kpreempt/load/load.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using namespace kpreempt;
namespace fs = std::filesystem;

const std::string k_dir = std::string(KPREEMPT_TESTDATA) + "/load/list/";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string write_temp(const std::string& name, const std::string& text) {
  fs::path p = fs::temp_directory_path() / ("kpreempt-parts-" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

std::string where(const SourceLoc& loc) {
  return fmt::format("{}:{}:{}", loc.file, loc.line, loc.column);
}

// Everything a part could get wrong: which objects, in which order, from which line.
std::string digest(const model::Snapshot& s, const std::vector<Diagnostic>& diags) {
  std::string out;
  for (const model::Node& n : s.nodes()) {
    out += fmt::format("node {} {}\n", n.name, where(n.loc));
  }
  for (const model::Pod& p : s.pods()) {
    out += fmt::format("pod {}/{} {} {} {}\n", p.namespace_, p.name, where(p.loc), p.node_name,
                       p.containers.size());
  }
  for (const model::PodDisruptionBudget& b : s.pdbs()) {
    out += fmt::format("pdb {}/{} {}\n", b.namespace_, b.name, where(b.loc));
  }
  for (const model::PriorityClass& c : s.priority_classes()) {
    out += fmt::format("class {} {}\n", c.name, where(c.loc));
  }
  for (const model::Workload& w : s.kueue().workloads) {
    out += fmt::format("workload {}/{} {}\n", w.namespace_, w.name, where(w.loc));
  }
  for (const model::ClusterQueue& q : s.kueue().cluster_queues) {
    out += fmt::format("clusterqueue {} {}\n", q.name, where(q.loc));
  }
  for (const auto& [kind, count] : s.skipped_kinds()) {
    out += fmt::format("skipped {} {}\n", kind, count);
  }
  for (const Diagnostic& d : diags) {
    out += format(d) + "\n";
  }
  return out;
}

std::string one_thread(const std::string& path) {
  model::SnapshotBuilder b;
  std::vector<Diagnostic> diags;
  load::LoadOptions opts;
  opts.threads = 1;
  load::load_path(path, opts, b, diags);
  model::Snapshot s = std::move(b).build(diags);
  return digest(s, diags);
}

// The parts path with tiny parts; empty when it declined the file.
std::optional<std::string> in_parts(const std::string& path, unsigned threads) {
  model::SnapshotBuilder b;
  std::vector<Diagnostic> diags;
  load::DecodeContext ctx{b, diags};
  if (!load::load_list_in_parts(path, threads, ctx, 4096)) {
    return std::nullopt;
  }
  model::Snapshot s = std::move(b).build(diags);
  return digest(s, diags);
}

// Every field of the snapshot and every message, as the snapshot file stores them.
std::string encoded(model::SnapshotBuilder b, std::vector<Diagnostic> diags) {
  cache::SnapshotFile f;
  f.snapshot = std::move(b).build(f.build_diags);
  f.load_diags = std::move(diags);
  return cache::encode(f, "");
}

// The file read in three parts gives, field for field, the snapshot of the one-thread read.
void check_parts_equal_one_thread(const std::string& path) {
  model::SnapshotBuilder one;
  std::vector<Diagnostic> one_diags;
  load::LoadOptions opts;
  opts.threads = 1;
  load::load_path(path, opts, one, one_diags);
  model::SnapshotBuilder parts;
  std::vector<Diagnostic> parts_diags;
  load::DecodeContext ctx{parts, parts_diags};
  REQUIRE(load::load_list_in_parts(path, 3, ctx, 4096));
  CHECK(encoded(std::move(parts), std::move(parts_diags)) ==
        encoded(std::move(one), std::move(one_diags)));
}

}  // namespace

TEST_CASE("a kubectl List read in parts equals the one-thread read field for field",
          "[load][parallel]") {
  // The parts path also blanks the fields no policy reads before parsing them; the one-thread
  // path prunes them while parsing. Both must give the same snapshot, to the column.
  for (const char* name : {"kubectl-list.yaml", "kubectl-list.json"}) {
    CAPTURE(name);
    check_parts_equal_one_thread(k_dir + name);
  }
}

// batch/v1 Jobs (cascade counts a Job's failures) in every part, the last ones far from the
// first part: each part's Jobs are kept, at their own lines.
TEST_CASE("the Jobs of every part of a List are kept, at their lines", "[load][parallel]") {
  const std::string job =
      "- apiVersion: batch/v1\n"
      "  kind: Job\n"
      "  metadata:\n"
      "    name: train-{0}\n"
      "    namespace: ml\n"
      "  spec:\n"
      "    backoffLimit: {0}\n"
      "  status:\n"
      "    failed: 1\n";
  std::string text = slurp(k_dir + "kubectl-list.yaml");
  text.insert(text.rfind("\nkind: List") + 1, fmt::format(fmt::runtime(job), 3));
  text.insert(text.find("\n- ", text.size() / 2) + 1, fmt::format(fmt::runtime(job), 2));
  text.insert(text.find("\n- ") + 1, fmt::format(fmt::runtime(job), 1));
  const std::string path = write_temp("jobs.yaml", text);
  model::SnapshotBuilder one;
  std::vector<Diagnostic> diags;
  load::LoadOptions opts;
  opts.threads = 1;
  load::load_path(path, opts, one, diags);
  CHECK(std::move(one).build(diags).jobs().size() == 3);
  check_parts_equal_one_thread(path);
  fs::remove(path);
}

TEST_CASE("a kubectl List read in parts equals the one-thread read", "[load][parallel]") {
  for (const char* name : {"kubectl-list.yaml", "kubectl-list.json"}) {
    const std::string path = k_dir + name;
    for (unsigned threads : {2U, 3U, 7U}) {
      CAPTURE(name, threads);
      std::optional<std::string> parts = in_parts(path, threads);
      REQUIRE(parts);
      CHECK(*parts == one_thread(path));
    }
  }
}

// An error's text may name another line ("already defined at line 14") that only the whole
// read numbers right, so a file with an error is read again on one thread.
TEST_CASE("an object error in a later part sends the file back to the one-thread read",
          "[load][parallel]") {
  std::string text = slurp(k_dir + "kubectl-list.yaml");
  std::size_t at = text.find("cpu: ", text.rfind("requests:\n"));
  REQUIRE(at != std::string::npos);
  text.insert(at + 5, "1.5.0");
  const std::string path = write_temp("bad-quantity.yaml", text);
  CHECK_FALSE(in_parts(path, 4));
  CHECK(one_thread(path).find("is not a quantity") != std::string::npos);
  fs::remove(path);
}

// Each part knows only its own objects; whether two copies are identical (merged) or differ
// (an error naming the first) is for the one-thread read to say.
TEST_CASE("an object repeated in another part sends the file back to the one-thread read",
          "[load][parallel]") {
  std::string text = slurp(k_dir + "kubectl-list.yaml");
  const std::size_t first = text.find("\n- ") + 1;
  const std::size_t second = text.find("\n- ", first) + 1;
  const std::string item = text.substr(first, second - first);
  const std::size_t trailer = text.rfind("\nkind: List") + 1;
  SECTION("an identical copy") {
    text.insert(trailer, item);
  }
  SECTION("a copy that differs") {
    std::string changed = item;
    changed.insert(changed.find("metadata:\n") + 10, "    labels:\n      changed: \"yes\"\n");
    text.insert(trailer, changed);
  }
  const std::string path = write_temp("repeated.yaml", text);
  CHECK_FALSE(in_parts(path, 4));
  fs::remove(path);
}

TEST_CASE("a syntax error or another layout sends the file back to the one-thread read",
          "[load][parallel]") {
  std::string text = slurp(k_dir + "kubectl-list.yaml");
  SECTION("unclosed flow sequence in the middle") {
    text.insert(text.find("\n- ", text.size() / 2) + 1, "- [unclosed\n");
  }
  SECTION("a document marker inside the items") {
    text.insert(text.find("\n- ", text.size() / 2) + 1, "---\n");
  }
  SECTION("not kubectl's header") {
    text.insert(0, "# a comment\n");
  }
  SECTION("a broken trailer") {
    text += "metadata: {\n";
  }
  SECTION("another document after the List") {
    text += "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: extra\n";
  }
  const std::string path = write_temp("declined.yaml", text);
  CHECK_FALSE(in_parts(path, 4));
  fs::remove(path);
}

TEST_CASE("a JSON List with a bad container status is left to the one-thread read",
          "[load][parallel]") {
  std::string text = slurp(k_dir + "kubectl-list.json");
  // The last request in the file is in a container status, which the loader reads for in-place
  // resize: a negative one is an error, and a file with errors is read on one thread.
  std::size_t at = text.rfind("\"cpu\": \"100m\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 13, "\"cpu\": \"-1\"");
  const std::string path = write_temp("bad.json", text);
  CHECK_FALSE(in_parts(path, 5));
  CHECK(one_thread(path).find("error") != std::string::npos);
  fs::remove(path);
}

namespace {

// The reader hands the blanker whole lines, `lines` at a time.
std::string blank(std::string text, int lines) {
  load::PrunedFieldsBlanker b;
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = at;
    for (int i = 0; i < lines && end < text.size(); ++i) {
      end = text.find('\n', end) + 1;
    }
    b.split(text.data() + at, end - at, [&](const char* p, std::size_t n) { out.append(p, n); });
    at = end;
  }
  return out;
}

}  // namespace

TEST_CASE("the values of pruned fields are blanked where kubectl puts them", "[load][parallel]") {
  const std::string yaml =
      "- apiVersion: v1\n"
      "  kind: Pod\n"
      "  metadata:\n"
      "    name: x\n"
      "    volumes:\n"  // not in spec: kept
      "    - a\n"
      "  spec:\n"
      "    containers:\n"
      "    - args:\n"  // the first key shares the entry's line: kept
      "      - --flag\n"
      "      env:\n"
      "      - name: A\n"
      "        value: b\n"
      "\n"
      "      image: app\n"
      "      resources: {}\n"
      "    nodeName: n1\n"
      "      env:\n"  // no longer in a container list: kept
      "    volumes:\n"
      "    - emptyDir: {}\n"
      "      name: tmp\n"
      "    volumes: []\n"  // a value on the key's line: nothing to blank
      "  status:\n"
      "    ephemeralContainerStatuses:\n"
      "    - name: app\n"
      "    phase: Running\n"
      "- apiVersion: v1\n"
      "  kind: Node\n"
      "  status:\n"
      "    images:\n"
      "    - names: [a]\n"
      "      sizeBytes: 1\n"
      "    capacity: {}\n";
  const std::string blanked =
      "- apiVersion: v1\n"
      "  kind: Pod\n"
      "  metadata:\n"
      "    name: x\n"
      "    volumes:\n"
      "    - a\n"
      "  spec:\n"
      "    containers:\n"
      "    - args:\n"
      "      - --flag\n"
      "      env:\n"
      "\n\n\n"
      "      image: app\n"
      "      resources: {}\n"
      "    nodeName: n1\n"
      "      env:\n"
      "    volumes:\n"
      "\n\n"
      "    volumes: []\n"
      "  status:\n"
      "    ephemeralContainerStatuses:\n"
      "\n"
      "    phase: Running\n"
      "- apiVersion: v1\n"
      "  kind: Node\n"
      "  status:\n"
      "    images:\n"
      "\n\n"
      "    capacity: {}\n";
  for (int chunk : {1, 2, 5, 100}) {
    CAPTURE(chunk);
    CHECK(blank(yaml, chunk) == blanked);
  }
}

TEST_CASE("a container status keeps only its name and resources", "[load][parallel]") {
  // The scheduler reads a bound pod's resize state from its resources; the rest of a status
  // (images, ids, states, mounts) is blanked, key lines and continuations included.
  const std::string yaml =
      "- apiVersion: v1\n"
      "  kind: Pod\n"
      "  status:\n"
      "    containerStatuses:\n"
      "    - containerID: containerd://abc\n"  // shares the entry's line: kept
      "      image: app:v1\n"
      "      lastState: {}\n"
      "      name: app\n"
      "      resources:\n"
      "        requests:\n"
      "          cpu: 500m\n"
      "      state:\n"
      "        running:\n"
      "          startedAt: \"2025-10-18T14:43:12Z\"\n"
      "      volumeMounts:\n"
      "      - mountPath: /tmp\n"
      "        name: tmp\n"
      "    phase: Running\n";
  const std::string blanked =
      "- apiVersion: v1\n"
      "  kind: Pod\n"
      "  status:\n"
      "    containerStatuses:\n"
      "    - containerID: containerd://abc\n"
      "\n\n"
      "      name: app\n"
      "      resources:\n"
      "        requests:\n"
      "          cpu: 500m\n"
      "\n\n\n\n\n\n"
      "    phase: Running\n";
  for (int chunk : {1, 3, 100}) {
    CAPTURE(chunk);
    CHECK(blank(yaml, chunk) == blanked);
  }
}

TEST_CASE("managedFields are blanked line for line, whatever the chunks", "[load][parallel]") {
  const std::string yaml =
      "- apiVersion: v1\n  kind: Pod\n  metadata:\n    managedFields:\n    - apiVersion: v1\n"
      "      fieldsV1:\n        f:metadata: {}\n\n    name: x\n    namespace: a\n"
      "  spec:\n    managedFields:x\n";
  const std::string yaml_blanked =
      "- apiVersion: v1\n  kind: Pod\n  metadata:\n    managedFields:\n\n\n\n\n    name: x\n"
      "    namespace: a\n  spec:\n    managedFields:x\n";
  for (int chunk : {1, 2, 3, 100}) {
    CAPTURE(chunk);
    CHECK(blank(yaml, chunk) == yaml_blanked);
  }
}

TEST_CASE("a List whose lines are not kubectl's own is never split", "[load][parallel]") {
  // The kubectl List, with one item's annotation changed into a crafted one.
  const std::string list = slurp(k_dir + "kubectl-list.yaml");
  const std::size_t at = list.find("\n  metadata:\n", list.size() / 2);
  REQUIRE(at != std::string::npos);
  auto crafted = [&](const std::string& lines) {
    std::string text = list;
    text.insert(at + 13, lines);
    return text;
  };
  SECTION("a quoted value carrying a line that looks like an item start") {
    const std::string path = write_temp(
        "quoted.yaml", crafted("    annotations:\n      a: \"x\n- apiVersion: v1\n  kind: Node\n"
                               "  metadata:\n    name: evil\n\"\n"));
    CHECK_FALSE(in_parts(path, 4));
  }
  SECTION("a lone CR, a line break to the parser but not to the split") {
    const std::string path = write_temp(
        "cr.yaml", crafted("    annotations:\r- kind: Node\r  metadata:\r    name: evil\n"));
    CHECK_FALSE(in_parts(path, 4));
  }
  SECTION("a flow collection left open at the end of a line") {
    const std::string path = write_temp("flow.yaml", crafted("    annotations: {a: b,\n- c: d}\n"));
    CHECK_FALSE(in_parts(path, 4));
  }
  SECTION("but a quoted value folded over deeper lines, as kubectl writes one, is split") {
    const std::string path = write_temp(
        "folded.yaml", crafted("    annotations:\n      a: '0/3 nodes are available: 1 node(s)\n"
                               "        had untolerated taint, 2 Insufficient cpu.'\n"));
    CHECK(in_parts(path, 4) == one_thread(path));
  }
  SECTION("but a block scalar's text is not taken for structure") {
    const std::string path = write_temp(
        "block.yaml", crafted("    annotations:\n      a: |\n        \"x\n        [y\n"));
    CHECK(in_parts(path, 4) == one_thread(path));
  }
}

TEST_CASE("a List of generateName-only pods is not split, so each made-up name is unique",
          "[load][parallel]") {
  // Names from generateName are numbered per file: parts numbering on their own would give
  // two pods the same name.
  std::string text = "apiVersion: v1\nitems:\n";
  for (int i = 0; i < 120; ++i) {
    text += fmt::format(
        "- apiVersion: v1\n  kind: Pod\n  metadata:\n    generateName: web-\n"
        "    namespace: team-a\n  spec:\n    containers:\n    - name: c{}\n      resources:\n"
        "        requests:\n          cpu: 100m\n",
        i);
  }
  text += "kind: List\nmetadata:\n  resourceVersion: \"\"\n";
  const std::string path = write_temp("generate-name.yaml", text);
  CHECK_FALSE(in_parts(path, 4));
  const std::string one = one_thread(path);
  CHECK(one.find("pod team-a/web-<generated> ") != std::string::npos);
  CHECK(one.find("pod team-a/web-<generated-120> ") != std::string::npos);
  CHECK(one.find("error") == std::string::npos);
  fs::remove(path);
}

// The parts go through the kubectl reader; one it declines (here for a comment, which kubectl
// never writes) is read again by libyaml, and the whole still equals the one-thread read.
TEST_CASE("a part the kubectl reader declines is read again by libyaml", "[load][parallel]") {
  const std::string list = slurp(k_dir + "kubectl-list.yaml");
  const std::string line = "\n  kind: Pod\n";
  const std::string commented = "\n  kind: Pod # read by libyaml\n";
  std::string every = list, last = list;
  for (std::size_t at = every.find(line); at != std::string::npos;
       at = every.find(line, at + commented.size())) {
    every.replace(at, line.size(), commented);
  }
  last.replace(last.rfind(line), line.size(), commented);
  for (const auto& [name, text] : {std::pair{"every", every}, std::pair{"last", last}}) {
    CAPTURE(name);
    const std::string path = write_temp(std::string("declined-") + name + ".yaml", text);
    for (unsigned threads : {2U, 3U}) {
      std::optional<std::string> parts = in_parts(path, threads);
      REQUIRE(parts);
      CHECK(*parts == one_thread(path));
    }
  }
}
