// SPDX-License-Identifier: Apache-2.0
// Sparse resource maps as apache/yunikorn-core v1.7.0 pkg/common/resources/resources.go
// computes them (SubOnlyExisting, ComponentWiseMinOnlyExisting, MergeIfNotPresent, FitIn,
// FitInMaxUndef, StrictlyGreaterThanOnlyExisting, SubEliminateNegative).
#include "policy/yunikorn/resources.h"

#include <algorithm>

namespace kpreempt::policy::yunikorn {
namespace {

Res::const_iterator find_key(const Res& r, std::string_view key) {
  auto it = std::lower_bound(r.begin(), r.end(), key,
                             [](const auto& e, std::string_view k) { return e.first < k; });
  return it != r.end() && it->first == key ? it : r.end();
}

std::string format_value(std::string_view key, std::int64_t v) {
  if (key == "vcore") {
    return v % 1000 == 0 ? std::to_string(v / 1000) : std::to_string(v) + "m";
  }
  constexpr std::pair<const char*, std::int64_t> k_bin[] = {
      {"Ti", 1LL << 40}, {"Gi", 1LL << 30}, {"Mi", 1LL << 20}, {"Ki", 1LL << 10}};
  if (key == "memory" || key == "ephemeral-storage") {
    for (const auto& [suffix, factor] : k_bin) {
      if (v != 0 && v % factor == 0) {
        return std::to_string(v / factor) + suffix;
      }
    }
  }
  return std::to_string(v);
}

}  // namespace

std::int64_t get(const Res& r, std::string_view key) {
  auto it = find_key(r, key);
  return it == r.end() ? 0 : it->second;
}

bool has(const Res& r, std::string_view key) {
  return find_key(r, key) != r.end();
}

void set(Res& r, std::string_view key, std::int64_t v) {
  auto it = std::lower_bound(r.begin(), r.end(), key,
                             [](const auto& e, std::string_view k) { return e.first < k; });
  if (it != r.end() && it->first == key) {
    it->second = v;
  } else {
    r.insert(it, {std::string(key), v});
  }
}

Res add(const Res& a, const Res& b) {
  Res out = a;
  add_to(out, b);
  return out;
}

void add_to(Res& a, const Res& b) {
  for (const auto& [k, v] : b) {
    set(a, k, get(a, k) + v);
  }
}

void sub_from(Res& a, const Res& b) {
  for (const auto& [k, v] : b) {
    set(a, k, get(a, k) - v);
  }
}

ORes restrict_sub(const ORes& a, const Res& b) {
  if (!a) {
    return std::nullopt;
  }
  Res out = *a;
  for (auto& [k, v] : out) {
    v -= get(b, k);
  }
  return out;
}

ORes cmin(const ORes& a, const ORes& b) {
  if (!a) {
    return b;
  }
  if (!b) {
    return a;
  }
  Res out = *a;
  for (const auto& [k, v] : *b) {
    set(out, k, has(*a, k) ? std::min(get(*a, k), v) : v);
  }
  return out;
}

ORes merge(const ORes& a, const ORes& b) {
  if (!a) {
    return b;
  }
  Res out = *a;
  if (b) {
    for (const auto& [k, v] : *b) {
      if (!has(out, k)) {
        set(out, k, v);
      }
    }
  }
  return out;
}

bool empty(const ORes& a) {
  return !a || a->empty();
}

bool non_neg(const ORes& a) {
  return !a || std::all_of(a->begin(), a->end(), [](const auto& e) { return e.second >= 0; });
}

bool neg(const ORes& a) {
  if (!a) {
    return false;
  }
  bool below = false;
  for (const auto& [k, v] : *a) {
    if (v > 0) {
      return false;
    }
    below = below || v < 0;
  }
  return below;
}

bool fits(const Res& cap, const Res& x) {
  return std::all_of(x.begin(), x.end(), [&](const auto& e) {
    return e.second <= std::max<std::int64_t>(0, get(cap, e.first));
  });
}

bool fits_defined(const ORes& cap, const Res& x) {
  if (!cap) {
    return true;
  }
  // FitInMaxUndef reads a negative limit as 0 (fitIn without `actual`), like FitIn: a queue
  // already over its max on a key still takes an ask that requests an explicit 0 of it.
  return std::all_of(x.begin(), x.end(), [&](const auto& e) {
    return !has(*cap, e.first) || e.second <= std::max<std::int64_t>(0, get(*cap, e.first));
  });
}

bool equal_maps(const ORes& a, const ORes& b) {
  if (!a || !b) {
    return !a && !b;
  }
  auto same = [](const Res& x, const Res& y) {
    return std::all_of(x.begin(), x.end(),
                       [&](const auto& e) { return get(y, e.first) == e.second; });
  };
  return same(*a, *b) && same(*b, *a);
}

bool zero_valued(const ORes& a) {
  return !a || std::all_of(a->begin(), a->end(), [](const auto& e) { return e.second == 0; });
}

bool not_covered(const Res& ask, const Res& total) {
  return greater_only_existing(ask, total, false);
}

Res shortfall(const Res& ask, const Res& avail) {
  Res out;
  for (const auto& [k, v] : ask) {
    set(out, k, std::max<std::int64_t>(0, v - get(avail, k)));
  }
  for (const auto& [k, v] : avail) {
    if (!has(ask, k)) {
      set(out, k, std::max<std::int64_t>(0, -v));
    }
  }
  return out;
}

bool common_key(const Res& a, const Res& b) {
  return std::any_of(a.begin(), a.end(), [&](const auto& e) { return has(b, e.first); });
}

std::string to_string(const ORes& r) {
  if (!r) {
    return "-";
  }
  if (r->empty()) {
    return "{}";
  }
  std::string out;
  for (const auto& [k, v] : *r) {
    out += (out.empty() ? "" : ", ") + k + " " + format_value(k, v);
  }
  return out;
}

bool fits_actual(const ORes& a, const Res& x) {
  if (!a) {
    return false;
  }
  return std::all_of(x.begin(), x.end(), [&](const auto& e) {
    return !has(*a, e.first) || e.second <= get(*a, e.first);
  });
}

bool ask_under(const Res& ask, const ORes& r) {
  if (!r) {
    return false;
  }
  return std::all_of(ask.begin(), ask.end(),
                     [&](const auto& e) { return !has(*r, e.first) || get(*r, e.first) >= 0; });
}

bool victim_over(const Res& ask, const ORes& r) {
  if (!r) {
    return true;
  }
  return std::any_of(ask.begin(), ask.end(),
                     [&](const auto& e) { return has(*r, e.first) && get(*r, e.first) < 0; });
}

bool greater_only_existing(const Res& r, const Res& smaller, bool or_equal) {
  bool shared = false;
  bool differs = false;
  for (const auto& [k, v] : r) {
    if (!has(smaller, k)) {
      continue;
    }
    shared = true;
    if (get(smaller, k) > v) {
      return false;
    }
    differs = differs || get(smaller, k) != v;
  }
  if (smaller.empty() && !r.empty()) {
    return std::all_of(r.begin(), r.end(), [](const auto& e) { return e.second > 0; });
  }
  if (shared) {
    return or_equal || differs;
  }
  return !r.empty() && !smaller.empty();
}

}  // namespace kpreempt::policy::yunikorn
