// SPDX-License-Identifier: Apache-2.0
// YuniKorn's sparse resource arithmetic (apache/yunikorn-core v1.7.0
// pkg/common/resources/resources.go): maps where a missing key and "no map at all" differ.
#pragma once

#include "kpreempt/model/yunikorn.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kpreempt::policy::yunikorn {

using Res = model::YkResource;
using ORes = std::optional<Res>;

std::int64_t get(const Res& r, std::string_view key);  // missing = 0
bool has(const Res& r, std::string_view key);
void set(Res& r, std::string_view key, std::int64_t v);

Res add(const Res& a, const Res& b);               // union of keys
void add_to(Res& a, const Res& b);                 // AddTo
void sub_from(Res& a, const Res& b);               // SubFrom: union of keys
ORes restrict_sub(const ORes& a, const Res& b);    // keys of a only; none if a is none
ORes cmin(const ORes& a, const ORes& b);           // ComponentWiseMinOnlyExisted-style
ORes merge(const ORes& a, const ORes& b);          // a plus b's keys missing from a
bool empty(const ORes& a);                         // none or no keys
bool non_neg(const ORes& a);                       // every value >= 0
bool neg(const ORes& a);                           // every value <= 0, one < 0
bool fits(const Res& cap, const Res& x);           // FitIn: missing in cap = 0
bool fits_defined(const ORes& cap, const Res& x);  // FitInMaxUndef: missing = unlimited,
                                                   // negative = 0
bool equal_maps(const ORes& a, const ORes& b);
bool zero_valued(const ORes& a);                     // none, or every value 0
bool not_covered(const Res& ask, const Res& total);  // StrictlyGreaterThanOnlyExisting
Res shortfall(const Res& ask, const Res& avail);     // SubEliminateNegative
bool common_key(const Res& a, const Res& b);         // a key > 0 in both... any shared key

// v1.8 resource-wise checks (YUNIKORN-3113).
bool fits_actual(const ORes& a, const Res& x);    // FitInActual: a defined, shared keys x <= a
bool ask_under(const Res& ask, const ORes& r);    // r defined, ask keys in r all >= 0
bool victim_over(const Res& ask, const ORes& r);  // r none, or an ask key in r < 0

// StrictlyGreaterThanOnlyExisting / ...OrEqualsOnlyExisting, called on `r`: on the keys both
// have, smaller[k] <= r[k] (and, without or_equal, one of them differing); an empty `smaller`
// needs every value of r > 0; disjoint non-empty maps pass; an empty `r` never does.
bool greater_only_existing(const Res& r, const Res& smaller, bool or_equal);

// "vcore 2000m, memory 1Gi, pods 1" style for people.
std::string to_string(const ORes& r);

}  // namespace kpreempt::policy::yunikorn
