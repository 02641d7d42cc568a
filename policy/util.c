/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The instantaneous demand: what the busiest online CPU needed in the last
 * sample, frequency-invariant. Reacts at once, remembers nothing. */
#include "policy/builtin.h"

static int util_init(void *state, const double *params)
{
        return 0;
}

static double util_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        return bl_sample_peak_demand(s);
}

static void util_reset(void *state)
{
}

const struct bl_heuristic_ops heuristic_util = {
        .abi = BL_POLICY_ABI,
        .name = "util",
        .summary = "peak demand of the last sample (busy x capacity of the busiest online CPU)",
        .params = NULL,
        .nparams = 0,
        .state_size = 0,
        .init = util_init,
        .score = util_score,
        .reset = util_reset,
};
