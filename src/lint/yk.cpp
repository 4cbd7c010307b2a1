// SPDX-License-Identifier: Apache-2.0
// YuniKorn's allow-preemption annotation. Mirrors apache/yunikorn-k8shim v1.7.0
// pkg/common/utils (only the exact string "false" opts out) and the admission controller,
// which rewrites a pod's non-canonical value from its class.
#include "lint/checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace kpreempt::lint {
namespace {

constexpr std::string_view k_key = "yunikorn.apache.org/allow-preemption";

void check_value(const Obj& o, const Node& v, Report& r) {
  if (!v.exists() || (v.quoted() && (v.text() == "true" || v.text() == "false"))) {
    return;
  }
  if (v.non_string() || !v.is_scalar()) {
    r.add(o, v,
          fmt::format("{} is not a string: write \"true\" or \"false\" quoted; the API server "
                      "rejects the whole object",
                      v.is_scalar() ? v.str() : "the value"));
    return;
  }
  std::string lower = v.str();
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  std::string hint = lower == "false" || lower == "no" || lower == "0" || lower == "off"
                         ? "\"false\""
                         : "\"true\" or \"false\"";
  r.add(o, v,
        fmt::format("allow-preemption {} is not canonical: YuniKorn only opts out on the exact "
                    "string \"false\", anything else means the pods may be preempted; use {}",
                    quote(v.text()), hint));
}

}  // namespace

void check_yk001(const Context& c, Report& r) {
  for (const Obj* o : c.corpus().of("PriorityClass", "scheduling.k8s.io")) {
    check_value(*o, o->annotation(k_key), r);
  }
  for (const PodUse& u : c.corpus().pod_uses()) {
    if (!u.workload) {
      check_value(*u.obj, u.metadata["annotations"][k_key], r);
    }
  }
}

void check_yk002(const Context& c, Report& r) {
  for (const PriorityClassView& v : c.corpus().classes()) {
    Node a = v.obj->annotation(k_key);
    if (v.global_default && a.text() == "false") {
      r.add(*v.obj, a,
            fmt::format("default class {} opts every pod without a class out of YuniKorn "
                        "preemption: queues below their guaranteed share have almost no "
                        "victims to reclaim from",
                        v.obj->name));
    }
  }
}

}  // namespace kpreempt::lint
