// SPDX-License-Identifier: Apache-2.0
#include "kpreempt/scenario/lookup.h"

#include "kpreempt/diag.h"
#include "kpreempt/model/kueue.h"

#include <fmt/format.h>

#include <algorithm>

namespace kpreempt::scenario {
namespace {

// Names listed after "did you mean" when several namespaces hold the same name.
constexpr std::size_t k_max_namespaces = 3;

std::string qualified(std::string_view ns, std::string_view name) {
  return fmt::format("{}/{}", ns, name);
}

std::string spell(const std::string& pattern, std::string_view ns, std::string_view name) {
  return fmt::format(fmt::runtime(pattern), qualified(ns, name));
}

bool wants_pod(Looking want) {
  return want == Looking::pending_pod || want == Looking::victim;
}

bool wants_workload(Looking want) {
  return want != Looking::pending_pod;
}

// How to ask about the pod as it is ("" when no command takes it: it has finished).
std::string ask_pod(const model::Pod& pod, const Spelling& say) {
  if (pod.pending()) {
    return spell(say.pod, pod.namespace_, pod.name);
  }
  return pod.terminal() ? std::string() : spell(say.victim, pod.namespace_, pod.name);
}

// How to ask about the Workload as it is: a pending one as a preemptor, else as a victim.
std::string ask_workload(const model::Workload& w, const Spelling& say) {
  return spell(w.admitted ? say.victim_workload : say.workload, w.namespace_, w.name);
}

// Whether `ask` is the very command that was given, only the name differing.
bool same_ask(const std::string& ask, Looking want, const Spelling& say) {
  const std::string& pattern = want == Looking::pending_pod        ? say.pod
                               : want == Looking::pending_workload ? say.workload
                               : want == Looking::victim_workload  ? say.victim_workload
                                                                   : say.victim;
  const std::string prefix = pattern.substr(0, pattern.find("{}"));
  return ask.starts_with(prefix);
}

std::string kind_text(const model::Snapshot& snap, Looking want) {
  switch (want) {
    case Looking::pending_pod:
      return "Pod";
    case Looking::pending_workload:
    case Looking::victim_workload:
      return "Workload";
    case Looking::victim:
      break;
  }
  // A dump without Workloads can only have meant a pod.
  return snap.kueue().workloads.empty() ? "Pod" : "Pod, Workload or object owning a Workload";
}

// The name is another kind of object than the one looked for: say which, and how to ask.
std::string other_kind_hint(const model::Snapshot& snap, const NameRef& ref, Looking want,
                            const Spelling& say) {
  const std::string at = qualified(ref.namespace_, ref.name);
  if (!wants_workload(want)) {
    if (auto id = model::find_workload(snap.kueue(), ref.namespace_, ref.name)) {
      const model::Workload& w = snap.kueue().workloads[*id];
      return fmt::format("; {} is {}Kueue Workload: use {}", at, w.admitted ? "an admitted " : "a ",
                         ask_workload(w, say));
    }
  }
  if (!wants_pod(want)) {
    if (auto id = snap.find_pod(ref.namespace_, ref.name)) {
      const model::Pod& pod = snap.pods()[*id];
      const std::string ask = ask_pod(pod, say);
      if (ask.empty()) {
        return fmt::format("; {} is a Pod, finished (phase {})", at, pod.phase);
      }
      return fmt::format("; {} is a Pod{}: use {}", at,
                         pod.node_name.empty() ? "" : " running on node " + pod.node_name, ask);
    }
  }
  return {};
}

// The name is a Job (or other object) Kueue made a Workload for: point at the Workload.
std::string owner_hint(const model::Snapshot& snap, const NameRef& ref, Looking want,
                       const Spelling& say) {
  if (want == Looking::victim) {
    return {};  // --victim resolves an owner itself
  }
  const model::Workload* found = nullptr;
  for (const model::Workload& w : snap.kueue().workloads) {
    const model::ObjectRef* src = workload_source(w);
    if (src == nullptr || w.what_if || src->namespace_ != ref.namespace_ || src->name != ref.name) {
      continue;
    }
    // A pending Workload answers --workload; otherwise the first will do.
    if (found == nullptr || (want == Looking::pending_workload && found->admitted && !w.admitted)) {
      found = &w;
    }
  }
  if (found == nullptr) {
    return {};
  }
  const model::ObjectRef& src = *workload_source(*found);
  const std::string ask = ask_workload(*found, say);
  if (same_ask(ask, want, say)) {
    return fmt::format("; did you mean Workload {} (made for {} {})?",
                       qualified(found->namespace_, found->name), src.kind,
                       qualified(src.namespace_, src.name));
  }
  return fmt::format("; {} {} owns Workload {}: use {}", src.kind,
                     qualified(src.namespace_, src.name), qualified(found->namespace_, found->name),
                     ask);
}

// A way to ask about a name found elsewhere: "team/web-0" when the command given takes it,
// else the command that does ("--victim team/web-0"); "" when none does.
struct Suggestion {
  std::string text;
  bool same_kind = false;
};

std::vector<Suggestion> same_name_elsewhere(const model::Snapshot& snap, const NameRef& ref,
                                            Looking want, const Spelling& say) {
  std::vector<Suggestion> out;
  // `name` in `ns`, asked about with `ask`: by name alone when that is the command given.
  auto add = [&](const std::string& ns, const std::string& name, const std::string& ask,
                 bool same_kind) {
    if (ns == ref.namespace_ || ask.empty()) {
      return;
    }
    const bool same = same_kind && same_ask(ask, want, say);
    Suggestion s{same ? qualified(ns, name) : ask, same};
    if (std::none_of(out.begin(), out.end(), [&](const auto& o) { return o.text == s.text; })) {
      out.push_back(std::move(s));
    }
  };
  for (const model::Pod& pod : snap.pods()) {
    if (pod.name == ref.name) {
      add(pod.namespace_, pod.name, ask_pod(pod, say), wants_pod(want));
    }
  }
  for (const model::Workload& w : snap.kueue().workloads) {
    const model::ObjectRef* src = workload_source(w);
    // A Workload of that name, or one made for a Job of that name.
    if (!w.what_if && (w.name == ref.name || (src != nullptr && src->name == ref.name))) {
      add(w.namespace_, w.name, ask_workload(w, say), wants_workload(want));
    }
  }
  // The command given first, then the others.
  std::stable_partition(out.begin(), out.end(), [](const Suggestion& s) { return s.same_kind; });
  return out;
}

std::string other_namespace_hint(const model::Snapshot& snap, const NameRef& ref, Looking want,
                                 const Spelling& say) {
  std::vector<Suggestion> found = same_name_elsewhere(snap, ref, want, say);
  if (found.empty()) {
    return {};
  }
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < found.size() && i < k_max_namespaces; ++i) {
    texts.push_back(found[i].text);
  }
  std::string listed = texts.back();
  if (texts.size() > 1) {
    texts.pop_back();
    listed = fmt::format("{} or {}", fmt::join(texts, ", "), listed);
  }
  return fmt::format("; did you mean {}?", listed);
}

// The closest name of the kind looked for, by edit distance, as the command given spells it.
std::string closest_hint(const model::Snapshot& snap, const NameRef& ref, Looking want) {
  const std::string wanted = qualified(ref.namespace_, ref.name);
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(3, wanted.size() / 3) + 1;
  auto consider = [&](std::string candidate) {
    const std::size_t d = edit_distance(wanted, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = std::move(candidate);
    }
  };
  if (wants_pod(want)) {
    for (const model::Pod& pod : snap.pods()) {
      consider(qualified(pod.namespace_, pod.name));
    }
  }
  if (wants_workload(want)) {
    for (const model::Workload& w : snap.kueue().workloads) {
      consider(qualified(w.namespace_, w.name));
      const model::ObjectRef* src = workload_source(w);
      if (src != nullptr && want != Looking::pending_workload) {
        consider(qualified(src->namespace_, src->name));
      }
    }
  }
  if (best.empty()) {
    return {};
  }
  return fmt::format("; did you mean {}{}?", want == Looking::victim_workload ? "workload/" : "",
                     best);
}

}  // namespace

const model::ObjectRef* workload_source(const model::Workload& w) {
  return w.owner ? &*w.owner : w.derived_from ? &*w.derived_from : nullptr;
}

const Spelling& command_line_spelling() {
  static const Spelling k_spelling{"--pod {}", "--workload {}", "--victim {}",
                                   "--victim workload/{}", "the input"};
  return k_spelling;
}

std::string not_found(const model::Snapshot& snap, const NameRef& ref, Looking want,
                      const Spelling& say) {
  const std::string kind = kind_text(snap, want);
  std::string message =
      ref.namespace_given
          ? fmt::format("no {} {} in {}", kind, qualified(ref.namespace_, ref.name), say.where)
          : fmt::format("no {} {} in namespace {} (given without namespace)", kind, ref.name,
                        ref.namespace_);
  for (auto hint : {other_kind_hint, owner_hint, other_namespace_hint}) {
    if (std::string h = hint(snap, ref, want, say); !h.empty()) {
      return message + h;
    }
  }
  return message + closest_hint(snap, ref, want);
}

std::string not_pending(const model::Pod& pod, const Spelling& say) {
  if (pod.pending()) {
    return {};
  }
  if (!pod.node_name.empty()) {
    return fmt::format(
        "Pod {}/{} is bound to node \"{}\"; a preemptor is a pending pod (no spec.nodeName); to "
        "see what could preempt it: {}",
        pod.namespace_, pod.name, pod.node_name, spell(say.victim, pod.namespace_, pod.name));
  }
  return fmt::format("Pod {}/{} has finished (phase {}); it cannot preempt", pod.namespace_,
                     pod.name, pod.phase);
}

std::string not_running(const model::Pod& pod, bool evicted, const Spelling& say) {
  if (pod.terminal() && !evicted) {
    return fmt::format("Pod {}/{} has finished (phase {}); nothing can preempt it", pod.namespace_,
                       pod.name, pod.phase);
  }
  if (pod.node_name.empty()) {
    return fmt::format("Pod {}/{} is pending; use {} to explain it as a preemptor", pod.namespace_,
                       pod.name, spell(say.pod, pod.namespace_, pod.name));
  }
  return {};
}

std::string admitted_problem(const model::Workload& w, const Spelling& say) {
  if (!w.admitted) {
    return {};
  }
  return fmt::format(
      "Workload {}/{} is already admitted; a preemptor is a pending workload; to see what could "
      "preempt it: {}",
      w.namespace_, w.name, spell(say.victim_workload, w.namespace_, w.name));
}

}  // namespace kpreempt::scenario
