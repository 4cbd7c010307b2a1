// SPDX-License-Identifier: Apache-2.0
// YuniKorn queue properties, read leniently by yunikorn-core v1.7.0 pkg/scheduler/objects
// (queue.go UpdateQueueProperties, preemption.go): unknown keys and unusable values are
// logged at debug level and replaced by defaults, so they are linted here.
#include "lint/checks.h"
#include "lint/yq_view.h"

#include "kpreempt/model/go_parse.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace kpreempt::lint {
namespace {

const std::vector<std::string_view> k_known = {"application.sort.policy",
                                               "application.sort.priority",
                                               "application.unschedasks.backoff",
                                               "application.unschedasks.backoff.delay",
                                               "priority.policy",
                                               "priority.offset",
                                               "preemption.policy",
                                               "preemption.delay",
                                               "preemption.quota.delay"};  // v1.8

// The quota delay's name after v1.8.0 (yunikorn-core 192f2a3f, in v1.9; the guide and the
// shim's e2e configs use it). v1.8.0 reads preemption.quota.delay (configs.QuotaPreemptionDelay)
// and skips this one.
constexpr std::string_view k_later_spelling = "quota.preemption.delay";

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

template <typename F>
void each_property(const Context& c, F&& f) {
  each_queue(c.corpus(), [&](const QueueVisit& q) {
    for (const Node& props : property_maps(q.queue)) {
      for (const Node& p : props.children()) {
        f(q, p);
      }
    }
  });
}

}  // namespace

void check_yq001(const Context& c, Report& r) {
  each_property(c, [&](const QueueVisit& q, const Node& p) {
    std::vector<std::string_view> allowed;
    if (p.key() == "preemption.policy") {
      allowed = {"default", "fence", "disabled"};
    } else if (p.key() == "priority.policy") {
      allowed = {"default", "fence"};
    } else {
      return;
    }
    std::string v = lower(p.text());
    if (std::find(allowed.begin(), allowed.end(), v) != allowed.end()) {
      return;
    }
    std::string hint = closest(v, allowed);
    r.add(q.object(), p,
          fmt::format("{} {} is not one of {}: YuniKorn silently uses default{}", p.key(),
                      quote(p.text()), fmt::join(allowed, ", "),
                      hint.empty() ? "" : "; did you mean " + hint + "?"));
  });
}

void check_yq002(const Context& c, Report& r) {
  each_property(c, [&](const QueueVisit& q, const Node& p) {
    if (p.key() == "priority.offset") {
      if (!parse_int(p.text(), 32)) {
        r.add(q.object(), p,
              fmt::format("priority.offset {} is not a base-10 32-bit integer: it silently "
                          "becomes 0",
                          quote(p.text())));
      }
      return;
    }
    if (p.key() != "preemption.delay" && p.key() != "preemption.quota.delay" &&
        p.key() != k_later_spelling) {
      return;
    }
    const auto d = model::go::parse_duration(p.text());
    if (!d || d.value <= 0) {
      r.add(q.object(), p,
            fmt::format("{} {} is not a positive duration such as 30s or 5m: {}", p.key(),
                        quote(p.text()),
                        p.key() == "preemption.delay" ? "the default of 30s applies"
                                                      : "quota preemption stays off"));
    }
  });
}

void check_yq003(const Context& c, Report& r) {
  each_property(c, [&](const QueueVisit& q, const Node& p) {
    if (std::find(k_known.begin(), k_known.end(), p.key()) != k_known.end()) {
      return;
    }
    if (p.key() == k_later_spelling) {
      r.add(q.object(), p,
            fmt::format("{} is the key's name after v1.8.0; YuniKorn v1.8.0 reads "
                        "preemption.quota.delay and skips this one, so under v1.8 quota "
                        "preemption stays off for the queue",
                        quote(p.key())));
      return;
    }
    std::string hint = closest(p.key(), k_known);
    r.add(q.object(), p,
          fmt::format("unknown queue property {}; YuniKorn skips it{}", quote(p.key()),
                      hint.empty() ? "" : "; did you mean " + hint + "?"));
  });
}

// Guarantee-based preemption (yunikorn-core pkg/scheduler/objects/preemption.go) only helps a
// queue below its guaranteed share, so without guarantees it never fires. That is the shipped
// default (no preemption section, no guarantees) and harmless, so only an explicit choice is
// reported: `preemption.enabled: true` or preemption.* queue properties. Quota preemption
// (a queue's quota delay, with quotapreemptionenabled since v1.8) needs no guarantees.
void check_yq005(const Context& c, Report& r) {
  for (const QueuesDoc& doc : c.corpus().queues_docs()) {
    for (const Node& part : doc.root()["partitions"].children()) {
      Node enabled = part["preemption"]["enabled"];
      bool on = enabled.text() != "false";
      bool guaranteed = false, quota_preemption = false;
      Node preemption_prop;
      std::string prop_queue;
      each_queue(c.corpus(), [&](const QueueVisit& q) {
        if (q.partition.id() != part.id() || q.doc != &doc) {
          return;
        }
        guaranteed = guaranteed || q.queue["resources"]["guaranteed"].size() > 0;
        for (const Node& props : property_maps(q.queue)) {
          for (const Node& p : props.children()) {
            // Either name: later releases read the other one.
            quota_preemption = quota_preemption || p.key() == "preemption.quota.delay" ||
                               p.key() == k_later_spelling;
            if (!preemption_prop.exists() && p.key().starts_with("preemption.") &&
                p.key() != "preemption.quota.delay") {
              preemption_prop = p;
              prop_queue = q.path;
            }
          }
        }
      });
      std::string object = "queues.yaml:" + (part["name"].null() ? "default" : part["name"].str());
      bool explicit_on = enabled.text() == "true" || preemption_prop.exists();
      if (on && explicit_on && !guaranteed && !quota_preemption) {
        Node at = enabled.text() == "true" ? enabled : preemption_prop;
        r.add(object, at,
              "preemption is configured but no queue sets resources.guaranteed: queue "
              "preemption only acts for a queue below its guaranteed share, so it never fires");
      } else if (!on && preemption_prop.exists()) {
        r.add(object, enabled,
              fmt::format("preemption is disabled for the partition, so {} on queue {} has no "
                          "effect",
                          preemption_prop.key(), prop_queue));
      }
    }
  }
}

}  // namespace kpreempt::lint
