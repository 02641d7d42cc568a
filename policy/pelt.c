/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A PELT-like exponentially decayed peak demand: a sample of length dt keeps
 * 2^(-dt/half_life) of the old value, so the estimate follows a step halfway
 * in one half-life whatever the sample interval. The first sample with a
 * length sets the value outright, so the daemon does not start from zero. */
#include <errno.h>
#include <math.h>

#include "policy/builtin.h"

enum {
        PELT_HALF_LIFE_MS,
};

struct pelt_state {
        double half_life_us;
        double value;
        bool initialised;
};

static const struct bl_policy_param pelt_params[] = {
        [PELT_HALF_LIFE_MS] = {
                .key = "half_life_ms",
                .unit = "ms",
                .def = 32,
                .min = 1,
                .max = 10000,
                .integer = true,
        },
};

static int pelt_init(void *state, const double *params)
{
        struct pelt_state *p = state;

        if (!(params[PELT_HALF_LIFE_MS] >= pelt_params[PELT_HALF_LIFE_MS].min))
                return -EINVAL;
        *p = (struct pelt_state){ .half_life_us = params[PELT_HALF_LIFE_MS] * 1000.0 };
        return 0;
}

static double pelt_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct pelt_state *p = state;
        double peak, keep;

        if (s->interval == 0)
                return p->initialised ? p->value : 0.0;

        peak = bl_sample_peak_demand(s);
        if (!p->initialised) {
                p->value = peak;
                p->initialised = true;
                return p->value;
        }
        keep = exp2(-(double)s->interval / p->half_life_us);
        p->value = p->value * keep + peak * (1.0 - keep);
        return p->value;
}

static void pelt_reset(void *state)
{
        struct pelt_state *p = state;

        p->value = 0.0;
        p->initialised = false;
}

const struct bl_heuristic_ops heuristic_pelt = {
        .abi = BL_POLICY_ABI,
        .name = "pelt",
        .summary = "peak demand decayed with a half-life, like the kernel's PELT",
        .params = pelt_params,
        .nparams = sizeof(pelt_params) / sizeof(pelt_params[0]),
        .state_size = sizeof(struct pelt_state),
        .init = pelt_init,
        .score = pelt_score,
        .reset = pelt_reset,
};
