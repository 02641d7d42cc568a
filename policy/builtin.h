/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "policy/bl-policy.h"

extern const struct bl_heuristic_ops heuristic_util;
extern const struct bl_heuristic_ops heuristic_pelt;
extern const struct bl_heuristic_ops heuristic_psi;
extern const struct bl_heuristic_ops heuristic_trend;
extern const struct bl_heuristic_ops heuristic_ipc;
extern const struct bl_heuristic_ops heuristic_headroom;
/* Baselines: classic policies that decide like the governor or scheduler
 * they imitate and express the decision as a demand (blsim's presets make
 * the engine pass it through). */
extern const struct bl_heuristic_ops heuristic_always_big;
extern const struct bl_heuristic_ops heuristic_always_little;
extern const struct bl_heuristic_ops heuristic_ondemand;
extern const struct bl_heuristic_ops heuristic_conservative;
extern const struct bl_heuristic_ops heuristic_interactive;
extern const struct bl_heuristic_ops heuristic_hmp;
extern const struct bl_heuristic_ops heuristic_exynos5410;

/* NULL-terminated table of the heuristics compiled in. */
extern const struct bl_heuristic_ops *const policy_builtin[];
