// SPDX-License-Identifier: Apache-2.0
// `-o html`: one self-contained page (inline SVG and CSS; nothing fetched, no script) that
// pictures a decision. Every name from the dump is escaped: a dump is input, and names,
// labels and messages may hold markup.
#pragma once

#include "kpreempt/model/snapshot.h"
#include "kpreempt/render/cascade.h"
#include "kpreempt/render/diff.h"
#include "kpreempt/render/render.h"

#include <cstddef>
#include <iosfwd>
#include <string_view>
#include <vector>

namespace kpreempt::render {

// `explain`: per policy the outcome, the nodes as columns of pods (the chosen node and its
// victims marked, losing candidates labelled with the criterion they lost on, the rest
// grouped), quota bars before and after for quota policies, then the tables. `summary`: the
// text of a sequence's summary (explain --pod-file with several pods), printed first.
void render_html(const model::Snapshot& snap, const std::vector<Explanation>& all,
                 std::ostream& out, std::string_view summary = {});

// `explain --all-pending`: a summary table, the totals (and the sequence's summary, with
// --sequential) as the text output words them, then a section with a small picture per
// preemptor.
void render_batch_html(const model::Snapshot& snap, const std::vector<Explanation>& all,
                       std::string_view totals, std::ostream& out);

// `cascade`: the summary, a timeline of rounds (admitted and evicted per round), then each
// round's decisions, recreations and pods gone.
void render_cascade_html(const Cascade& c, std::ostream& out);

// `diff`: the summary, each changed decision base and head side by side with what changed
// highlighted, then the configuration, edge and lint changes.
void render_diff_html(const Diff& diff, std::ostream& out);

// A report without a picture of its own (explain --victim, --codes), its text on a page.
void render_text_html(std::string_view title, std::string_view text, std::ostream& out);

}  // namespace kpreempt::render
