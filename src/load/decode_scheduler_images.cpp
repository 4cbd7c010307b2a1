// SPDX-License-Identifier: Apache-2.0
// The containers of a dump that run a scheduler kpreempt mirrors, noted with their image so
// that a policy can mirror the release the cluster runs. Only what runs counts: a finished or
// terminating Pod, or a controller scaled to zero (an old ReplicaSet of a rollout keeps the old
// image), is left out. A workload object is only peeked at: whatever else is wrong in it is
// not this reader's business, so nothing here refuses input.
#include "load/decode.h"

#include "kpreempt/model/scheduler_image.h"

namespace kpreempt::load {
namespace {

// kubeadm labels its control-plane static Pods component=<name>.
constexpr std::string_view k_component_label = "component";

bool runs_kube_scheduler(const model::StringMap& labels) {
  const std::string* component = model::find(labels, k_component_label);
  return component != nullptr && *component == "kube-scheduler";
}

}  // namespace

bool record_scheduler_images(const Field& pod_spec, const model::StringMap& labels,
                             const model::ObjectRef& owner, DecodeContext& ctx) {
  if (ctx.derive_pods || !pod_spec.is_map() || !pod_spec["containers"].is_seq()) {
    return false;  // what-if input does not run in the cluster
  }
  bool found = false;
  pod_spec["containers"].each_item([&](const Field& c) {
    if (!c.is_map()) {
      return;
    }
    const Field image = c["image"];
    const Field name = c["name"];
    if (!image.present() || image.is_map() || image.is_seq() || name.is_map() || name.is_seq()) {
      return;
    }
    const std::string text = image.str();
    const std::string container = name.str();
    auto match = model::match_scheduler_image(text, container);
    if (!match) {
      return;
    }
    const bool replaces_default =
        match->kind == model::SchedulerImageKind::scheduler_plugins && runs_kube_scheduler(labels);
    ctx.out.add(model::SchedulerImage{match->kind, text, std::move(match->version),
                                      replaces_default, owner, container, image.loc()});
    found = true;
  });
  return found;
}

bool record_template_images(const Field& root, const std::string& kind, DecodeContext& ctx) {
  if (ctx.derive_pods) {
    return false;
  }
  try {
    const Field spec = root["spec"];
    // A DaemonSet has no replicas; a controller without the field runs one.
    if (kind != "DaemonSet" && spec["replicas"].int32(1) == 0) {
      return false;
    }
    const Field tmpl = spec["template"];
    const model::StringMap labels = tmpl["metadata"]["labels"].string_map();
    const model::ObjectRef owner{kind, object_namespace(root), root["metadata"]["name"].str()};
    return record_scheduler_images(tmpl["spec"], labels, owner, ctx);
  } catch (const InputError&) {
    return false;  // a malformed object of a kind no policy reads is skipped as before
  }
}

}  // namespace kpreempt::load
