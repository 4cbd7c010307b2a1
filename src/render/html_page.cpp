// SPDX-License-Identifier: Apache-2.0
// The page shell and its stylesheet. The page fetches nothing and runs no script: tooltips are
// SVG <title> elements, which every browser shows on hover.
#include "render/html_page.h"

#include "kpreempt/render/xml.h"

#include <fmt/format.h>

#include <ostream>

namespace kpreempt::render::html {
namespace {

// Priority bands, victims and outcomes share these colours in every picture and legend.
constexpr std::string_view k_style = R"(
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px;
  color: #1f2328; background: #fff; max-width: 1400px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 6px; border-top: 1px solid #d0d7de; padding-top: 14px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
.meta, .upstream, .note { color: #59636e; }
h3 .upstream, h4 .upstream { font-weight: normal; font-size: 13px; }
.why { margin: 4px 0; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
tr.changed td { background: #fff8c5; }
td.changed { background: #fff8c5; font-weight: 600; }
td.added { color: #1a7f37; } td.removed { color: #cf222e; text-decoration: line-through; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-weight: 600;
  color: #fff; }
.badge.preempt { background: #bf8700; } .badge.fits { background: #1a7f37; }
.badge.unschedulable { background: #cf222e; } .badge.none { background: #8c959f; }
.warn { color: #9a6700; }
pre { background: #f6f8fa; padding: 10px; overflow-x: auto; }
svg { display: block; margin: 8px 0; max-width: 100%; height: auto; }
svg text { font: 11px system-ui, sans-serif; fill: #1f2328; }
svg text.small { font-size: 10px; fill: #59636e; }
svg text.head { font-weight: 600; }
svg .frame { fill: #fff; stroke: #8c959f; }
svg .chosen { stroke: #1a7f37; stroke-width: 3; }
svg .group { fill: #f6f8fa; stroke: #8c959f; stroke-dasharray: 4 3; }
svg .system { fill: #57606a; } svg .protected { fill: #6e9bd1; } svg .lower { fill: #e3b341; }
svg .victim { fill: #e5534b; stroke: #82071e; stroke-width: 1.5; }
svg .ghost { fill: #1a7f3755; stroke: #1a7f37; stroke-width: 2; stroke-dasharray: 6 3; }
svg .line100 { stroke: #1f2328; stroke-dasharray: 2 2; }
svg .before { fill: #8c959f; } svg .after { fill: #6e9bd1; }
svg .guarantee { stroke: #1a7f37; stroke-width: 2; stroke-dasharray: 4 2; }
svg .limit { stroke: #cf222e; stroke-width: 2; }
svg .evicted { fill: #e5534b; } svg .admitted { fill: #1a7f37; }
.legend span { display: inline-block; margin-right: 14px; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px;
  vertical-align: -1px; border: 1px solid #57606a; }
)";

}  // namespace

// HTML reads XML's five escapes, and a page must not carry control characters or broken
// UTF-8 either: the XML escaping serves both.
std::string esc(std::string_view text) {
  return xml_escape(text);
}

void begin_page(std::ostream& out, std::string_view title) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      // Nothing on the page is fetched or run; the policy says so to the browser too.
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'\">\n"
      << "<title>" << esc(title) << "</title>\n<style>" << k_style << "</style>\n</head>\n<body>\n";
}

void end_page(std::ostream& out) {
  out << "</body>\n</html>\n";
}

void table(std::ostream& out, const std::vector<std::string>& head,
           const std::vector<std::vector<std::string>>& rows, std::string_view css_class) {
  out << "<table" << (css_class.empty() ? "" : fmt::format(" class=\"{}\"", css_class))
      << ">\n<tr>";
  for (const std::string& h : head) {
    out << "<th>" << esc(h) << "</th>";
  }
  out << "</tr>\n";
  for (const auto& row : rows) {
    const bool changed = !row.empty() && row.front().starts_with(k_changed_row);
    out << (changed ? "<tr class=\"changed\">" : "<tr>");
    for (std::size_t i = 0; i < row.size(); ++i) {
      std::string_view cell = row[i];
      if (i == 0 && changed) {
        cell.remove_prefix(k_changed_row.size());
      }
      out << "<td>" << esc(cell) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n";
}

void preformatted(std::ostream& out, std::string_view text) {
  out << "<pre>" << esc(text) << "</pre>\n";
}

std::string outcome_badge(std::string_view outcome) {
  const std::string_view cls =
      outcome == "preempt" || outcome == "fits" || outcome == "unschedulable"
          ? outcome
          : std::string_view("none");
  return fmt::format("<span class=\"badge {}\">{}</span>", cls, esc(outcome));
}

std::string svg_open(int width, int height, std::string_view label) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\">\n",
      width, height, esc(label));
}

std::string shorten(std::string_view text, std::size_t max) {
  if (text.size() <= max || max < 2) {
    return std::string(text);
  }
  // Cut on a UTF-8 character boundary.
  std::size_t cut = max - 1;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  return std::string(text.substr(0, cut)) + "\u2026";
}

}  // namespace kpreempt::render::html
