// SPDX-License-Identifier: Apache-2.0
// Kueue's AppWrapper integration (pkg/controller/jobs/appwrapper, release-0.19), with the pod
// sets the AppWrapper library gives it (project-codeflare/appwrapper v1.2 pkg/utils
// GetComponentPodSpecs): per component, its declared podSets, or those inferred for the kinds
// the library knows; each names a pod template by a path into the wrapped object.
#include "load/decode.h"

#include "kpreempt/model/go_parse.h"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::load {
namespace {

// A pod set of a component: where its pod template is, and how many pods.
struct AwPodSet {
  std::string path;
  std::int32_t replicas = 1;
  Field count_at;
};

// The value at an AppWrapper path ("template.spec.replicatedJobs[1].template.spec.template"),
// "template" being the wrapped object; absent when the path leads nowhere (getValueAtPath).
std::optional<Field> at_path(const Field& wrapped, std::string_view path) {
  constexpr std::string_view k_root = "template";
  if (!path.starts_with(k_root)) {
    return std::nullopt;
  }
  path.remove_prefix(k_root.size());
  Field cursor = wrapped;
  while (!path.empty()) {
    if (path.front() == '[') {
      const std::size_t end = path.find(']');
      const auto index = model::go::parse_int(path.substr(1, end == path.npos ? 0 : end - 1));
      if (end == path.npos || !index || !cursor.is_seq()) {
        return std::nullopt;
      }
      std::optional<Field> item;
      std::int64_t i = 0;
      cursor.each_item([&](const Field& f) {
        if (i++ == index.value) {
          item = f;
        }
      });
      if (!item) {
        return std::nullopt;
      }
      cursor = *item;
      path.remove_prefix(end + 1);
    } else if (path.front() == '.') {
      path.remove_prefix(1);
      const std::size_t end = path.find_first_of(".[");
      const std::string_view key = path.substr(0, end);
      if (!cursor.is_map() || !cursor[key].present()) {
        return std::nullopt;
      }
      cursor = cursor[key];
      path.remove_prefix(key.size());
    } else {
      return std::nullopt;
    }
  }
  return cursor;
}

// GetReplicas/inferReplicas: an integer at the path, 1 when absent.
std::int32_t replicas_at(const Field& wrapped, const std::string& path) {
  const std::optional<Field> f = at_path(wrapped, path);
  return f ? f->int32(1) : 1;
}

bool has(const Field& wrapped, const std::string& path) {
  return at_path(wrapped, path).has_value();
}

// A Job's pods: min(parallelism, completions) with parallelism 1 when absent.
std::int32_t job_pods(const Field& wrapped, const std::string& job_spec) {
  std::int32_t n = replicas_at(wrapped, job_spec + ".parallelism");
  if (const auto c = at_path(wrapped, job_spec + ".completions"); c && c->int32() < n) {
    n = c->int32();
  }
  return n;
}

void infer_ray(const Field& wrapped, const std::string& cluster, std::vector<AwPodSet>& out) {
  out.push_back({cluster + "headGroupSpec.template", 1, wrapped});
  if (const auto workers = at_path(wrapped, cluster + "workerGroupSpecs"); workers) {
    std::int32_t i = 0;
    workers->each_item([&](const Field&) {
      const std::string prefix = fmt::format("{}workerGroupSpecs[{}].", cluster, i++);
      if (has(wrapped, prefix + "template")) {
        out.push_back({prefix + "template", replicas_at(wrapped, prefix + "replicas"), wrapped});
      }
    });
  }
}

// InferPodSets: the kinds the library knows, matched on apiVersion and kind exactly.
std::vector<AwPodSet> infer(const Field& wrapped) {
  const std::string gvk = wrapped["apiVersion"].str() + " " + wrapped["kind"].str();
  std::vector<AwPodSet> out;
  if (gvk == "batch/v1 Job") {
    out.push_back({"template.spec.template", job_pods(wrapped, "template.spec"), wrapped});
  } else if (gvk == "jobset.x-k8s.io/v1alpha2 JobSet") {
    if (const auto jobs = at_path(wrapped, "template.spec.replicatedJobs"); jobs) {
      std::int32_t i = 0;
      jobs->each_item([&](const Field&) {
        const std::string prefix = fmt::format("template.spec.replicatedJobs[{}].", i++);
        if (has(wrapped, prefix + "template")) {
          const std::int64_t n = std::int64_t{replicas_at(wrapped, prefix + "replicas")} *
                                 job_pods(wrapped, prefix + "template.spec");
          out.push_back({prefix + "template.spec.template", static_cast<std::int32_t>(n), wrapped});
        }
      });
    }
  } else if (gvk == "kubeflow.org/v1 PyTorchJob") {
    for (const char* type : {"Master", "Worker"}) {
      const std::string prefix = fmt::format("template.spec.pytorchReplicaSpecs.{}.", type);
      if (has(wrapped, prefix + "template")) {
        out.push_back({prefix + "template", replicas_at(wrapped, prefix + "replicas"), wrapped});
      }
    }
  } else if (gvk == "ray.io/v1 RayCluster") {
    infer_ray(wrapped, "template.spec.", out);
  } else if (gvk == "ray.io/v1 RayJob") {
    infer_ray(wrapped, "template.spec.rayClusterSpec.", out);
  } else if (gvk == "v1 Pod") {
    out.push_back({"template", 1, wrapped});
  } else if (gvk == "apps/v1 Deployment" || gvk == "apps/v1 StatefulSet") {
    if (has(wrapped, "template.spec.template")) {
      out.push_back(
          {"template.spec.template", replicas_at(wrapped, "template.spec.replicas"), wrapped});
    }
  }
  return out;
}

std::vector<AwPodSet> declared(const Field& component) {
  std::vector<AwPodSet> out;
  component["podSets"].each_item([&](const Field& ps) {
    out.push_back({ps["path"].str(), ps["replicas"].int32(1), ps["replicas"]});
  });
  return out;
}

}  // namespace

std::vector<DerivedPodSet> appwrapper_pod_sets(const Field& root) {
  const std::string name = object_name(root);
  std::vector<DerivedPodSet> out;
  root["spec"]["components"].each_item([&](const Field& component) {
    const Field wrapped = component["template"];
    std::vector<AwPodSet> sets = declared(component);
    if (sets.empty()) {
      sets = infer(wrapped);
    }
    for (const AwPodSet& ps : sets) {
      // GetComponentPodSpecs skips a path that names no pod template; the AppWrapper webhook
      // refuses such an object first.
      const std::optional<Field> tmpl = at_path(wrapped, ps.path);
      if (!tmpl || !tmpl->is_map() || !(*tmpl)["spec"].is_map()) {
        const Field& at = component["podSets"].present() ? component["podSets"] : wrapped;
        at.fail(fmt::format("path {} names no pod template", ps.path));
      }
      out.push_back(DerivedPodSet{fmt::format("{}-{}", name, out.size()), ps.replicas,
                                  tmpl.value()["spec"], ps.count_at});
    }
  });
  return out;
}

}  // namespace kpreempt::load
