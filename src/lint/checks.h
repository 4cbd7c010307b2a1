// SPDX-License-Identifier: Apache-2.0
// Every rule's check function; registry.cpp ties them to ids, names and help.
#pragma once

#include "lint/corpus.h"

namespace kpreempt::lint {

// PriorityClass objects on their own (pc_class.cpp).
void check_pc001(const Context& c, Report& r);
void check_pc002(const Context& c, Report& r);
void check_pc003(const Context& c, Report& r);
void check_pc004(const Context& c, Report& r);
void check_pc006(const Context& c, Report& r);
void check_pc007(const Context& c, Report& r);
void check_pc009(const Context& c, Report& r);
void check_pc013(const Context& c, Report& r);
void check_pc017(const Context& c, Report& r);
// PriorityClasses as a set and against the baseline (pc_set.cpp).
void check_pc005(const Context& c, Report& r);
void check_pc008(const Context& c, Report& r);
void check_pc014(const Context& c, Report& r);
void check_pc015(const Context& c, Report& r);
void check_pc016(const Context& c, Report& r);
void check_pc018(const Context& c, Report& r);
void check_pc019(const Context& c, Report& r);
// Pods, templates and Workloads that use classes (pc_users.cpp).
void check_pc010(const Context& c, Report& r);
void check_pc011(const Context& c, Report& r);
void check_pc012(const Context& c, Report& r);
void check_pc020(const Context& c, Report& r);
// PreemptionToleration annotations (pt.cpp).
void check_pt001(const Context& c, Report& r);
void check_pt002(const Context& c, Report& r);
void check_pt003(const Context& c, Report& r);
void check_pt004(const Context& c, Report& r);
void check_pt005(const Context& c, Report& r);
void check_pt006(const Context& c, Report& r);
// YuniKorn allow-preemption annotation (yk.cpp).
void check_yk001(const Context& c, Report& r);
void check_yk002(const Context& c, Report& r);
// Kueue (kq_queue.cpp, kq_refs.cpp).
void check_kq001(const Context& c, Report& r);
void check_kq002(const Context& c, Report& r);
void check_kq003(const Context& c, Report& r);
void check_kq004(const Context& c, Report& r);
void check_kq005(const Context& c, Report& r);
void check_kq006(const Context& c, Report& r);
void check_kq007(const Context& c, Report& r);
void check_kq008(const Context& c, Report& r);
void check_kq009(const Context& c, Report& r);
// YuniKorn queues.yaml (yq_properties.cpp, yq_hierarchy.cpp).
void check_yq001(const Context& c, Report& r);
void check_yq002(const Context& c, Report& r);
void check_yq003(const Context& c, Report& r);
void check_yq004(const Context& c, Report& r);
void check_yq005(const Context& c, Report& r);
// ElasticQuota (eq.cpp, eq_koordinator.cpp).
void check_eq001(const Context& c, Report& r);
void check_eq002(const Context& c, Report& r);
void check_eq003(const Context& c, Report& r);
void check_eq004(const Context& c, Report& r);
void check_eq005(const Context& c, Report& r);

}  // namespace kpreempt::lint
