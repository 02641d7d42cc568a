/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU pressure: demand that is not being met. busy x capacity is the work
 * that ran, not the work that wanted to run; PSI's "some" share p of the
 * interval is the time in which at least one runnable task had no CPU. Had
 * it had one, it would have used up to one CPU's worth of capacity, at best
 * the top capacity of the CPUs in the sample. So
 *
 *     score = peak + gain x excess x top x busy
 *
 * where peak is the busiest online CPU's busy x capacity, busy the busy
 * fraction of the busiest online CPU, top the largest
 * max_capacity of the online CPUs (a CPU whose max_capacity is unknown
 * counts with its current capacity), and excess the smoothed share above
 * the noise floor, rescaled so that full pressure still counts in full:
 *
 *     smoothed <- smoothed x k + min(max(p, 0), 1) x (1 - k),  k = 2^(-dt / half_life)
 *     excess    = max(smoothed - floor, 0) / (1 - floor)
 *
 * Why smooth: over one 20 ms sample the share is coarse (a single 1 ms
 * wakeup delay reads as 5%) and one stalled interval (a fork burst, a page
 * fault storm) is not a sign that the level is too small, while pressure
 * that persists is. With the half-life in time, not in samples, an isolated
 * stalled interval of length dt counts 1 - 2^(-dt / half_life) of its share
 * (half of it at the default, one half-life per default sample), sustained
 * pressure reaches half its weight after one half-life and 7/8 after three,
 * and the boost is gone as quickly once the pressure is; half_life_ms = 0
 * takes each interval's share as it is. The floor is applied to the
 * smoothed share, so that it judges the level of pressure and not single
 * intervals, and the rescaling keeps the score continuous where pressure
 * crosses the floor (no jump for the engine's hysteresis to absorb). The
 * smoothed share starts at 0: no pressure is known before the first
 * interval.
 *
 * Why busy: PSI is one figure for the whole machine, but work waits behind
 * busy CPUs. An instance that looks at some CPUs only (a pair in pair mode,
 * one CPU in mp mode) charges the unmet demand to them in proportion to how
 * busy they were, so an idle CPU does not ask for a fast core because work
 * waited elsewhere. In cluster mode the busiest CPU is nearly always fully
 * busy when work waits, and the factor is close to 1.
 *
 * A sample without pressure (the source cannot read PSI) or with a pressure
 * that is not a number scores the plain peak, and its interval counts as
 * one without pressure. A sample of length 0 (the first) adds nothing: it
 * scores the peak plus what the smoothed share already holds, so the plain
 * peak at start. The score is above the CPUs' capacity only when work
 * waited: that is the point, the engine must go up. */
#include <errno.h>
#include <math.h>

#include "policy/builtin.h"

enum {
        PSI_MIN_PRESSURE_PCT,
        PSI_GAIN,
        PSI_HALF_LIFE_MS,
};

struct psi_state {
        double floor;                   /* share of the interval, 0..1 */
        double gain;
        double half_life_us;            /* 0: no smoothing */
        double smoothed;                /* pressure share, 0..1 */
};

static const struct bl_policy_param psi_params[] = {
        [PSI_MIN_PRESSURE_PCT] = {
                .key = "min_pressure_pct",
                .unit = "% of the interval",
                .def = 5,
                .min = 0,
                .max = 50,
                .integer = true,
        },
        [PSI_GAIN] = {
                .key = "gain",
                .unit = "x the top capacity per unit of pressure",
                .def = 1.0,
                .min = 0.1,
                .max = 4.0,
        },
        [PSI_HALF_LIFE_MS] = {
                .key = "half_life_ms",
                .unit = "ms, 0 = none",
                .def = 20,
                .min = 0,
                .max = 10000,
                .integer = true,
        },
};

static bool in_range(double v, const struct bl_policy_param *p)
{
        return v >= p->min && v <= p->max;
}

static int psi_init(void *state, const double *params)
{
        struct psi_state *ps = state;

        for (unsigned i = 0; i < sizeof(psi_params) / sizeof(psi_params[0]); i++)
                if (!in_range(params[i], &psi_params[i]))
                        return -EINVAL;
        *ps = (struct psi_state){
                .floor = params[PSI_MIN_PRESSURE_PCT] / 100.0,
                .gain = params[PSI_GAIN],
                .half_life_us = params[PSI_HALF_LIFE_MS] * 1000.0,
        };
        return 0;
}

/* The busy fraction of the busiest online CPU. */
static double busiest(const struct bl_sample *s)
{
        double best = 0.0;

        for (unsigned i = 0; i < s->ncpus; i++)
                if (s->cpu[i].online && s->cpu[i].busy > best)
                        best = s->cpu[i].busy;
        return best > 1.0 ? 1.0 : best;
}

static double psi_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct psi_state *ps = state;
        const bool known = s->has_pressure && isfinite(s->pressure);
        const double peak = bl_sample_peak_demand(s);
        double excess;

        if (s->interval > 0) {
                double share = known ? fmin(fmax(s->pressure, 0.0), 1.0) : 0.0;
                double keep = ps->half_life_us > 0 ? exp2(-(double)s->interval / ps->half_life_us) : 0.0;

                ps->smoothed = ps->smoothed * keep + share * (1.0 - keep);
        }
        if (!known)
                return peak;
        excess = (ps->smoothed - ps->floor) / (1.0 - ps->floor);
        if (!(excess > 0.0))
                return peak;
        return peak + ps->gain * excess * bl_sample_top_capacity(s) * busiest(s);
}

static void psi_reset(void *state)
{
        struct psi_state *ps = state;

        ps->smoothed = 0.0;
}

const struct bl_heuristic_ops heuristic_psi = {
        .abi = BL_POLICY_ABI,
        .name = "psi",
        .summary = "peak demand plus the unmet part that CPU pressure (PSI some) shows",
        .params = psi_params,
        .nparams = sizeof(psi_params) / sizeof(psi_params[0]),
        .needs = BL_NEEDS_PRESSURE,
        .state_size = sizeof(struct psi_state),
        .init = psi_init,
        .score = psi_score,
        .reset = psi_reset,
};
