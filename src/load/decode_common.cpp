// SPDX-License-Identifier: Apache-2.0
// API shapes shared by several kinds: metadata, label and node selectors, and the validation
// metav1.LabelSelectorAsSelector applies (a PDB whose selector fails it is ignored upstream).
#include "load/decode.h"

#include <algorithm>

namespace kpreempt::load {
namespace {

bool alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// A qualified name's name part, and a label value when non-empty: at most 63 characters,
// alphanumerics at both ends, '-', '_' and '.' inside.
bool valid_name_part(std::string_view s) {
  if (s.empty() || s.size() > 63 || !alnum(s.front()) || !alnum(s.back())) {
    return false;
  }
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

// A DNS-1123 subdomain: lower-case labels joined by dots, at most 253 characters.
bool valid_subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) {
    return false;
  }
  auto lower = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!lower(s.front()) || !lower(s.back())) {
    return false;
  }
  return std::all_of(s.begin(), s.end(), [&](char c) { return lower(c) || c == '-' || c == '.'; });
}

bool valid_label_key(std::string_view key) {
  std::size_t slash = key.find('/');
  if (slash == std::string_view::npos) {
    return valid_name_part(key);
  }
  return valid_subdomain(key.substr(0, slash)) && valid_name_part(key.substr(slash + 1));
}

bool valid_label_value(std::string_view v) {
  return v.empty() || valid_name_part(v);
}

std::string quoted(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

SelectorProblem check_expression(const Field& e) {
  std::string op = e["operator"].str();
  std::vector<std::string> values = e["values"].strings();
  if (!valid_label_key(e["key"].str())) {
    return {quoted(e["key"].str()) + " is not a valid label key", e["key"]};
  }
  if (op == "In" || op == "NotIn") {
    if (values.empty()) {
      return {"operator " + op + " needs at least one value", e["values"]};
    }
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (!values.empty()) {
      return {"operator " + op + " takes no values", e["values"]};
    }
  } else {
    return {quoted(op) + " is not a valid label selector operator", e["operator"]};
  }
  for (const std::string& v : values) {
    if (!valid_label_value(v)) {
      return {quoted(v) + " is not a valid label value", e["values"]};
    }
  }
  return {};
}

}  // namespace

void DecodeContext::warn(const Field& at, const std::string& message) const {
  diags.push_back(Diagnostic{Severity::warning, at.loc(), message});
}

namespace {

// [a-z0-9]([-a-z0-9]*[a-z0-9])?, of any length.
bool label_chars(std::string_view s) {
  return !s.empty() && s.front() != '-' && s.back() != '-' &&
         std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
         });
}

}  // namespace

bool dns1123_label(std::string_view s) {
  return s.size() <= 63 && label_chars(s);
}

bool dns1123_subdomain(std::string_view s) {
  if (s.size() > 253) {
    return false;
  }
  for (std::size_t start = 0;;) {
    const std::size_t dot = s.find('.', start);
    if (!label_chars(s.substr(start, dot == std::string_view::npos ? dot : dot - start))) {
      return false;
    }
    if (dot == std::string_view::npos) {
      return true;
    }
    start = dot + 1;
  }
}

// The API server refuses names that are not DNS-1123 subdomains and namespaces that are not
// DNS-1123 labels; such a name (with an escape sequence or a line break, say) is no dump's.
std::string object_namespace(const Field& root) {
  Field ns = root["metadata"]["namespace"];
  std::string out = ns.str("default");
  if (!dns1123_label(out)) {
    ns.fail("not a valid namespace (lowercase letters, digits and '-', at most 63)");
  }
  return out;
}

bool valid_object_name(std::string_view s) {
  // A name made from generateName ends in "<generated>" or "<generated-2>": the API server
  // would have put random lowercase characters there.
  const std::size_t open = s.rfind("<generated");
  if (open != std::string_view::npos && s.ends_with(">")) {
    std::string_view count = s.substr(open + 10, s.size() - open - 11);
    const bool numbered =
        count.starts_with("-") && count.size() > 1 &&
        std::all_of(count.begin() + 1, count.end(), [](char c) { return c >= '0' && c <= '9'; });
    return (count.empty() || numbered) && dns1123_subdomain(std::string(s.substr(0, open)) + "x");
  }
  return dns1123_subdomain(s);
}

std::string object_name(const Field& root) {
  Field name = root["metadata"]["name"];
  if (!name.present()) {
    name.fail("required field is missing");
  }
  std::string out = name.str();
  if (!valid_object_name(out)) {
    name.fail("not a valid name (lowercase letters, digits, '-' and '.', at most 253)");
  }
  return out;
}

model::Requirement decode_requirement(const Field& f) {
  return model::Requirement{f["key"].str(), f["operator"].str(), f["values"].strings()};
}

model::LabelSelector decode_label_selector(const Field& f) {
  model::LabelSelector sel;
  if (!f.present()) {
    return sel;
  }
  f.each_member([](const Field&) {});  // refuses a non-map early, with its path
  sel.present = true;
  sel.match_labels = f["matchLabels"].string_map();
  f["matchExpressions"].each_item(
      [&](const Field& e) { sel.match_expressions.push_back(decode_requirement(e)); });
  return sel;
}

std::vector<model::NodeSelectorTerm> decode_node_selector_terms(const Field& f) {
  std::vector<model::NodeSelectorTerm> terms;
  f.each_item([&](const Field& t) {
    model::NodeSelectorTerm term;
    t["matchExpressions"].each_item(
        [&](const Field& e) { term.match_expressions.push_back(decode_requirement(e)); });
    t["matchFields"].each_item(
        [&](const Field& e) { term.match_fields.push_back(decode_requirement(e)); });
    terms.push_back(std::move(term));
  });
  return terms;
}

SelectorProblem check_label_selector(const Field& f) {
  SelectorProblem found;
  f["matchLabels"].each_member([&](const Field& m) {
    if (!found.at && !valid_label_key(m.key())) {
      found = {quoted(m.key()) + " is not a valid label key", m};
    } else if (!found.at && !valid_label_value(m.str())) {
      found = {quoted(m.str()) + " is not a valid label value", m};
    }
  });
  f["matchExpressions"].each_item([&](const Field& e) {
    if (!found.at) {
      found = check_expression(e);
    }
  });
  return found;
}

}  // namespace kpreempt::load
