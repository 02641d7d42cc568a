/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The efficient end of the comparison: a demand of 0 whatever the load, so
 * the engine goes down to level 0 and stays there (the powersave governor on
 * the in-kernel switcher's virtual table). */
#include "policy/builtin.h"

static int always_little_init(void *state, const double *params)
{
        return 0;
}

static double always_little_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        return 0.0;
}

static void always_little_reset(void *state)
{
}

const struct bl_heuristic_ops heuristic_always_little = {
        .abi = BL_POLICY_ABI,
        .name = "always-little",
        .summary = "constant demand of 0: always the most efficient cluster",
        .params = NULL,
        .nparams = 0,
        .state_size = 0,
        .init = always_little_init,
        .score = always_little_score,
        .reset = always_little_reset,
};
