// SPDX-License-Identifier: Apache-2.0
// The release line each policy mirrors: from --upstream, else from the image tag of the
// scheduler the dump runs, else the newest. A scheduler-plugins build in the place of the
// cluster's kube-scheduler is the default scheduler too, and v0.N of scheduler-plugins builds
// on Kubernetes v1.N (its compatibility matrix), so it gives DefaultPreemption that line.
#include "kpreempt/policy/lines.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::policy {
namespace {

using model::SchedulerImage;
using model::SchedulerImageKind;

std::string shown(std::string_view text) {
  return printable(excerpt(text));
}

// "image registry.k8s.io/kueue/kueue:v0.14.3 (Deployment kueue-system/kueue-controller-manager,
// dump.yaml:40)"
std::string describe(const SchedulerImage& i) {
  std::string where =
      i.loc.file.empty() ? std::string() : fmt::format(", {}:{}", shown(i.loc.file), i.loc.line);
  return fmt::format("image {} ({} {}/{}{})", shown(i.image), i.owner.kind, i.owner.namespace_,
                     i.owner.name, where);
}

// The object a person installs names the scheduler best: the Deployment (StatefulSet,
// DaemonSet) before its Pods, and those before the ReplicaSet between them.
int owner_rank(const SchedulerImage& i) {
  if (i.owner.kind == "Pod") {
    return 1;
  }
  return i.owner.kind == "ReplicaSet" ? 2 : 0;
}

// An image that speaks for the policy, and the line it asks for.
struct Candidate {
  const SchedulerImage* image;
  ImageLine line;
  std::string note;  // appended to the description: how the line follows from the tag
};

std::vector<Candidate> candidates(const Entry& entry, const model::Snapshot& snap) {
  std::vector<Candidate> out;
  const auto& images = snap.scheduler_images();
  for (const SchedulerImage& i : images) {
    if (i.kind == entry.image) {
      out.push_back({&i, image_line(i), {}});
    }
  }
  if (entry.image != SchedulerImageKind::kube_scheduler || !out.empty()) {
    return out;
  }
  for (const SchedulerImage& i : images) {
    if (i.kind == SchedulerImageKind::scheduler_plugins && i.default_scheduler) {
      Candidate c{&i, image_line(i), {}};
      if (c.line.line) {
        c.line.line = ReleaseLine{1, c.line.line->minor};
        c.note =
            fmt::format(", a scheduler-plugins build on Kubernetes {}", to_string(*c.line.line));
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

// The first candidate of each distinct line, best-named first, lines oldest first.
std::vector<const Candidate*> one_per_line(const std::vector<Candidate>& all) {
  std::vector<const Candidate*> out;
  for (const Candidate& c : all) {
    if (c.line.line) {
      out.push_back(&c);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Candidate* a, const Candidate* b) {
    if (*a->line.line != *b->line.line) {
      return *a->line.line < *b->line.line;
    }
    return owner_rank(*a->image) < owner_rank(*b->image);
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const Candidate* a, const Candidate* b) {
                          return *a->line.line == *b->line.line;
                        }),
            out.end());
  return out;
}

// The best-named candidate of each distinct image, in input order: a Deployment and its Pods
// run one image and need one warning.
std::vector<const Candidate*> one_per_image(const std::vector<Candidate>& all) {
  std::vector<const Candidate*> out;
  for (const Candidate& c : all) {
    const auto same = std::find_if(out.begin(), out.end(), [&](const Candidate* o) {
      return o->image->image == c.image->image;
    });
    if (same == out.end()) {
      out.push_back(&c);
    } else if (owner_rank(*c.image) < owner_rank(*(*same)->image)) {
      *same = &c;
    }
  }
  return out;
}

LineChoice from_candidates(const Entry& entry, const std::vector<Candidate>& all) {
  LineChoice choice;
  const std::vector<const Candidate*> lines = one_per_line(all);
  if (lines.empty()) {
    for (const Candidate* c : one_per_image(all)) {
      choice.warnings.push_back(fmt::format(
          "{}: {}, so it names no {} release; {} mirrors its newest line, {} (--upstream "
          "{}=VERSION sets one)",
          describe(*c->image), c->line.problem, model::to_string(c->image->kind), entry.name,
          to_string(entry.newest().line), entry.name));
    }
    return choice;
  }
  const Candidate& chosen = *lines.front();
  choice.line = *chosen.line.line;
  choice.from = describe(*chosen.image) + chosen.note;
  if (lines.size() > 1) {
    std::vector<std::string> named;
    for (const Candidate* c : lines) {
      named.push_back(describe(*c->image));
    }
    choice.warnings.push_back(fmt::format(
        "the dump runs {} at {} releases: {}; {} mirrors the oldest, {}, which may still lead "
        "during an upgrade (--upstream {}=VERSION picks another)",
        model::to_string(chosen.image->kind), lines.size(), fmt::join(named, " and "), entry.name,
        to_string(choice.line), entry.name));
  }
  const LineInfo& modelled = entry.nearest(choice.line);
  if (modelled.line != choice.line) {
    std::vector<std::string> known;
    for (const LineInfo& l : entry.lines) {
      known.push_back(to_string(l.line));
    }
    choice.warnings.push_back(fmt::format(
        "{}: kpreempt does not model {} {}; using the nearest line it models, {} (it models {})",
        choice.from, entry.name, to_string(choice.line), to_string(modelled.line),
        fmt::join(known, ", ")));
  }
  return choice;
}

}  // namespace

ImageLine image_line(const SchedulerImage& image) {
  if (image.version.empty()) {
    return {std::nullopt, "only a digest, no tag"};
  }
  if (auto line = parse_release_line(image.version)) {
    return {line, {}};
  }
  return {std::nullopt, fmt::format("its tag \"{}\" is not a release", shown(image.version))};
}

ImageLine image_line(std::string_view image, std::string_view container) {
  const auto match = model::match_scheduler_image(image, container);
  if (!match) {
    return {std::nullopt, "not the image of a scheduler kpreempt mirrors"};
  }
  return image_line(SchedulerImage{
      match->kind, std::string(image), match->version, false, {}, std::string(container), {}});
}

DumpLines dump_lines(const model::Snapshot& snap) {
  DumpLines out;
  if (snap.scheduler_images().empty()) {
    return out;
  }
  for (const Entry& e : all()) {
    const std::vector<Candidate> found = candidates(e, snap);
    if (!found.empty()) {
      out.emplace_back(&e, from_candidates(e, found));
    }
  }
  return out;
}

LineChoice choose_line(const Entry& entry, std::span<const UpstreamChoice> flags,
                       const DumpLines& dump) {
  const auto in_dump =
      std::find_if(dump.begin(), dump.end(), [&](const auto& d) { return d.first == &entry; });
  const auto flag = std::find_if(flags.begin(), flags.end(),
                                 [&](const UpstreamChoice& c) { return c.entry == &entry; });
  if (flag == flags.end()) {
    return in_dump == dump.end() ? LineChoice{} : in_dump->second;
  }
  LineChoice choice{flag->line, flag->from, {}};
  if (in_dump != dump.end() && !in_dump->second.from.empty() &&
      entry.nearest(in_dump->second.line).line != entry.nearest(flag->line).line) {
    choice.from += ", not the dump's " + in_dump->second.from;
  }
  return choice;
}

Decision run(const Entry& entry, Input input, const LineChoice& choice) {
  input.line = choice.line;
  Decision d = run(entry, input);
  d.line_from = choice.from;
  d.warnings.insert(d.warnings.end(), choice.warnings.begin(), choice.warnings.end());
  return d;
}

}  // namespace kpreempt::policy
