// SPDX-License-Identifier: Apache-2.0
// `kpreempt explain --all-pending`: every pending preemptor of the dump, each explained on its
// own against the same snapshot, on a small thread pool.
#include "cli/explain_modes.h"
#include "cli/pager.h"

#include "kpreempt/exit_code.h"
#include "kpreempt/policy/args.h"
#include "kpreempt/policy/lines.h"
#include "kpreempt/scenario/parallel.h"
#include "kpreempt/scenario/sequence.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>

namespace kpreempt::cli {
namespace {

// The "\r[i/n] explaining x..." line; workers share it, so it is guarded.
class Progress {
 public:
  Progress(std::ostream* out, std::size_t total) : m_out(out), m_total(total) {}
  void start(const std::string& name) {
    if (m_out == nullptr) {
      return;
    }
    const std::lock_guard lock(m_mutex);
    // \x1b[K clears what a longer previous name left on the line.
    *m_out << fmt::format("\r[{}/{}] explaining {}...\x1b[K", ++m_started, m_total, name)
           << std::flush;
  }
  void clear() {
    if (m_out != nullptr) {
      *m_out << "\r\x1b[K" << std::flush;
    }
  }

 private:
  std::ostream* m_out;
  std::size_t m_total;
  std::size_t m_started = 0;
  std::mutex m_mutex;
};

render::Explanation explain_one(const model::Snapshot& snap, const Subject& s,
                                const std::vector<const policy::Entry*>& policies,
                                const std::vector<policy::Args>& args,
                                const std::vector<policy::LineChoice>& lines, model::Instant now,
                                bool keep_verdicts) {
  render::Explanation e{s.pod, s.workload, now, {}};
  for (std::size_t i = 0; i < policies.size(); ++i) {
    policy::Decision d = policy::run(
        *policies[i], policy::Input{snap, s.pod, now, args[i], s.workload, false}, lines[i]);
    // Per-node verdicts grow with nodes x pods x preemptors (a 150k-pod cluster with 50
    // pending pods would print gigabytes); explain --pod gives them for one pod.
    d.nodes = {};
    if (!keep_verdicts) {
      d.tables = {};
      d.details = nullptr;
    }
    e.decisions.push_back(std::move(d));
  }
  return e;
}

// --all-pending --sequential: every subject some policy takes, in queue order.
int run_sequential(const ExplainOptions& o, model::Snapshot& snap,
                   const std::vector<Subject>& subjects, model::Instant now, bool keep_verdicts,
                   const Streams& io) {
  const auto format = *render::parse_format(o.output);
  std::vector<render::Explanation> items;
  std::size_t skipped = 0;
  for (const Subject& s : subjects) {
    if (chosen_policies(o, snap, s, true).empty()) {
      ++skipped;
    } else {
      items.push_back(render::Explanation{s.pod, s.workload, now, {}});
    }
  }
  if (items.empty() && keep_verdicts == false) {
    io.out << fmt::format("{} pending, but no chosen policy applies to any of them\n", skipped);
    return k_exit_ok;
  }
  const render::Sequence seq = explain_in_sequence(o, snap, items, true, false, keep_verdicts);
  print_warnings(items, io);
  with_pager(pager_for(format == render::Format::wide), io, [&](std::ostream& out) {
    render::render_batch(format, snap, items, skipped, out, &seq);
  });
  io.out.flush();
  release_at_exit(items);
  return k_exit_ok;
}

}  // namespace

std::vector<Subject> pending_subjects(const model::Snapshot& snap) {
  std::vector<Subject> out;
  for (const render::Explanation& e : scenario::pending_preemptors(snap, {})) {
    out.push_back({e.preemptor, e.workload});
  }
  return out;
}

Batch explain_subjects(const ExplainOptions& o, const model::Snapshot& snap,
                       const std::vector<Subject>& subjects, model::Instant now, bool keep_verdicts,
                       std::ostream* progress) {
  // Policies and their args are chosen up front, on this thread; the workers only decide.
  std::vector<std::vector<const policy::Entry*>> chosen;
  std::vector<std::vector<policy::Args>> args;
  std::vector<std::vector<policy::LineChoice>> lines;
  const std::vector<policy::UpstreamChoice> flags = policy::parse_upstream(o.upstream, nullptr);
  const policy::DumpLines dump = policy::dump_lines(snap);
  for (const Subject& s : subjects) {
    chosen.push_back(chosen_policies(o, snap, s, true));
    args.emplace_back();
    lines.emplace_back();
    for (const policy::Entry* p : chosen.back()) {
      args.back().push_back(parse_sets(o.sets, p->plugin));
      lines.back().push_back(policy::choose_line(*p, flags, dump));
    }
  }
  std::vector<render::Explanation> results(subjects.size());
  Progress bar(progress, subjects.size());
  const std::atomic<bool> never{false};
  try {
    scenario::parallel_for(subjects.size(), never, [&](std::size_t i) {
      bar.start(render::preemptor_name(snap, subjects[i].pod, subjects[i].workload));
      results[i] = explain_one(snap, subjects[i], chosen[i], args[i], lines[i], now, keep_verdicts);
    });
  } catch (...) {
    bar.clear();
    throw;
  }
  bar.clear();
  Batch batch;
  for (std::size_t i = 0; i < subjects.size(); ++i) {
    if (chosen[i].empty()) {
      ++batch.skipped;
    } else {
      batch.explanations.push_back(std::move(results[i]));
    }
  }
  return batch;
}

int run_all_pending(const ExplainOptions& o, model::Instant now, const Streams& io) {
  auto format = *render::parse_format(o.output);
  auto loaded = load_inputs(o.inputs, io);
  if (!loaded) {
    return k_exit_input;
  }
  model::Snapshot& snap = loaded->snapshot;
  std::vector<Subject> subjects = pending_subjects(snap);
  bool text = format == render::Format::text || format == render::Format::wide;
  if (subjects.empty() && text) {
    io.out << "no pending pods or workloads\n";
    return k_exit_ok;
  }
  if (o.sequential) {
    const int rc = run_sequential(o, snap, subjects, now, !text, io);
    release_at_exit(*loaded);
    return rc;
  }
  std::ostream* progress = isatty(STDERR_FILENO) == 1 ? &io.err : nullptr;
  Batch batch = explain_subjects(o, snap, subjects, now, !text, progress);
  print_warnings(batch.explanations, io);
  if (batch.explanations.empty() && text) {
    io.out << fmt::format("{} pending, but no chosen policy applies to any of them\n",
                          batch.skipped);
    return k_exit_ok;
  }
  with_pager(pager_for(format == render::Format::wide), io, [&](std::ostream& out) {
    render::render_batch(format, snap, batch.explanations, batch.skipped, out);
  });
  io.out.flush();
  release_at_exit(batch);
  release_at_exit(*loaded);
  return k_exit_ok;
}

}  // namespace kpreempt::cli
