// SPDX-License-Identifier: Apache-2.0
// The release line a policy mirrors: from an image tag (good and bad tags), from the dump's
// scheduler images (several releases, unversioned images, a scheduler-plugins build in the
// place of kube-scheduler), and --upstream over the dump.
#include "kpreempt/policy/lines.h"

#include "load/load_support.h"

#include "kpreempt/policy/args.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace kpreempt::testing {
namespace {

using policy::ReleaseLine;

const policy::Entry& entry(std::string_view name) {
  const policy::Entry* e = policy::find(name);
  REQUIRE(e != nullptr);
  return *e;
}

const policy::LineChoice* in_dump(const policy::DumpLines& dump, std::string_view name) {
  for (const auto& [e, choice] : dump) {
    if (e->name == name) {
      return &choice;
    }
  }
  return nullptr;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A Pod of `ns/name` running `image` in a container named `container`.
std::string pod(const std::string& ns, const std::string& name, const std::string& image,
                const std::string& extra = "", const std::string& container = "main") {
  return "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: " + ns +
         "\n" + extra + "spec:\n  containers:\n  - name: " + container + "\n    image: " + image +
         "\nstatus:\n  phase: Running\n";
}

}  // namespace

TEST_CASE("an image tag names the line of its release", "[policy][images]") {
  const std::vector<std::pair<const char*, ReleaseLine>> good{
      {"registry.k8s.io/kube-scheduler:v1.35.2", {1, 35}},
      {"k8s.gcr.io/kube-scheduler-amd64:v1.11.3", {1, 11}},
      {"mirror.example.com/kube-scheduler:v1.34.1-eks-1-34-5", {1, 34}},
      {"registry.k8s.io/kube-scheduler:v1.36.0-rc.1@sha256:0123abcd", {1, 36}},
      {"registry.k8s.io/scheduler-plugins/kube-scheduler:v0.34.7", {0, 34}},
      {"registry.k8s.io/scheduler-plugins/kube-scheduler:v0.35.4-devel", {0, 35}},
      {"registry.k8s.io/kueue/kueue:v0.19.1", {0, 19}},
      {"us-central1-docker.pkg.dev/k8s-staging-images/kueue/kueue:v0.14.0-rc.0", {0, 14}},
      {"apache/yunikorn:scheduler-1.8.0", {1, 8}},
      {"apache/yunikorn:scheduler-plugin-1.7.0", {1, 7}},
      {"apache/yunikorn:scheduler-amd64-1.7.0", {1, 7}},
      {"registry.cn-beijing.aliyuncs.com/koordinator-sh/koord-scheduler:v1.6.0", {1, 6}},
      {"ghcr.io/koordinator-sh/koord-scheduler:v1.8.0", {1, 8}},
  };
  for (const auto& [image, line] : good) {
    INFO(image);
    const policy::ImageLine l = policy::image_line(image, "yunikorn-scheduler-k8s");
    CHECK(l.line == line);
    CHECK(l.problem.empty());
  }
  const std::vector<std::pair<const char*, const char*>> bad{
      {"registry.k8s.io/kube-scheduler@sha256:0123abcd", "only a digest, no tag"},
      {"registry.k8s.io/kube-scheduler", "only a digest, no tag"},
      {"registry.k8s.io/kube-scheduler:latest", "its tag \"latest\" is not a release"},
      {"us-central1-docker.pkg.dev/k8s-staging-images/kueue/kueue:main",
       "its tag \"main\" is not a release"},
      {"apache/yunikorn:scheduler-latest", "its tag \"latest\" is not a release"},
      {"registry.k8s.io/kube-scheduler:v1.35.2_coreos.0", "is not a release"},
      {"registry.k8s.io/kube-scheduler:1", "is not a release"},
      {"registry.k8s.io/kube-scheduler:v1.35.2.1", "is not a release"},
      {"ghcr.io/koordinator-sh/koord-scheduler:sha-8a7b9c0", "is not a release"},
      {"registry.k8s.io/pause:3.10", "not the image of a scheduler"},
  };
  for (const auto& [image, problem] : bad) {
    INFO(image);
    const policy::ImageLine l = policy::image_line(image, "yunikorn-scheduler-k8s");
    CHECK_FALSE(l.line.has_value());
    CHECK(has(l.problem, problem));
  }
}

TEST_CASE("each policy takes the line of its own scheduler's image", "[policy][images]") {
  const std::string dump =
      pod("kube-system", "kube-scheduler-cp-1", "registry.k8s.io/kube-scheduler:v1.35.2") +
      pod("kueue-system", "kueue-controller-manager-1", "registry.k8s.io/kueue/kueue:v0.14.3") +
      pod("yunikorn", "yunikorn-scheduler-1", "apache/yunikorn:scheduler-1.7.0") +
      pod("koordinator-system", "koord-scheduler-1",
          "registry.cn-beijing.aliyuncs.com/koordinator-sh/koord-scheduler:v1.8.0");
  const auto loaded = load::testing::load_text(dump);
  REQUIRE(loaded.snapshot.scheduler_images().size() == 4);
  const policy::DumpLines lines = policy::dump_lines(loaded.snapshot);
  const policy::LineChoice* def = in_dump(lines, "default");
  REQUIRE(def != nullptr);
  CHECK(def->line == ReleaseLine{1, 35});
  CHECK(def->from ==
        "image registry.k8s.io/kube-scheduler:v1.35.2 (Pod kube-system/kube-scheduler-cp-1, "
        "dump.yaml:10)");
  CHECK(def->warnings.empty());
  REQUIRE(in_dump(lines, "kueue") != nullptr);
  CHECK(in_dump(lines, "kueue")->line == ReleaseLine{0, 14});
  REQUIRE(in_dump(lines, "yunikorn") != nullptr);
  CHECK(in_dump(lines, "yunikorn")->line == ReleaseLine{1, 7});
  REQUIRE(in_dump(lines, "koordinator") != nullptr);
  CHECK(in_dump(lines, "koordinator")->line == ReleaseLine{1, 8});
  // A vanilla kube-scheduler runs neither PreemptionToleration nor CapacityScheduling.
  CHECK(in_dump(lines, "toleration") == nullptr);
  CHECK(in_dump(lines, "capacity") == nullptr);
}

TEST_CASE("two releases of one scheduler: the oldest, with a warning naming both",
          "[policy][images]") {
  const std::string dump =
      pod("kube-system", "kube-scheduler-cp-2", "registry.k8s.io/kube-scheduler:v1.36.1") +
      pod("kube-system", "kube-scheduler-cp-1", "registry.k8s.io/kube-scheduler:v1.35.2") +
      pod("kube-system", "kube-scheduler-cp-3", "registry.k8s.io/kube-scheduler:v1.36.1");
  const auto loaded = load::testing::load_text(dump);
  const policy::DumpLines lines = policy::dump_lines(loaded.snapshot);
  const policy::LineChoice* def = in_dump(lines, "default");
  REQUIRE(def != nullptr);
  CHECK(def->line == ReleaseLine{1, 35});
  CHECK(has(def->from, "kube-scheduler-cp-1"));
  REQUIRE(def->warnings.size() == 1);
  CHECK(has(def->warnings[0], "the dump runs kube-scheduler at 2 releases: "));
  CHECK(has(def->warnings[0], "v1.35.2 (Pod kube-system/kube-scheduler-cp-1"));
  CHECK(has(def->warnings[0], "v1.36.1 (Pod kube-system/kube-scheduler-cp-2"));
  CHECK(has(def->warnings[0], "default mirrors the oldest, v1.35"));
}

TEST_CASE("an image without a release leaves the newest line, and says so once",
          "[policy][images]") {
  const std::string dump =
      pod("kueue-system", "kueue-controller-manager-1",
          "us-central1-docker.pkg.dev/k8s-staging-images/kueue/kueue:main") +
      pod("kueue-system", "kueue-controller-manager-2",
          "us-central1-docker.pkg.dev/k8s-staging-images/kueue/kueue:main") +
      pod("kube-system", "kube-scheduler-cp-1", "registry.k8s.io/kube-scheduler@sha256:0123abcd");
  const auto loaded = load::testing::load_text(dump);
  const policy::DumpLines lines = policy::dump_lines(loaded.snapshot);
  const policy::LineChoice* kueue = in_dump(lines, "kueue");
  REQUIRE(kueue != nullptr);
  CHECK(kueue->line.unset());
  CHECK(kueue->from.empty());
  REQUIRE(kueue->warnings.size() == 1);
  CHECK(has(kueue->warnings[0],
            "its tag \"main\" is not a release, so it names no Kueue "
            "release; kueue mirrors its newest line, v0.19"));
  const policy::LineChoice* def = in_dump(lines, "default");
  REQUIRE(def != nullptr);
  CHECK(def->line.unset());
  REQUIRE(def->warnings.size() == 1);
  CHECK(has(def->warnings[0], "only a digest, no tag"));
}

TEST_CASE("a release not modelled runs as the nearest line, with a warning", "[policy][images]") {
  const auto loaded = load::testing::load_text(
      pod("kueue-system", "kueue-1", "registry.k8s.io/kueue/kueue:v0.16.1"));
  const policy::DumpLines lines = policy::dump_lines(loaded.snapshot);
  const policy::LineChoice* kueue = in_dump(lines, "kueue");
  REQUIRE(kueue != nullptr);
  CHECK(kueue->line == ReleaseLine{0, 16});
  REQUIRE(kueue->warnings.size() == 1);
  CHECK(has(kueue->warnings[0],
            "kpreempt does not model kueue v0.16; using the nearest line it models, v0.14"));
}

TEST_CASE("scheduler-plugins in kube-scheduler's place is the default scheduler too",
          "[policy][images]") {
  const std::string labels = "  labels:\n    component: kube-scheduler\n";
  const auto loaded = load::testing::load_text(
      pod("kube-system", "kube-scheduler-cp-1",
          "registry.k8s.io/scheduler-plugins/kube-scheduler:v0.34.7", labels) +
      pod("scheduler-plugins", "scheduler-plugins-scheduler-1",
          "registry.k8s.io/scheduler-plugins/kube-scheduler:v0.34.7"));
  const policy::DumpLines lines = policy::dump_lines(loaded.snapshot);
  const policy::LineChoice* def = in_dump(lines, "default");
  REQUIRE(def != nullptr);
  CHECK(def->line == ReleaseLine{1, 34});
  CHECK(has(def->from, "kube-scheduler-cp-1"));
  CHECK(has(def->from, "a scheduler-plugins build on Kubernetes v1.34"));
  for (const char* name : {"toleration", "capacity"}) {
    INFO(name);
    const policy::LineChoice* c = in_dump(lines, name);
    REQUIRE(c != nullptr);
    CHECK(c->line == ReleaseLine{0, 34});
    REQUIRE(c->warnings.size() == 1);
    CHECK(has(c->warnings[0], "using the nearest line it models, v0.35"));
  }
  // As a second scheduler only, it leaves the default scheduler alone.
  const auto second =
      load::testing::load_text(pod("scheduler-plugins", "scheduler-plugins-scheduler-1",
                                   "registry.k8s.io/scheduler-plugins/kube-scheduler:v0.34.7"));
  CHECK(in_dump(policy::dump_lines(second.snapshot), "default") == nullptr);
}

TEST_CASE("an --upstream value wins over the dump, and says what it overrode", "[policy][images]") {
  const auto loaded = load::testing::load_text(
      pod("kueue-system", "kueue-1", "registry.k8s.io/kueue/kueue:v0.19.1"));
  const policy::DumpLines dump = policy::dump_lines(loaded.snapshot);
  const auto flags = policy::parse_upstream(std::vector<std::string>{"kueue=v0.14"}, nullptr);
  const policy::LineChoice flagged = policy::choose_line(entry("kueue"), flags, dump);
  CHECK(flagged.line == ReleaseLine{0, 14});
  CHECK(flagged.from ==
        "--upstream kueue=v0.14, not the dump's image registry.k8s.io/kueue/kueue:v0.19.1 (Pod "
        "kueue-system/kueue-1, dump.yaml:10)");
  const auto same = policy::parse_upstream(std::vector<std::string>{"kueue=v0.19.2"}, nullptr);
  CHECK(policy::choose_line(entry("kueue"), same, dump).from == "--upstream kueue=v0.19.2");
  const policy::LineChoice from_dump = policy::choose_line(entry("kueue"), {}, dump);
  CHECK(from_dump.line == ReleaseLine{0, 19});
  CHECK(has(from_dump.from, "image registry.k8s.io/kueue/kueue:v0.19.1"));
  const policy::LineChoice none = policy::choose_line(entry("default"), {}, dump);
  CHECK(none.line.unset());
  CHECK(none.from.empty());
}

}  // namespace kpreempt::testing
