// SPDX-License-Identifier: Apache-2.0
// End-to-end: YuniKorn quota preemption through the binary, on queues in the shape of
// YuniKorn's quota preemption guide. It stays out of the pending pod's answer: one warning by
// default, its own sections with YuniKorn.quotaPreemption=assume-fired.
#include "support/run.h"
#include "support/text.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

namespace {

using kpreempt::test::Run;

constexpr const char* k_explain =
    "explain --no-cache -f testdata/explain/yunikorn/v18-quota-preemption-assume-fired/"
    "cluster.yaml --policy yunikorn --pod default/p --now 2026-01-01T00:10:00Z ";

Run stdout_of(const std::string& args) {
  return kpreempt::test::run_binary(args, false);
}

Run stderr_of(const std::string& args) {
  return kpreempt::test::run_shell(std::string("cd '" KPREEMPT_TESTDATA "/..' && '") +
                                   KPREEMPT_BINARY + "' " + args + " 2>&1 >/dev/null");
}

}  // namespace

TEST_CASE("by default one warning names the queues quota preemption may empty",
          "[cli][e2e][quota]") {
  Run err = stderr_of(k_explain);
  INFO(err.out);
  CHECK(err.code == 0);
  CHECK(kpreempt::test::occurrences(
            err.out,
            "kpreempt: warning: quota preemption may evict pods of queues "
            "root.default (over its max by memory 9Gi; preemption.quota.delay 5m), "
            "root.tenants (over its max by memory 2Gi; preemption.quota.delay 2h)") == 1);
  CHECK(err.out.find("--set YuniKorn.quotaPreemption=assume-fired lists them") !=
        std::string::npos);
  Run out = stdout_of(k_explain);
  CHECK(out.out.find("if quota preemption fires") == std::string::npos);
  CHECK(out.out.find("  victims\n") == std::string::npos);
}

TEST_CASE("assume-fired prints a section per queue, apart from the pod's victims",
          "[cli][e2e][quota]") {
  Run r = stdout_of(std::string(k_explain) + "--set YuniKorn.quotaPreemption=assume-fired");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("  outcome   unschedulable\n") != std::string::npos);
  CHECK(r.out.find("  victims\n") == std::string::npos);
  CHECK(r.out.find("  if quota preemption fires for root.default: uses memory 19Gi, pods 6, "
                   "vcore 3 against its max memory 10Gi, over by memory 9Gi; would evict "
                   "default/big, default/d4 (timer: preemption.quota.delay 5m after a config "
                   "reload kpreempt cannot see)\n") != std::string::npos);
  CHECK(r.out.find("would evict default/b2 (timer: preemption.quota.delay 2h after a config "
                   "reload kpreempt cannot see; checked only in a cycle with a pending ask at or "
                   "below it, and the dump has none)") != std::string::npos);
  CHECK(r.out.find("root.tenants.b  -           -       -         tie") != std::string::npos);

  Run json = stdout_of(std::string(k_explain) + "--set quotaPreemption=assume-fired -o json");
  REQUIRE(json.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  const nlohmann::json& result = doc.at("results").at(0);
  CHECK(result.at("victims").empty());
  const nlohmann::json& queues = result.at("details").at("quotaPreemption").at("queues");
  REQUIRE(queues.size() == 2);
  CHECK(queues[1].at("leaves").at(1).at("victims").at(0).at("reason") ==
        "quota-preemption:root.tenants");
}

TEST_CASE("quota preemption on the v1.7 line, and bad values", "[cli][e2e][quota]") {
  SECTION("v1.7 has none, and says so when asked") {
    Run err = stderr_of(std::string(k_explain) +
                        "--upstream yunikorn=v1.7 --set YuniKorn.quotaPreemption=assume-fired");
    CHECK(err.code == 0);
    CHECK(err.out.find("yunikorn-core v1.7 has no quota preemption (it is new in v1.8)") !=
          std::string::npos);
    Run quiet = stderr_of(std::string(k_explain) + "--upstream yunikorn=v1.7");
    CHECK(quiet.out.find("quota preemption") == std::string::npos);
  }
  SECTION("a value other than note or assume-fired") {
    Run r = kpreempt::test::run_binary(std::string(k_explain) + "--set quotaPreemption=on", true);
    CHECK(r.code == 2);
    CHECK(r.out.find("YuniKorn.quotaPreemption: \"on\" is not one of note, assume-fired") !=
          std::string::npos);
  }
  SECTION("a policy that does not read the key") {
    Run r = kpreempt::test::run_binary(
        "explain --no-cache -f testdata/explain/yunikorn/v18-quota-preemption-assume-fired/"
        "cluster.yaml --policy default --pod default/p --set YuniKorn.quotaPreemption=note",
        true);
    CHECK(r.code == 2);
    CHECK(r.out.find("unknown key \"YuniKorn.quotaPreemption\" for policy default") !=
          std::string::npos);
  }
}
