// SPDX-License-Identifier: Apache-2.0
// The containers of a dump that run a scheduler kpreempt mirrors, recognised by their image:
// the tag names the release the cluster runs, which picks the line a policy mirrors.
#pragma once

#include "kpreempt/diag.h"
#include "kpreempt/model/objects.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kpreempt::model {

enum class SchedulerImageKind : std::uint8_t {
  kube_scheduler,     // registry.k8s.io/kube-scheduler:v1.35.2
  scheduler_plugins,  // registry.k8s.io/scheduler-plugins/kube-scheduler:v0.34.7
  kueue,              // registry.k8s.io/kueue/kueue:v0.19.1
  yunikorn,           // apache/yunikorn:scheduler-1.8.0
  koordinator,        // ghcr.io/koordinator-sh/koord-scheduler:v1.8.0
};
std::string_view to_string(SchedulerImageKind k);  // "kube-scheduler", "Kueue", ...

// An image reference split as the container runtime reads it:
// [host[:port]/]path[:tag][@digest]. The host is the first component when it holds a '.' or
// a ':' or is "localhost"; Docker Hub's own names ("apache/yunikorn") have none.
struct ImageReference {
  std::string_view path;  // "kueue/kueue", "apache/yunikorn", "kube-scheduler"
  std::string_view tag;   // "v0.19.1"; empty when absent
  bool digest = false;    // pinned by @sha256:...
};
ImageReference split_image(std::string_view image);

// What an image says about the scheduler it runs: its kind and the version its tag names
// ("v1.35.2", YuniKorn's "scheduler-1.8.0" gives "1.8.0"). The version is the tag's text,
// not yet checked to be a release ("latest" and "main" stay as written for the message that
// refuses them); empty when the image has no tag.
struct SchedulerImageMatch {
  SchedulerImageKind kind = SchedulerImageKind::kube_scheduler;
  std::string version;
};
// nullopt for an image of no scheduler kpreempt mirrors (YuniKorn's admission controller
// and web UI images included). `container` is the container's name: only an untagged
// apache/yunikorn image needs it, since its tag is what tells the scheduler from the rest.
std::optional<SchedulerImageMatch> match_scheduler_image(std::string_view image,
                                                         std::string_view container);

// One container of the dump that runs a scheduler: recorded by the loader from Pods,
// Deployments, ReplicaSets, StatefulSets and DaemonSets (not from what-if inputs).
struct SchedulerImage {
  SchedulerImageKind kind = SchedulerImageKind::kube_scheduler;
  std::string image;    // as written: "registry.k8s.io/kueue/kueue:v0.19.1"
  std::string version;  // SchedulerImageMatch::version
  // A scheduler-plugins build in the place of the cluster's kube-scheduler (kubeadm's static
  // Pod, labelled component=kube-scheduler): it is then the default scheduler too.
  bool default_scheduler = false;
  ObjectRef owner;  // the Pod or workload object: {"Deployment", "kueue-system", "kueue-..."}
  std::string container;
  SourceLoc loc;  // of the image value
};

}  // namespace kpreempt::model
