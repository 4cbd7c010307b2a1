// SPDX-License-Identifier: Apache-2.0
#include "kpreempt/model/job.h"

namespace kpreempt::model {

std::string_view to_string(PodFailureRule::Action a) {
  switch (a) {
    case PodFailureRule::Action::fail_job:
      return "FailJob";
    case PodFailureRule::Action::fail_index:
      return "FailIndex";
    case PodFailureRule::Action::ignore:
      return "Ignore";
    case PodFailureRule::Action::count:
      break;
  }
  return "Count";
}

}  // namespace kpreempt::model
