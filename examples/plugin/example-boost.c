/* SPDX-License-Identifier: GPL-2.0-or-later */
/* example-boost: an external heuristic for bigLittled.
 *
 * It asks for the demand of the busiest CPU, like the built-in "util", but
 * while the CPU pressure (PSI "some") shows that runnable work is waiting,
 * it asks for more -- boost_pct percent of it -- and keeps asking for
 * hold_ms after the pressure is gone, so that the faster cores are chosen
 * before the backlog shows up as busy time. Without PSI on the machine it
 * behaves like "util". */
#include <bl-policy.h>

struct boost {
        double threshold;               /* pressure share, 0..1 */
        double factor;
        bl_usec_t hold;
        bl_usec_t until;                /* boosting until this time */
};

enum { PARAM_PRESSURE, PARAM_BOOST, PARAM_HOLD };

static const struct bl_policy_param boost_params[] = {
        [PARAM_PRESSURE] = { .key = "pressure_pct", .unit = "%", .def = 10, .min = 1, .max = 100,
                             .integer = true },
        [PARAM_BOOST] = { .key = "boost_pct", .unit = "%", .def = 150, .min = 100, .max = 400,
                          .integer = true },
        [PARAM_HOLD] = { .key = "hold_ms", .unit = "ms", .def = 100, .min = 0, .max = 10000,
                         .integer = true },
};

static int boost_init(void *state, const double *params)
{
        struct boost *b = state;

        b->threshold = params[PARAM_PRESSURE] / 100.0;
        b->factor = params[PARAM_BOOST] / 100.0;
        b->hold = (bl_usec_t)params[PARAM_HOLD] * 1000;
        b->until = 0;
        return 0;
}

static double boost_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct boost *b = state;
        double demand = bl_sample_peak_demand(s);
        bool pressed = s->has_pressure && s->pressure >= b->threshold;

        if (pressed)
                b->until = now + b->hold;
        if (pressed || now < b->until)
                demand *= b->factor;
        /* More than the fastest CPU can give means "the fastest": capping it
         * keeps a weighted combination with other heuristics meaningful. */
        return demand < BL_CAPACITY_SCALE ? demand : BL_CAPACITY_SCALE;
}

static void boost_reset(void *state)
{
        struct boost *b = state;

        b->until = 0;
}

static const struct bl_heuristic_ops example_boost = {
        .abi = BL_POLICY_ABI,
        .name = "example-boost",
        .summary = "peak demand, boosted while CPU pressure shows waiting work",
        .params = boost_params,
        .nparams = sizeof(boost_params) / sizeof(boost_params[0]),
        .state_size = sizeof(struct boost),
        .init = boost_init,
        .score = boost_score,
        .reset = boost_reset,
};

BL_POLICY_EXPORT(&example_boost);
