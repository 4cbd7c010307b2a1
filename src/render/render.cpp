// SPDX-License-Identifier: Apache-2.0
// Output format names and dispatch.
#include "kpreempt/render/render.h"

#include "render/structured.h"

#include "kpreempt/render/html.h"

#include <fmt/format.h>

namespace kpreempt::render {

std::string preemptor_name(const model::Snapshot& snap, model::PodId pod, std::uint32_t workload) {
  if (pod == model::k_none) {
    const model::Workload& w = snap.kueue().workloads[workload];
    return fmt::format("Workload {}/{}", w.namespace_, w.name);
  }
  const model::Pod& p = snap.pods()[pod];
  return p.namespace_ + "/" + p.name;
}

std::optional<Format> parse_format(std::string_view name) {
  if (name == "text") {
    return Format::text;
  }
  if (name == "wide") {
    return Format::wide;
  }
  if (name == "json") {
    return Format::json;
  }
  if (name == "yaml") {
    return Format::yaml;
  }
  if (name == "html") {
    return Format::html;
  }
  return std::nullopt;
}

void render(Format format, const model::Snapshot& snap, const std::vector<Explanation>& all,
            const Style& style, std::ostream& out) {
  switch (format) {
    case Format::json:
      render_json(snap, all, out);
      return;
    case Format::yaml:
      render_yaml(snap, all, out);
      return;
    case Format::text:
    case Format::wide:
      render_text(snap, all, format == Format::wide, style, out);
      return;
    case Format::html:
      render_html(snap, all, out);
      return;
  }
}

}  // namespace kpreempt::render
