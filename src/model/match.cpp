// SPDX-License-Identifier: Apache-2.0
// Selector and toleration matching with the exact semantics of apimachinery's labels package
// and component-helpers' nodeaffinity, including how they treat malformed requirements.

#include "kpreempt/model/match.h"

#include "kpreempt/model/go_parse.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace kpreempt::model {
namespace {

bool contains(const std::vector<std::string>& values, std::string_view v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// strconv.ParseInt(s, 10, 64): optional sign, decimal digits, in range.
std::optional<std::int64_t> parse_int64(std::string_view s) {
  const auto r = go::parse_int(s);
  return r ? std::optional<std::int64_t>(r.value) : std::nullopt;
}

// labels.NewRequirement's checks on operator and value count. A requirement failing them makes
// the whole selector (label selectors) or the whole term (node selectors) an error, which
// every caller kpreempt mirrors treats as "does not match".
bool valid(const Requirement& r, bool node_ops) {
  if (r.op == "In" || r.op == "NotIn") {
    return !r.values.empty();
  }
  if (r.op == "Exists" || r.op == "DoesNotExist") {
    return r.values.empty();
  }
  if (node_ops && (r.op == "Gt" || r.op == "Lt")) {
    return r.values.size() == 1 && parse_int64(r.values[0]).has_value();
  }
  return false;
}

// labels.Requirement.Matches for a requirement that passed valid().
bool matches(const Requirement& r, const StringMap& labels) {
  const std::string* value = find(labels, r.key);
  if (r.op == "In") {
    return value != nullptr && contains(r.values, *value);
  }
  if (r.op == "NotIn") {
    return value == nullptr || !contains(r.values, *value);
  }
  if (r.op == "Exists") {
    return value != nullptr;
  }
  if (r.op == "DoesNotExist") {
    return value == nullptr;
  }
  if (value == nullptr) {
    return false;
  }
  const std::optional<std::int64_t> have = parse_int64(*value);
  const std::optional<std::int64_t> want = parse_int64(r.values[0]);
  if (!have || !want) {
    return false;
  }
  return r.op == "Gt" ? *have > *want : *have < *want;
}

// fields.OneTermEqualSelector / OneTermNotEqualSelector built from a matchFields entry; only
// metadata.name with In or NotIn and exactly one value is accepted upstream.
std::optional<bool> field_matches(const Requirement& r, const Node& node) {
  if (r.key != "metadata.name" || r.values.size() != 1) {
    return std::nullopt;
  }
  if (r.op == "In") {
    return node.name == r.values[0];
  }
  if (r.op == "NotIn") {
    return node.name != r.values[0];
  }
  return std::nullopt;
}

}  // namespace

bool empty(const LabelSelector& sel) {
  return sel.match_labels.empty() && sel.match_expressions.empty();
}

bool matches(const LabelSelector& sel, const StringMap& labels) {
  if (!sel.present) {
    return false;
  }
  for (const Requirement& r : sel.match_expressions) {
    if (!valid(r, false)) {
      return false;
    }
  }
  for (const auto& [key, value] : sel.match_labels) {
    const std::string* have = find(labels, key);
    if (have == nullptr || *have != value) {
      return false;
    }
  }
  return std::all_of(sel.match_expressions.begin(), sel.match_expressions.end(),
                     [&](const Requirement& r) { return matches(r, labels); });
}

bool matches(const NodeSelectorTerm& term, const Node& node) {
  if (term.match_expressions.empty() && term.match_fields.empty()) {
    return false;
  }
  bool all = true;
  for (const Requirement& r : term.match_expressions) {
    if (!valid(r, true)) {
      return false;  // a parse error: the term never matches
    }
    all = all && matches(r, node.labels);
  }
  for (const Requirement& r : term.match_fields) {
    const std::optional<bool> m = field_matches(r, node);
    if (!m) {
      return false;
    }
    all = all && *m;
  }
  return all;
}

bool matches_node_affinity(const Pod& pod, const Node& node) {
  for (const auto& [key, value] : pod.node_selector) {
    const std::string* have = find(node.labels, key);
    if (have == nullptr || *have != value) {
      return false;
    }
  }
  if (!pod.has_required_node_affinity) {
    return true;
  }
  return std::any_of(pod.required_node_affinity.begin(), pod.required_node_affinity.end(),
                     [&](const NodeSelectorTerm& t) { return matches(t, node); });
}

bool tolerates(const Toleration& t, const Taint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) {
    return false;
  }
  if (!t.key.empty() && t.key != taint.key) {
    return false;
  }
  if (t.op.empty() || t.op == "Equal") {
    return t.value == taint.value;
  }
  return t.op == "Exists";
}

const Taint* first_untolerated(const std::vector<Toleration>& tolerations,
                               const std::vector<Taint>& taints) {
  for (const Taint& taint : taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") {
      continue;
    }
    const bool tolerated = std::any_of(tolerations.begin(), tolerations.end(),
                                       [&](const Toleration& t) { return tolerates(t, taint); });
    if (!tolerated) {
      return &taint;
    }
  }
  return nullptr;
}

}  // namespace kpreempt::model
