/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fast end of the comparison: whatever the load, ask for more than any
 * level holds, so the engine goes to the top level and stays there (the
 * performance governor on the in-kernel switcher's virtual table). With the
 * baselines' pass-through preset it gets there at the first decision; the
 * simulator's own always-big score fixes the cluster from the first step and
 * needs no engine at all. */
#include "policy/builtin.h"
#include "policy/governor.h"

static int always_big_init(void *state, const double *params)
{
        return 0;
}

static double always_big_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        return GOV_DEMAND_TOP;
}

static void always_big_reset(void *state)
{
}

const struct bl_heuristic_ops heuristic_always_big = {
        .abi = BL_POLICY_ABI,
        .name = "always-big",
        .summary = "constant demand above every level: always the fastest cluster",
        .params = NULL,
        .nparams = 0,
        .state_size = 0,
        .init = always_big_init,
        .score = always_big_score,
        .reset = always_big_reset,
};
