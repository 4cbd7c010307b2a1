// SPDX-License-Identifier: Apache-2.0
// What every HTML page shares: escaping, the page shell with its stylesheet, and tables. Every
// name in a page comes from the dump, so every piece of text goes through esc().
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::render::html {

// Text for an element or a double-quoted attribute: & < > " ' escaped, control characters
// (which HTML and XML refuse) replaced by U+FFFD.
std::string esc(std::string_view text);

// <!DOCTYPE html> to <body>, with the stylesheet inline: nothing is fetched.
void begin_page(std::ostream& out, std::string_view title);
void end_page(std::ostream& out);

// A table of escaped cells. A row whose first cell starts with k_changed_row is marked
// changed (the marker is dropped).
inline constexpr std::string_view k_changed_row = "\x01";
void table(std::ostream& out, const std::vector<std::string>& head,
           const std::vector<std::vector<std::string>>& rows, std::string_view css_class = "");

// Text a program printed, kept as it is, in a <pre>.
void preformatted(std::ostream& out, std::string_view text);

// "preempt", "fits", "unschedulable" as a coloured badge.
std::string outcome_badge(std::string_view outcome);

// The opening tag of an inline SVG picture of `width` x `height`, which shrinks to the page's
// width when wider.
std::string svg_open(int width, int height, std::string_view label);

// A label shortened to `max` characters with an ellipsis, for tight SVG space.
std::string shorten(std::string_view text, std::size_t max);

}  // namespace kpreempt::render::html
