// SPDX-License-Identifier: Apache-2.0
// The reason vocabulary: one stable name and one sentence per code, names as the JSON contract
// prints them.
#include "kpreempt/policy/reason.h"

#include "support/reasons.h"

#include "kpreempt/render/render.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kpreempt::testing {
namespace {

using policy::Code;

// Kebab-case words, optionally qualified by one more kebab-case part after a colon
// ("victim:node-fit"), or an upstream reason name in PascalCase ("InCohortReclamation").
bool stable_name(std::string_view name) {
  if (name.empty()) {
    return false;
  }
  if (std::isupper(static_cast<unsigned char>(name.front()))) {
    return std::all_of(name.begin(), name.end(),
                       [](unsigned char c) { return std::isalpha(c) != 0; });
  }
  if (std::count(name.begin(), name.end(), ':') > 1 || name.front() == '-' || name.back() == '-' ||
      name.back() == ':' || name.find("--") != std::string_view::npos) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::islower(c) != 0 || std::isdigit(c) != 0 || c == '-' || c == ':';
  });
}

TEST_CASE("every reason code has a unique stable name and a sentence", "[policy][reason]") {
  std::set<std::string_view> names;
  for (const policy::CodeInfo& c : policy::codes()) {
    INFO(c.name);
    CHECK(stable_name(c.name));
    CHECK(names.insert(c.name).second);
    CHECK(policy::name(c.code) == c.name);
    CHECK(&policy::info(c.code) == &c);
    REQUIRE_FALSE(c.sentence.empty());
    CHECK(c.sentence.back() == '.');
  }
}

TEST_CASE("every reason name reads back as its code", "[policy][reason]") {
  for (const policy::CodeInfo& c : policy::codes()) {
    INFO(c.name);
    REQUIRE(policy::code_named(c.name).has_value());
    CHECK(*policy::code_named(c.name) == c.code);
  }
  CHECK_FALSE(policy::code_named("tie:n1,n2").has_value());
  CHECK_FALSE(policy::code_named("").has_value());
}

TEST_CASE("codes keep the names the JSON contract prints", "[policy][reason]") {
  CHECK(policy::name(Code::tie) == "tie");
  CHECK(policy::name(Code::pdb_violation) == "pdb-violation");
  CHECK(policy::name(Code::in_cohort_reclamation) == "InCohortReclamation");
  CHECK(policy::name(Code::tolerates_not_scheduled) == "tolerates:not-scheduled");
  CHECK(policy::name(Code::node_unresolvable) == "node-unresolvable");
  CHECK(policy::info(Code::node_unresolvable).subject == policy::SubjectKind::plugin);
  CHECK(policy::info(Code::tie).subject == policy::SubjectKind::nodes);
  CHECK(policy::info(Code::lost).subject == policy::SubjectKind::criterion);
  CHECK(policy::name(Code::not_handled) == "not-handled");
  CHECK(policy::info(Code::not_handled).subject == policy::SubjectKind::scheduler);
  CHECK(policy::name(Code::gated) == "gated");
  CHECK(policy::info(Code::gated).subject == policy::SubjectKind::gates);
  CHECK(policy::name(Code::preemption_disabled) == "preemption-disabled");
}

TEST_CASE("a reason prints its name, then its subject's names", "[policy][reason]") {
  using policy::Reason;
  CHECK(render::reason_text(Code::preempt) == "preempt");
  CHECK(render::reason_text(Reason(Code::tie, std::vector<std::string>{"n1", "n2"})) ==
        "tie:n1,n2");
  CHECK(render::reason_text(Reason(Code::pdb_violation, "ns/pdb")) == "pdb-violation:ns/pdb");
  CHECK(render::reason_text(Reason(Code::node_unresolvable, "NodeAffinity")) ==
        "node-unresolvable:NodeAffinity");
  CHECK(render::reason_text(Reason(Code::tolerates_until, "2026-03-10T12:05:00Z")) ==
        "tolerates-until:2026-03-10T12:05:00Z");
}

TEST_CASE("a code about another code holds it by name and reads it back", "[policy][reason]") {
  const policy::Reason job = policy::nested(Code::job, Code::no_member_placed);
  CHECK(render::reason_text(job) == "job:no-member-placed");
  CHECK(policy::inner_code(job) == Code::no_member_placed);
  CHECK(policy::info(Code::job).subject == policy::SubjectKind::reason);
  CHECK_FALSE(policy::inner_code(policy::Reason(Code::pdb_violation, "ns/pdb")).has_value());
  CHECK_FALSE(policy::inner_code(Code::job).has_value());
}

TEST_CASE("the error codes are the ones named error", "[policy][reason]") {
  for (const policy::CodeInfo& c : policy::codes()) {
    INFO(c.name);
    const bool named = c.name == "error" || c.name.starts_with("error:");
    CHECK(policy::is_error(c.code) == named);
  }
}

TEST_CASE("node-pick criteria keep their names, order and sentences", "[policy][reason]") {
  using policy::Criterion;
  const std::vector<std::string_view> names{"pdb-violations", "highest-victim-priority",
                                            "sum-priorities", "victim-count", "start-time"};
  REQUIRE(policy::criteria().size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const policy::CriterionInfo& c = policy::criteria()[i];
    INFO(c.name);
    CHECK(c.name == names[i]);
    CHECK(static_cast<std::size_t>(c.criterion) == i);
    CHECK(&policy::info(c.criterion) == &c);
    CHECK(policy::name(c.criterion) == c.name);
    CHECK_FALSE(c.sentence.empty());
    CHECK(render::reason_text(policy::lost_on(c.criterion)) == "lost:" + std::string(c.name));
  }
  CHECK(policy::info(Criterion::pdb_violations).sentence == "fewest PDB violations");
  CHECK(policy::lost_on(Criterion::start_time) == policy::Reason(Code::lost, "start-time"));
}

TEST_CASE("a verdict unit is named as the JSON contract spells it", "[policy][reason]") {
  CHECK(policy::name(policy::VerdictUnit::node) == "node");
  CHECK(policy::name(policy::VerdictUnit::cluster_queue) == "ClusterQueue");
}

}  // namespace
}  // namespace kpreempt::testing
