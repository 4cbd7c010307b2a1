// SPDX-License-Identifier: Apache-2.0
// The report writers behind lint::write().
#pragma once

#include "kpreempt/lint/lint.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace kpreempt::lint {

// "Kind/ns/name: message", the text every format shows.
std::string full_message(const Finding& f);

void write_sarif(const Result& r, std::ostream& out);
void write_junit(const Result& r, std::ostream& out);

}  // namespace kpreempt::lint
