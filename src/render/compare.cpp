// SPDX-License-Identifier: Apache-2.0
#include "render/compare.h"

#include "render/table.h"

#include <fmt/format.h>

#include <set>

namespace kpreempt::render {
namespace {

std::string short_name(const model::ObjectRef& r) {
  return r.kind == "Pod" ? r.namespace_ + "/" + r.name : model::to_string(r);
}

std::set<std::string> victim_names(const policy::Decision& d) {
  std::set<std::string> names;
  for (const auto& v : d.victims) {
    names.insert(short_name(v.ref));
  }
  return names;
}

// "Pods", "Workloads" or "Pods and Workloads": what a decision evicts.
std::string victim_kinds(const policy::Decision& d) {
  std::set<std::string> kinds;
  for (const auto& v : d.victims) {
    kinds.insert(v.ref.kind + "s");
  }
  return fmt::format("{}", fmt::join(kinds, " and "));
}

std::string outcome_phrase(const policy::Decision& d) {
  if (d.outcome == policy::Outcome::preempt) {
    // Quota-level policies evict Workloads and nominate no node.
    return d.node.empty() ? std::string("preempts") : fmt::format("preempts on {}", d.node);
  }
  return d.outcome == policy::Outcome::fits ? "fits without preemption" : "cannot be placed";
}

}  // namespace

std::vector<std::string> differences(const policy::Decision& base, const policy::Decision& other) {
  std::vector<std::string> out;
  if (base.outcome != other.outcome || base.node != other.node) {
    out.push_back(fmt::format("with {}, the pod {}; with {}, it {}", other.policy,
                              outcome_phrase(other), base.policy, outcome_phrase(base)));
  }
  // A Workload victim stands for its pods: names of different kinds cannot be matched, and a
  // pod missing from a Workload list may well be evicted with its Workload.
  const std::string base_kinds = victim_kinds(base);
  const std::string other_kinds = victim_kinds(other);
  if (base_kinds != other_kinds && !base.victims.empty() && !other.victims.empty()) {
    out.push_back(
        fmt::format("with {}, the victims are {}; with {}, {}: see each policy's "
                    "victims above",
                    other.policy, other_kinds, base.policy, base_kinds));
    return out;
  }
  auto a = victim_names(base);
  auto b = victim_names(other);
  for (const auto& name : a) {
    if (!b.contains(name)) {
      out.push_back(fmt::format("with {}, {} survives; with {}, it is evicted", other.policy, name,
                                base.policy));
    }
  }
  for (const auto& name : b) {
    if (!a.contains(name)) {
      out.push_back(fmt::format("with {}, {} is evicted; with {}, it survives", other.policy, name,
                                base.policy));
    }
  }
  return out;
}

void print_comparison(const std::vector<policy::Decision>& decisions, bool color,
                      std::ostream& out) {
  out << '\n' << (color ? "\x1b[1mcomparison\x1b[0m" : "comparison") << '\n';
  Table t({"POLICY", "OUTCOME", "NODE", "VICTIMS"});
  for (const auto& d : decisions) {
    std::vector<std::string> names;
    for (const auto& v : d.victims) {
      names.push_back(short_name(v.ref));
    }
    t.add({d.policy, std::string(policy::to_string(d.outcome)), d.node.empty() ? "-" : d.node,
           names.empty() ? "-" : fmt::format("{}", fmt::join(names, ", "))});
  }
  t.print(out, 2);
  bool any = false;
  for (std::size_t i = 1; i < decisions.size(); ++i) {
    for (const auto& line : differences(decisions.front(), decisions[i])) {
      out << "  " << line << '\n';
      any = true;
    }
  }
  if (!any) {
    out << "  all policies agree\n";
  }
}

}  // namespace kpreempt::render
