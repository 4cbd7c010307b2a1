// SPDX-License-Identifier: Apache-2.0
// Objects that hold back admission or placement in ways no policy models: Kueue admission
// checks (AdmissionCheck, ProvisioningRequest), MultiKueue, DRA claims and Kubernetes'
// workload-aware scheduling objects. They are kept only
// by name, so that an explanation can say what it leaves out.
#include "load/decode.h"

namespace kpreempt::load {
namespace {

struct Unmodelled {
  std::string_view kind;
  std::string_view family;  // "kueue": Kueue decisions only; "": every decision
  std::string_view what;
};

constexpr Unmodelled k_unmodelled[] = {
    {"AdmissionCheck", "kueue", "admission check"},
    {"ProvisioningRequest", "kueue", "ProvisioningRequest admission check"},
    {"MultiKueueConfig", "kueue", "MultiKueue dispatch"},
    {"MultiKueueCluster", "kueue", "MultiKueue dispatch"},
    {"ResourceClaim", "dra", "DRA device claim"},
    {"ResourceClaimTemplate", "dra", "DRA device claim"},
    // scheduling.k8s.io (Kubernetes 1.35+): gang scheduling and workload-aware preemption.
    {"PodGroup", "workload-aware", "PodGroup"},
    {"CompositePodGroup", "workload-aware", "CompositePodGroup"},
    {"Workload", "workload-aware", "Workload"},
};

}  // namespace

void decode_unmodelled(const Field& root, DecodeContext& ctx) {
  const std::string kind = root["kind"].str();
  for (const Unmodelled& u : k_unmodelled) {
    if (u.kind == kind) {
      ctx.out.add(model::UnmodelledGate{
          std::string(u.family),
          model::ObjectRef{kind, root["metadata"]["namespace"].str(), object_name(root)},
          std::string(u.what), root.loc()});
    }
  }
}

}  // namespace kpreempt::load
