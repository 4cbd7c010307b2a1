// SPDX-License-Identifier: Apache-2.0
// What the SARIF writers of lint and diff share.
#pragma once

#include <string>

namespace kpreempt::render {

inline constexpr const char* k_sarif_schema = "https://json.schemastore.org/sarif-2.1.0.json";

// Code scanning resolves URIs against the checkout: a path relative to the working
// directory, with '/' separators and RFC 3986 escaping ("stdin" for standard input).
std::string sarif_uri(const std::string& file);

}  // namespace kpreempt::render
