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
  std::string policy;  // the policy of kube-scheduler pods; default when empty
  std::string now;
  std::vector<std::string> sets;
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

// The policies a cascade runs, each with its args and release line: kube-scheduler pods get
// --policy's (default), YuniKorn's and Koordinator's pods theirs, Workloads Kueue's.
class Runs {
 public:
  Runs(const CascadeOptions& o, const model::Snapshot& snap, model::Instant now) {
    const policy::Entry* kube = policy::find(o.policy.empty() ? "default" : o.policy);
    if (kube == nullptr || kube->scheduler != policy::Scheduler::kube) {
      throw UsageError(fmt::format(
          "--policy: \"{}\" is not a kube-scheduler policy (default, toleration, capacity)",
          o.policy));
    }
    std::vector<std::string> sets;
    std::vector<const policy::Entry*> entries{kube, policy::find("yunikorn"),
                                              policy::find("koordinator"), policy::find("kueue")};
    for (const std::string& s : o.sets) {
      const std::string key = policy::split_setting(s).first;
      if (key == k_backoff_key) {
        const auto n = parse_count(policy::split_setting(s).second);
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
    const std::vector<policy::UpstreamChoice> flags = policy::parse_upstream({}, nullptr);
    const policy::DumpLines dump = policy::dump_lines(snap);
    for (const policy::Entry* e : entries) {
      m_args.push_back(std::make_unique<policy::Args>(parse_sets(sets, e->plugin)));
      m_runs.push_back(std::make_unique<scenario::SequenceRun>(scenario::SequenceRun{
          *e, *m_args.back(), policy::choose_line(*e, flags, dump), now, false}));
    }
  }

  const scenario::SequenceRun* run_for(const model::Snapshot& snap, model::PodId pod,
                                       std::uint32_t workload) const {
    if (pod == model::k_none) {
      return workload == model::k_none ? nullptr : m_runs[3].get();
    }
    const std::string& scheduler = snap.pods()[pod].scheduler_name;
    if (scheduler == "yunikorn") {
      return m_runs[1].get();
    }
    if (scheduler == "koord-scheduler") {
      return m_runs[2].get();
    }
    return m_runs[0].get();
  }

  std::int64_t backoff_limit = 6;

 private:
  std::vector<std::unique_ptr<policy::Args>> m_args;
  std::vector<std::unique_ptr<scenario::SequenceRun>> m_runs;
};

int run_cascade(const CascadeOptions& o, const Streams& io) {
  const auto format = render::parse_format(o.output);
  if (!format || *format == render::Format::wide) {
    throw UsageError("-o must be text, json or yaml");
  }
  if (o.rounds == 0) {
    throw UsageError("--rounds must be at least 1");
  }
  const FailOn fail_on = parse_fail_on(o.fail_on);
  const model::Instant now = parse_now(o.now);
  auto loaded = load_inputs(o.inputs, io);
  if (!loaded) {
    return k_exit_input;
  }
  model::Snapshot& snap = loaded->snapshot;
  const Runs runs(o, snap, now);
  scenario::CascadeOptions co;
  co.rounds = o.rounds;
  co.backoff_limit = runs.backoff_limit;
  co.now = now;
  const render::Cascade c = scenario::run_cascade(
      snap, co, [&runs](const model::Snapshot& s, model::PodId pod, std::uint32_t workload) {
        return runs.run_for(s, pod, workload);
      });
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
  cmd->add_option("--pod-file", o->inputs.pod_files,
                  "pods (or workloads) to add as pending before round 1 (repeatable)");
  cmd->add_option("--rounds", o->rounds, "stop after this many rounds")->capture_default_str();
  cmd->add_option("--policy", o->policy,
                  "the policy deciding kube-scheduler pods: default, toleration or capacity");
  cmd->add_option("--now", o->now, "the time to decide at (RFC 3339; default: now)");
  cmd->add_option("--set", o->sets,
                  "policy argument KEY=VALUE, or cascade.backoffLimit=N (repeatable)");
  cmd->add_option("-o,--output", o->output, "text, json or yaml")->capture_default_str();
  cmd->add_option("--fail-on", o->fail_on,
                  "exit 1 when: loop (a state repeats), evictions>N (more than N evictions)")
      ->delimiter(',');
  cmd->callback([o, &io, &exit_code] { exit_code = run_cascade(*o, io); });
}

}  // namespace kpreempt::cli
