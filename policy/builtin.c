/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "policy/builtin.h"

/* The order is the one the documentation lists them in. */
const struct bl_heuristic_ops *const policy_builtin[] = {
        &heuristic_util,
        &heuristic_pelt,
        &heuristic_psi,
        &heuristic_trend,
        &heuristic_ipc,
        &heuristic_headroom,
        &heuristic_always_big,
        &heuristic_always_little,
        &heuristic_ondemand,
        &heuristic_conservative,
        &heuristic_interactive,
        &heuristic_hmp,
        &heuristic_exynos5410,
        NULL,
};
