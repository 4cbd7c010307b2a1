// SPDX-License-Identifier: Apache-2.0
// `-o html` through the binary: a self-contained page that names the chosen node and the
// victims, fetches nothing, and prints names from the dump as text however hostile.
#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>

using kpreempt::test::occurrences;
using kpreempt::test::Run;

namespace {

const std::string k_demo = "-f testdata/demo/cluster.yaml --now 2026-11-22T10:00:00Z";

Run html(const std::string& args) {
  Run r = kpreempt::test::run_binary(args + " -o html", false);
  INFO(args);
  REQUIRE(r.code == 0);
  return r;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// A page: one document, its elements closed, nothing run and nothing fetched.
void check_page(const std::string& page) {
  CHECK(page.starts_with("<!DOCTYPE html>\n"));
  CHECK(page.ends_with("</html>\n"));
  CHECK(occurrences(page, "<html") == 1);
  for (const std::string tag : {"svg", "table", "section", "tr", "g", "p", "h1", "h2", "h3"}) {
    INFO(tag);
    const std::regex open("<" + tag + "[ >]");
    const auto opened =
        std::distance(std::sregex_iterator(page.begin(), page.end(), open), std::sregex_iterator());
    CHECK(static_cast<std::size_t>(opened) == occurrences(page, "</" + tag + ">"));
  }
  const std::string low = lower(page);
  CHECK(low.find("<script") == std::string::npos);
  CHECK(low.find("javascript:") == std::string::npos);
  // No URL but the SVG namespace, which names and fetches nothing.
  std::string rest = low;
  for (std::size_t at;
       (at = rest.find("xmlns=\"http://www.w3.org/2000/svg\"")) != std::string::npos;) {
    rest.erase(at, 34);
  }
  CHECK(rest.find("http://") == std::string::npos);
  CHECK(rest.find("https://") == std::string::npos);
  // No tag that loads anything (escaped text holds no '<', so it cannot match).
  CHECK(!std::regex_search(rest, std::regex("<[^>]*\\s(src|href|action)\\s*=")));
  CHECK(rest.find("url(") == std::string::npos);
}

// A copy of the demo cluster with `extra` more CPU-only nodes, which the GPU trainer cannot use.
std::string demo_with_nodes(int extra) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("kpreempt-html-nodes-" + std::to_string(getpid()) + ".yaml");
  std::ofstream out(path);
  for (int i = 0; i < extra; ++i) {
    out << "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: cpu-extra-" << i
        << "\nstatus:\n  allocatable: {cpu: '30', memory: 120Gi, pods: '110'}\n";
  }
  return path.string();
}

}  // namespace

TEST_CASE("explain -o html pictures the demo's decision", "[cli][html]") {
  const std::string page = html("explain " + k_demo + " --pod ml/trainer-0").out;
  check_page(page);
  CHECK(page.find("<title>kpreempt explain ml/trainer-0</title>") != std::string::npos);
  CHECK(page.find("<h1>Pod ml/trainer-0</h1>") != std::string::npos);
  CHECK(page.find("on <b>gpu-a100-1</b>") != std::string::npos);
  for (const std::string victim :
       {"research/notebook-alice", "research/notebook-bob", "batch/etl-nightly-4kx2p"}) {
    INFO(victim);
    // In the victims table and, marked, in the picture.
    CHECK(page.find("<td>" + victim + "</td>") != std::string::npos);
    CHECK(std::regex_search(page, std::regex("<title>" + victim + "  priority [0-9]+  VICTIM ")));
  }
  CHECK(occurrences(page, "  VICTIM ") == 3);
  CHECK(page.find("class=\"frame chosen\"") != std::string::npos);
  CHECK(page.find("class=\"ghost\"") != std::string::npos);
  // A losing candidate carries the criterion it lost on.
  CHECK(std::regex_search(page, std::regex(">lost:[a-z-]+<")));
}

TEST_CASE("explain -o html groups the nodes of a big cluster by verdict", "[cli][html]") {
  const std::string nodes = demo_with_nodes(40);
  const std::string page =
      html("explain " + k_demo + " -f " + nodes + " --pod ml/trainer-0 --policy default").out;
  std::filesystem::remove(nodes);
  check_page(page);
  // 40 extra and the demo's two CPU nodes: never candidates, for want of a GPU.
  CHECK(page.find(">42 nodes alike:<") != std::string::npos);
  CHECK(occurrences(page, "class=\"frame") <= 9);
  CHECK(page.find("cpu-extra-17") == std::string::npos);
}

TEST_CASE("explain --all-pending -o html has the table and a section per preemptor",
          "[cli][html]") {
  Run json = kpreempt::test::run_binary("explain " + k_demo + " --all-pending -o json", false);
  REQUIRE(json.code == 0);
  const auto items = nlohmann::json::parse(json.out)["items"].size();
  const std::string page = html("explain " + k_demo + " --all-pending").out;
  check_page(page);
  CHECK(page.find("<table class=\"summary\">") != std::string::npos);
  CHECK(occurrences(page, "<section class=\"preemptor\">") == items);
  CHECK(page.find("<h2>Pod ml/trainer-0</h2>") != std::string::npos);
  CHECK(page.find("pending: ") != std::string::npos);
}

TEST_CASE("a quota policy's page draws its quota before and after", "[cli][html]") {
  const std::string dir = "testdata/explain/kueue/preempt-in-cq-and-cohort";
  const std::string page = html("explain -f " + dir +
                                "/cluster.yaml --workload eng-beta/preemptor --policy kueue "
                                "--now 2026-01-01T12:00:00Z")
                               .out;
  check_page(page);
  CHECK(page.find("Quota before and after") != std::string::npos);
  CHECK(page.find(">eng-beta (preemptor)<") != std::string::npos);
  CHECK(page.find(">eng-alpha<") != std::string::npos);
}

TEST_CASE("cascade and diff -o html are pages too", "[cli][html]") {
  const std::string cascade =
      html("cascade -f testdata/cascade/storm.yaml --now 2026-11-22T10:00:00Z").out;
  check_page(cascade);
  CHECK(cascade.find("<h3>Round 3</h3>") != std::string::npos);
  CHECK(cascade.find("<b>settled</b>") != std::string::npos);
  const std::string d = "testdata/diff/priority-class";
  const std::string diff =
      kpreempt::test::run_binary("diff -f " + d + "/cluster.yaml --base " + d + "/base --head " +
                                     d + "/head --pod-file " + d +
                                     "/job.yaml --now 2026-11-27T00:00:00Z -o html",
                                 false)
          .out;
  check_page(diff);
  CHECK(diff.find("<td class=\"changed\">") != std::string::npos);
}

TEST_CASE("explain -o html prints hostile text from the dump as text", "[cli][html]") {
  const std::string args =
      "explain -f testdata/demo/cluster.yaml -f testdata/cli/html/hostile.yaml "
      "--now 2026-11-22T10:00:00Z ";
  for (const std::string mode : {"--pod ml/evil", "--pod ml/evil --policy default", "--all-pending",
                                 "--victim research/notebook-alice"}) {
    INFO(mode);
    const std::string page = html(args + mode).out;
    check_page(page);
    // The markup shows as text wherever the page quotes it.
    CHECK(occurrences(page, "onerror=") == occurrences(page, "&lt;img src=x onerror=alert(1)&gt;"));
  }
  const std::string page = html(args + "--pod ml/evil").out;
  CHECK(page.find("x&quot;&gt;&lt;script&gt;alert(&apos;pwned&apos;)&lt;/script&gt;&lt;img src=x "
                  "onerror=alert(1)&gt;&amp;amp;") != std::string::npos);
}

TEST_CASE("explain --codes -o html lists the codes on a page", "[cli][html]") {
  const std::string page = html("explain --codes").out;
  check_page(page);
  CHECK(page.find("lost:CRITERION") != std::string::npos);
}
