// SPDX-License-Identifier: Apache-2.0
#include "kpreempt/render/xml.h"

#include "kpreempt/diag.h"

namespace kpreempt::render {

std::string xml_escape(std::string_view raw) {
  // Control characters and bytes that are not UTF-8 make a document that is not well-formed
  // XML (no character reference can carry them): they become visible escapes first.
  const std::string text = printable(raw, true);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace kpreempt::render
