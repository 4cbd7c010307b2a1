// SPDX-License-Identifier: Apache-2.0
// Joining the builders of a dump read in parts: appending in input order, and moving the
// source lines of a part that was parsed as if it started at line 1.
#include "kpreempt/model/snapshot.h"

#include <algorithm>
#include <charconv>
#include <iterator>

namespace kpreempt::model {
namespace {

// Takes `from`'s storage when `to` is empty, unless `to` was made room for (a dump read in
// parts reserves its pods once, rather than growing through every part).
template <typename T>
void append_all(std::vector<T>& to, std::vector<T>& from) {
  if (to.empty() && to.capacity() < from.size()) {
    to = std::move(from);
    return;
  }
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

class LineShift {
 public:
  LineShift(const std::string& file, std::uint32_t delta) : m_file(file), m_delta(delta) {}

  void operator()(SourceLoc& loc) const {
    // Line 0 means "no line": a whole-file message stays one.
    if (loc.line != 0 && loc.file == m_file) {
      loc.line += m_delta;
    }
  }
  template <typename T>
  void each(std::vector<T>& objects) const {
    for (T& o : objects) {
      (*this)(o.loc);
    }
  }
  void queues(std::vector<YkQueueConfig>& qs) const {
    for (YkQueueConfig& q : qs) {
      (*this)(q.loc);
      queues(q.queues);
    }
  }
  void yunikorn(std::optional<YunikornConfig>& c) const {
    if (!c) {
      return;
    }
    (*this)(c->loc);
    for (YkPartition& p : c->partitions) {
      (*this)(p.loc);
      queues(p.queues);
      each(p.placement_rules);
    }
  }

 private:
  const std::string& m_file;
  std::uint32_t m_delta;
};

void add_counts(StringMap& to, const StringMap& from) {
  for (const auto& [kind, count] : from) {
    std::uint64_t n = 0;
    std::from_chars(count.data(), count.data() + count.size(), n);
    auto it = std::lower_bound(to.begin(), to.end(), kind,
                               [](const auto& e, const std::string& k) { return e.first < k; });
    if (it == to.end() || it->first != kind) {
      to.emplace(it, kind, count);
      continue;
    }
    std::uint64_t m = 0;
    std::from_chars(it->second.data(), it->second.data() + it->second.size(), m);
    it->second = std::to_string(m + n);
  }
}

}  // namespace

void SnapshotBuilder::append(SnapshotBuilder&& later) {
  Snapshot& to = changed();
  Snapshot& from = later.m_snap;
  append_all(to.m_nodes, from.m_nodes);
  append_all(to.m_pods, from.m_pods);
  append_all(to.m_classes, from.m_classes);
  append_all(to.m_pdbs, from.m_pdbs);
  append_all(to.m_jobs, from.m_jobs);
  if (!from.m_scheduler_config.loc.file.empty()) {
    // The later configuration's args win; the profiles of both stay.
    to.m_scheduler_config.plugin_args = std::move(from.m_scheduler_config.plugin_args);
    to.m_scheduler_config.loc = from.m_scheduler_config.loc;
  }
  append_all(to.m_scheduler_config.profiles, from.m_scheduler_config.profiles);
  append_all(to.m_unmodelled, from.m_unmodelled);
  KueueObjects& k = to.m_kueue;
  append_all(k.workloads, from.m_kueue.workloads);
  append_all(k.cluster_queues, from.m_kueue.cluster_queues);
  append_all(k.local_queues, from.m_kueue.local_queues);
  append_all(k.flavors, from.m_kueue.flavors);
  append_all(k.priority_classes, from.m_kueue.priority_classes);
  append_all(k.namespaces, from.m_kueue.namespaces);
  append_all(k.cohorts, from.m_kueue.cohorts);
  append_all(k.training_runtimes, from.m_kueue.training_runtimes);
  append_all(k.train_jobs, from.m_kueue.train_jobs);
  if (from.m_kueue.config) {
    k.config = std::move(from.m_kueue.config);
  }
  if (from.m_yunikorn.configs) {
    to.m_yunikorn.configs = std::move(from.m_yunikorn.configs);
  }
  if (from.m_yunikorn.defaults) {
    to.m_yunikorn.defaults = std::move(from.m_yunikorn.defaults);
  }
  append_all(to.m_capacity.quotas, from.m_capacity.quotas);
  append_all(to.m_koordinator.quotas, from.m_koordinator.quotas);
  append_all(to.m_koordinator.pod_groups, from.m_koordinator.pod_groups);
  append_all(to.m_scheduler_images, from.m_scheduler_images);
  append_all(m_daemon_sets, later.m_daemon_sets);
  add_counts(to.m_skipped, from.m_skipped);
  to.m_merged += from.m_merged;
  m_seen.merge(later.m_seen);
}

bool SnapshotBuilder::shares_objects_with(const SnapshotBuilder& other) const {
  const auto& small = m_seen.size() <= other.m_seen.size() ? m_seen : other.m_seen;
  const auto& large = &small == &m_seen ? other.m_seen : m_seen;
  return std::any_of(small.begin(), small.end(),
                     [&large](const auto& entry) { return large.contains(entry.first); });
}

std::vector<SnapshotBuilder::SeenEntry> SnapshotBuilder::seen_objects() const {
  std::vector<SeenEntry> out;
  out.reserve(m_seen.size());
  for (const auto& [key, seen] : m_seen) {
    out.push_back(SeenEntry{key, seen.identity, seen.loc});
  }
  std::sort(out.begin(), out.end(),
            [](const SeenEntry& a, const SeenEntry& b) { return a.key < b.key; });
  return out;
}

void SnapshotBuilder::shift_lines(const std::string& file, std::uint32_t delta) {
  Snapshot& s = changed();
  const LineShift shift(file, delta);
  shift.each(s.m_nodes);
  shift.each(s.m_pods);
  shift.each(s.m_classes);
  shift.each(s.m_pdbs);
  shift.each(s.m_jobs);
  shift(s.m_scheduler_config.loc);
  shift.each(s.m_scheduler_config.profiles);
  shift.each(s.m_unmodelled);
  for (auto& [key, seen] : m_seen) {
    shift(seen.loc);
  }
  shift.each(s.m_kueue.workloads);
  shift.each(s.m_kueue.cluster_queues);
  shift.each(s.m_kueue.local_queues);
  shift.each(s.m_kueue.flavors);
  shift.each(s.m_kueue.priority_classes);
  shift.each(s.m_kueue.cohorts);
  shift.each(s.m_kueue.training_runtimes);
  for (TrainJob& tj : s.m_kueue.train_jobs) {
    shift(tj.workload.loc);
  }
  if (s.m_kueue.config) {
    shift(s.m_kueue.config->loc);
  }
  shift.yunikorn(s.m_yunikorn.configs);
  shift.yunikorn(s.m_yunikorn.defaults);
  shift.each(s.m_capacity.quotas);
  shift.each(s.m_koordinator.quotas);
  shift.each(s.m_koordinator.pod_groups);
  shift.each(s.m_scheduler_images);
  for (DaemonSet& d : m_daemon_sets) {
    shift(d.loc);
    shift(d.pod.loc);
  }
}

}  // namespace kpreempt::model
