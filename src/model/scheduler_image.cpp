// SPDX-License-Identifier: Apache-2.0
// Recognising a scheduler's container by its image. The repositories are those the projects
// publish and their charts and manifests install: kubeadm's kube-scheduler static Pod
// (registry.k8s.io/kube-scheduler, formerly k8s.gcr.io, -amd64 style names before v1.12),
// scheduler-plugins (registry.k8s.io/scheduler-plugins/kube-scheduler), Kueue's manager
// (registry.k8s.io/kueue/kueue, staging builds under k8s-staging-images/kueue/kueue), YuniKorn
// (apache/yunikorn, one repository whose tag names the component: scheduler-1.8.0,
// scheduler-plugin-1.8.0, scheduler-amd64-1.8.0 while a release is built; admission- and
// web- are not the scheduler) and Koordinator (koordinator-sh/koord-scheduler on ghcr.io or
// registry.cn-beijing.aliyuncs.com). Mirrors keep the last path components, so the host and
// the leading components are not compared.
#include "kpreempt/model/scheduler_image.h"

#include <array>

namespace kpreempt::model {
namespace {

// The architecture suffixes of the kube-scheduler images published per architecture.
constexpr std::array<std::string_view, 5> k_arches{"amd64", "arm64", "arm", "ppc64le", "s390x"};

bool is_host(std::string_view component) {
  return component.find_first_of(".:") != std::string_view::npos || component == "localhost";
}

// "kube-scheduler" or "kube-scheduler-amd64" and the like.
bool kube_scheduler_name(std::string_view last) {
  constexpr std::string_view name = "kube-scheduler";
  if (!last.starts_with(name)) {
    return false;
  }
  last.remove_prefix(name.size());
  if (last.empty()) {
    return true;
  }
  if (last.front() != '-') {
    return false;
  }
  last.remove_prefix(1);
  for (std::string_view arch : k_arches) {
    if (last == arch) {
      return true;
    }
  }
  return false;
}

// Kubernetes has no v0 release: a kube-scheduler image tagged v0.N is a scheduler-plugins
// build renamed by a mirror.
bool major_zero(std::string_view tag) {
  return tag.starts_with("v0.") || tag.starts_with("0.");
}

// The version in a YuniKorn tag: "scheduler-1.8.0", "scheduler-plugin-1.8.0",
// "scheduler-amd64-1.7.0" -> "1.8.0"...; nullopt for another component's tag.
std::optional<std::string_view> yunikorn_version(std::string_view tag) {
  for (std::string_view prefix : {"scheduler-plugin-", "scheduler-"}) {
    if (tag.starts_with(prefix)) {
      tag.remove_prefix(prefix.size());
      for (std::string_view arch : k_arches) {
        if (tag.starts_with(arch) && tag.substr(arch.size()).starts_with('-')) {
          tag.remove_prefix(arch.size() + 1);
          break;
        }
      }
      return tag;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(SchedulerImageKind k) {
  switch (k) {
    case SchedulerImageKind::kube_scheduler:
      return "kube-scheduler";
    case SchedulerImageKind::scheduler_plugins:
      return "scheduler-plugins";
    case SchedulerImageKind::kueue:
      return "Kueue";
    case SchedulerImageKind::yunikorn:
      return "YuniKorn";
    case SchedulerImageKind::koordinator:
      break;
  }
  return "koord-scheduler";
}

ImageReference split_image(std::string_view image) {
  ImageReference out;
  if (const auto at = image.find('@'); at != std::string_view::npos) {
    out.digest = true;
    image = image.substr(0, at);
  }
  const auto slash = image.rfind('/');
  const auto colon = image.rfind(':');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    out.tag = image.substr(colon + 1);
    image = image.substr(0, colon);
  }
  if (const auto first = image.find('/');
      first != std::string_view::npos && is_host(image.substr(0, first))) {
    image.remove_prefix(first + 1);
  }
  out.path = image;
  return out;
}

std::optional<SchedulerImageMatch> match_scheduler_image(std::string_view image,
                                                         std::string_view container) {
  const ImageReference ref = split_image(image);
  const auto slash = ref.path.rfind('/');
  const std::string_view last =
      slash == std::string_view::npos ? ref.path : ref.path.substr(slash + 1);
  const std::string_view parent =
      slash == std::string_view::npos ? std::string_view() : ref.path.substr(0, slash);
  const std::string version(ref.tag);
  if (kube_scheduler_name(last)) {
    const bool plugins = parent.ends_with("scheduler-plugins") || major_zero(ref.tag);
    return SchedulerImageMatch{
        plugins ? SchedulerImageKind::scheduler_plugins : SchedulerImageKind::kube_scheduler,
        version};
  }
  if (last == "kueue") {
    return SchedulerImageMatch{SchedulerImageKind::kueue, version};
  }
  if (last == "koord-scheduler") {
    return SchedulerImageMatch{SchedulerImageKind::koordinator, version};
  }
  if (last == "yunikorn") {
    if (ref.tag.empty()) {  // a digest alone: only the chart's container name tells
      if (container == "yunikorn-scheduler-k8s") {
        return SchedulerImageMatch{SchedulerImageKind::yunikorn, ""};
      }
      return std::nullopt;
    }
    if (const auto v = yunikorn_version(ref.tag)) {
      return SchedulerImageMatch{SchedulerImageKind::yunikorn, std::string(*v)};
    }
  }
  return std::nullopt;
}

}  // namespace kpreempt::model
