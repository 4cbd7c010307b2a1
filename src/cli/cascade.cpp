// SPDX-License-Identifier: Apache-2.0
// `kpreempt cascade`: every pending preemptor decided by its own scheduler's policy in queue
// order, round after round, the victims' owners recreating them in between, until the cluster
// settles, loops or the rounds run out.
#include "kpreempt/scenario/cascade.h"

#include "cli/context.h"
#include "cli/explain_modes.h"
#include "cli/subcommands.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/policy/args.h"
#include "kpreempt/policy/lines.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <system_error>

namespace kpreempt::cli {
namespace {

constexpr std::string_view k_backoff_key = "cascade.backoffLimit";

struct CascadeOptions {
  Inputs inputs;
  std::size_t rounds = 20;
  std::string policy;  // the policy of kube-scheduler pods; default when empty or "all"
  std::vector<std::string> schedulers;  // --scheduler NAME=POLICY
  std::string now;
  std::vector<std::string> sets;
  std::vector<std::string> upstream;  // --upstream POLICY=VERSION
  bool all_pending = false;           // what a cascade always decides; said for explain's users
  std::string output = "text";
  std::vector<std::string> fail_on;
};

std::optional<std::int64_t> parse_count(std::string_view text) {
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0) {
    return std::nullopt;
  }
  return n;
}

// --fail-on: loop, evictions>N.
struct FailOn {
  bool loop = false;
  std::optional<std::int64_t> evictions_over;
};

FailOn parse_fail_on(const std::vector<std::string>& items) {
  FailOn f;
  for (const std::string& item : items) {
    if (item == "loop") {
      f.loop = true;
    } else if (item.starts_with("evictions>")) {
      f.evictions_over = parse_count(std::string_view(item).substr(10));
      if (!f.evictions_over) {
        throw UsageError(fmt::format("--fail-on: \"{}\": N must be a whole number", item));
      }
    } else {
      throw UsageError(fmt::format("--fail-on: unknown \"{}\" (loop, evictions>N)", item));
    }
  }
  return f;
}

// The kube-scheduler policy --policy names ("all": default, each other scheduler by its own).
const policy::Entry& kube_policy(const std::string& name) {
  const policy::Entry* kube = policy::find(name.empty() || name == "all" ? "default" : name);
  if (kube == nullptr || kube->scheduler != policy::Scheduler::kube) {
    throw UsageError(
        fmt::format("--policy: \"{}\" is not a kube-scheduler policy (default, "
                    "toleration, capacity) or all",
                    name));
  }
  return *kube;
}

// The dump's CapacityScheduling profiles, then --scheduler NAME=POLICY, a later one for the
// same name winning.
std::vector<scenario::NamedScheduler> named_schedulers(const std::vector<std::string>& given,
                                                       const model::Snapshot& snap) {
  std::vector<scenario::NamedScheduler> out = scenario::capacity_schedulers(snap);
  for (const std::string& g : given) {
    const std::size_t eq = g.find('=');
    const std::string name = g.substr(0, eq);
    if (eq == std::string::npos || name.empty()) {
      throw UsageError(fmt::format("--scheduler: \"{}\" is not NAME=POLICY", g));
    }
    const policy::Entry& e = kube_policy(g.substr(eq + 1));
    std::erase_if(out, [&](const scenario::NamedScheduler& n) { return n.name == name; });
    out.push_back({name, &e});
  }
  return out;
}

// The --set pairs the policies read; the cascade's own key goes to `backoff_limit`.
std::vector<std::string> policy_sets(const CascadeOptions& o, const policy::Entry& kube,
                                     std::int64_t& backoff_limit) {
  const std::vector<const policy::Entry*> entries{
      &kube, policy::find("capacity"), policy::find("yunikorn"), policy::find("koordinator"),
      policy::find("kueue")};
  std::vector<std::string> sets;
  for (const std::string& s : o.sets) {
    const auto [key, value] = policy::split_setting(s);
    if (key == k_backoff_key) {
      const auto n = parse_count(value);
      if (!n) {
        throw UsageError(fmt::format("--set: {} must be a whole number", k_backoff_key));
      }
      backoff_limit = *n;
      continue;
    }
    if (std::string problem = policy::unknown_key_problem(key, entries); !problem.empty()) {
      throw UsageError(fmt::format("--set: {}", problem));
    }
    sets.push_back(s);
  }
  return sets;
}

int run_cascade(const CascadeOptions& o, const Streams& io) {
  const auto format = render::parse_format(o.output);
  if (!format || *format == render::Format::wide) {
    throw UsageError("-o must be text, json, yaml or html");
  }
  if (o.rounds == 0) {
    throw UsageError("--rounds must be at least 1");
  }
  const FailOn fail_on = parse_fail_on(o.fail_on);
  const model::Instant now = parse_now(o.now);
  const policy::Entry& kube = kube_policy(o.policy);
  (void)policy::parse_upstream(o.upstream, nullptr);  // a bad --upstream before the load
  auto loaded = load_inputs(o.inputs, io);
  if (!loaded) {
    return k_exit_input;
  }
  model::Snapshot& snap = loaded->snapshot;
  scenario::CascadeOptions co;
  co.rounds = o.rounds;
  co.now = now;
  const std::vector<std::string> sets = policy_sets(o, kube, co.backoff_limit);
  const scenario::CascadePolicies runs(
      kube, named_schedulers(o.schedulers, snap),
      [&sets](const policy::Entry& e) { return parse_sets(sets, e.plugin); },
      policy::parse_upstream(o.upstream, nullptr), snap, now);
  const render::Cascade c = scenario::run_cascade(snap, co, runs.runner());
  render::render_cascade(*format, c, io.out);
  io.out.flush();
  release_at_exit(*loaded);
  const bool over =
      fail_on.evictions_over && static_cast<std::int64_t>(c.evictions) > *fail_on.evictions_over;
  return (fail_on.loop && c.loop) || over ? k_exit_findings : k_exit_ok;
}

}  // namespace

void add_cascade(CLI::App& app, const Streams& io, int& exit_code) {
  auto o = std::make_shared<CascadeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "cascade",
      "round after round of every pending preemptor decided in queue order, evicted pods "
      "recreated by their owners: does the cluster settle, and how many evictions does it take");
  cmd->add_option("-f,--filename", o->inputs.files,
                  "the running cluster: YAML or JSON file or folder (repeatable)")
      ->required();
  cmd->add_flag("-R,--recursive", o->inputs.recursive, "read folders recursively");
  add_cache_flags(*cmd, o->inputs);
  cmd->add_flag("--all-pending", o->all_pending,
                "decide every pending pod and every active Kueue Workload not yet admitted (what "
                "a cascade always does)");
  cmd->add_option("--pod-file", o->inputs.pod_files,
                  "pods (or workloads) to add as pending before round 1 (repeatable)");
  cmd->add_option("--rounds", o->rounds, "stop after this many rounds")->capture_default_str();
  cmd->add_option("--policy", o->policy,
                  "the policy deciding kube-scheduler pods: default, toleration, capacity, or all "
                  "(default; YuniKorn, Koordinator and Kueue always decide their own)");
  cmd->add_option("--scheduler", o->schedulers,
                  "NAME=POLICY: pods with this schedulerName are decided by POLICY (default, "
                  "toleration, capacity); a CapacityScheduling profile is capacity's (repeatable)");
  cmd->add_option("--now", o->now, "the time to decide at (RFC 3339; default: now)");
  cmd->add_option("--set", o->sets,
                  "policy argument KEY=VALUE, or cascade.backoffLimit=N (repeatable)");
  add_upstream_option(*cmd, o->upstream);
  cmd->add_option("-o,--output", o->output, "text, json, yaml or html")->capture_default_str();
  cmd->add_option("--fail-on", o->fail_on,
                  "exit 1 when: loop (a state repeats), evictions>N (more than N evictions)")
      ->delimiter(',');
  cmd->callback([o, &io, &exit_code] { exit_code = run_cascade(*o, io); });
}

}  // namespace kpreempt::cli
