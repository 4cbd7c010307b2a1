// SPDX-License-Identifier: Apache-2.0
// Which release line each policy mirrors, and why: --upstream (or a scenario's `upstream:`)
// first, else the release the dump's own scheduler runs (its image tag), else the newest line
// kpreempt models.
#pragma once

#include "kpreempt/model/scheduler_image.h"
#include "kpreempt/model/snapshot.h"
#include "kpreempt/policy/args.h"
#include "kpreempt/policy/policy.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kpreempt::policy {

// The line one policy runs at and where it came from.
struct LineChoice {
  ReleaseLine line;  // as asked; run() takes the nearest line modelled. Unset: the newest.
  std::string from;  // for people; empty for the default
  std::vector<std::string> warnings;  // about the dump's images of the policy's scheduler
};

// The release line an image's tag names, or nullopt with why not ("only a digest",
// "tag \"latest\" is not a release").
struct ImageLine {
  std::optional<ReleaseLine> line;
  std::string problem;
};
ImageLine image_line(const model::SchedulerImage& image);
// The same for an image reference as written (tests, messages).
ImageLine image_line(std::string_view image, std::string_view container = {});

// What the dump's scheduler images say, per policy: the line (and source) for each policy whose
// scheduler's image the dump holds, or only warnings when none of its images names a release.
// Two releases of one scheduler (an upgrade under way, control-plane nodes at different
// versions): the oldest, with a warning naming both, as the old one may still lead.
using DumpLines = std::vector<std::pair<const Entry*, LineChoice>>;
DumpLines dump_lines(const model::Snapshot& snap);

// The line `entry` runs at: the --upstream value for it, else the dump's, else the default.
LineChoice choose_line(const Entry& entry, std::span<const UpstreamChoice> flags,
                       const DumpLines& dump);

// run() at the chosen line: the decision also says where the line came from
// (Decision::line_from) and carries the choice's warnings.
Decision run(const Entry& entry, Input input, const LineChoice& choice);

}  // namespace kpreempt::policy
