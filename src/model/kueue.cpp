// SPDX-License-Identifier: Apache-2.0
#include "kpreempt/model/kueue.h"

namespace kpreempt::model {

std::optional<std::uint32_t> find_workload(const KueueObjects& k, std::string_view ns,
                                           std::string_view name) {
  for (std::size_t i = 0; i < k.workloads.size(); ++i) {
    if (k.workloads[i].namespace_ == ns && k.workloads[i].name == name) {
      return static_cast<std::uint32_t>(i);
    }
  }
  return std::nullopt;
}

}  // namespace kpreempt::model
