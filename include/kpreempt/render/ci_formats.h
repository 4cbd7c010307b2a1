// SPDX-License-Identifier: Apache-2.0
// What the CI formats of lint and diff share: SARIF URIs, GitHub workflow-command escaping.
#pragma once

#include <string>
#include <string_view>

namespace kpreempt::render {

inline constexpr const char* k_sarif_schema = "https://json.schemastore.org/sarif-2.1.0.json";

// Code scanning resolves URIs against the checkout: a path relative to the working
// directory, with '/' separators and RFC 3986 escaping ("stdin" for standard input).
std::string sarif_uri(const std::string& file);

// GitHub workflow-command escaping: data escapes %, CR and LF, a property also ':' and ',';
// control characters and bytes that are not UTF-8 are shown as kpreempt::printable shows them.
std::string github_escape(std::string_view raw, bool property);

}  // namespace kpreempt::render
