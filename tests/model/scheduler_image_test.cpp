// SPDX-License-Identifier: Apache-2.0
// Image references as the container runtime splits them, and the schedulers recognised by
// their repository: the shapes kubeadm, the projects' charts and manifests, and mirrors write.
#include "kpreempt/model/scheduler_image.h"

#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <vector>

namespace kpreempt::testing {
namespace {

using model::SchedulerImageKind;

struct Shape {
  const char* image;
  const char* container;
  SchedulerImageKind kind;
  const char* version;
};

}  // namespace

TEST_CASE("an image reference splits into host, path, tag and digest", "[model][images]") {
  auto split = [](std::string_view image) {
    const model::ImageReference r = model::split_image(image);
    return std::tuple(std::string(r.path), std::string(r.tag), r.digest);
  };
  CHECK(split("registry.k8s.io/kube-scheduler:v1.35.2") ==
        std::tuple("kube-scheduler", "v1.35.2", false));
  CHECK(split("apache/yunikorn:scheduler-1.8.0") ==
        std::tuple("apache/yunikorn", "scheduler-1.8.0", false));
  CHECK(split("localhost:5000/kueue/kueue:v0.19.1") == std::tuple("kueue/kueue", "v0.19.1", false));
  CHECK(split("mirror.example:8443/k8s/kube-scheduler") ==
        std::tuple("k8s/kube-scheduler", "", false));
  CHECK(split("registry.k8s.io/kueue/kueue@sha256:87bdbcb7ab69c536") ==
        std::tuple("kueue/kueue", "", true));
  CHECK(split("registry.k8s.io/kueue/kueue:v0.16.1@sha256:87bdbcb7ab69c536") ==
        std::tuple("kueue/kueue", "v0.16.1", true));
  CHECK(split("kube-scheduler") == std::tuple("kube-scheduler", "", false));
  CHECK(split("") == std::tuple("", "", false));
}

TEST_CASE("schedulers are told by their repository, mirrors included", "[model][images]") {
  const std::vector<Shape> shapes{
      {"registry.k8s.io/kube-scheduler:v1.35.2", "kube-scheduler",
       SchedulerImageKind::kube_scheduler, "v1.35.2"},
      {"k8s.gcr.io/kube-scheduler:v1.23.17", "kube-scheduler", SchedulerImageKind::kube_scheduler,
       "v1.23.17"},
      {"k8s.gcr.io/kube-scheduler-amd64:v1.11.3", "kube-scheduler",
       SchedulerImageKind::kube_scheduler, "v1.11.3"},
      {"123456789012.dkr.ecr.us-east-1.amazonaws.com/mirror/kube-scheduler:v1.34.1-eks-1-34-5",
       "scheduler", SchedulerImageKind::kube_scheduler, "v1.34.1-eks-1-34-5"},
      {"registry.k8s.io/kube-scheduler@sha256:0123abcd", "kube-scheduler",
       SchedulerImageKind::kube_scheduler, ""},
      {"registry.k8s.io/scheduler-plugins/kube-scheduler:v0.34.7", "scheduler-plugins-scheduler",
       SchedulerImageKind::scheduler_plugins, "v0.34.7"},
      {"k8s.gcr.io/scheduler-plugins/kube-scheduler:v0.23.10", "scheduler",
       SchedulerImageKind::scheduler_plugins, "v0.23.10"},
      // A mirror that drops the scheduler-plugins folder: Kubernetes never had a v0 release.
      {"harbor.example.com/k8s/kube-scheduler:v0.33.5", "kube-scheduler",
       SchedulerImageKind::scheduler_plugins, "v0.33.5"},
      {"registry.k8s.io/kueue/kueue:v0.19.1", "manager", SchedulerImageKind::kueue, "v0.19.1"},
      {"us-central1-docker.pkg.dev/k8s-staging-images/kueue/kueue:main", "manager",
       SchedulerImageKind::kueue, "main"},
      {"gcr.io/k8s-staging-kueue/kueue:v0.6.0-rc.1", "manager", SchedulerImageKind::kueue,
       "v0.6.0-rc.1"},
      {"apache/yunikorn:scheduler-1.8.0", "yunikorn-scheduler-k8s", SchedulerImageKind::yunikorn,
       "1.8.0"},
      {"docker.io/apache/yunikorn:scheduler-plugin-1.8.0", "yunikorn-scheduler-k8s",
       SchedulerImageKind::yunikorn, "1.8.0"},
      {"apache/yunikorn:scheduler-amd64-1.7.0", "yunikorn-scheduler-k8s",
       SchedulerImageKind::yunikorn, "1.7.0"},
      {"apache/yunikorn:scheduler-plugin-arm64-1.7.0", "yunikorn-scheduler-k8s",
       SchedulerImageKind::yunikorn, "1.7.0"},
      {"apache/yunikorn:scheduler-latest", "yunikorn-scheduler-k8s", SchedulerImageKind::yunikorn,
       "latest"},
      {"apache/yunikorn@sha256:0123abcd", "yunikorn-scheduler-k8s", SchedulerImageKind::yunikorn,
       ""},
      {"ghcr.io/koordinator-sh/koord-scheduler:v1.6.0", "scheduler",
       SchedulerImageKind::koordinator, "v1.6.0"},
      {"registry.cn-beijing.aliyuncs.com/koordinator-sh/koord-scheduler:v1.8.0", "scheduler",
       SchedulerImageKind::koordinator, "v1.8.0"},
      {"koordinator-sh/koord-scheduler:v1.6.0", "scheduler", SchedulerImageKind::koordinator,
       "v1.6.0"},
  };
  for (const Shape& s : shapes) {
    INFO(s.image);
    const auto m = model::match_scheduler_image(s.image, s.container);
    REQUIRE(m.has_value());
    CHECK(m->kind == s.kind);
    CHECK(m->version == s.version);
  }
}

TEST_CASE("other images, and YuniKorn's other components, are no scheduler", "[model][images]") {
  for (const char* image : {
           "registry.k8s.io/kube-controller-manager:v1.35.2",
           "registry.k8s.io/kube-scheduler-extender:v1.0.0",
           "registry.k8s.io/scheduler-plugins/controller:v0.34.7",
           "registry.k8s.io/kueue/kueueviz-backend:v0.14.3",
           "apache/yunikorn:admission-1.8.0",
           "apache/yunikorn:web-1.8.0",
           "apache/yunikorn",
           "apache/yunikorn@sha256:0123abcd",
           "ghcr.io/koordinator-sh/koord-manager:v1.6.0",
           "123456789012.dkr.ecr.us-east-1.amazonaws.com/search/scheduler:v1.33.8",
           "registry.k8s.io/pause:3.10",
           "",
       }) {
    INFO(image);
    CHECK_FALSE(model::match_scheduler_image(image, "main").has_value());
  }
}

}  // namespace kpreempt::testing
