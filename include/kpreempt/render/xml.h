// SPDX-License-Identifier: Apache-2.0
// XML text escaping for the JUnit writers of lint and check.
#pragma once

#include <string>
#include <string_view>

namespace kpreempt::render {

// Escapes the five XML special characters, for attribute values and text alike; control
// characters and bytes that are not UTF-8 are shown as kpreempt::printable shows them.
std::string xml_escape(std::string_view text);

}  // namespace kpreempt::render
