/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mainline conservative governor (drivers/cpufreq/cpufreq_conservative.c)
 * running on the in-kernel switcher's virtual frequency table, as the
 * switcher's cluster choice (see policy/governor.h for the virtual range and
 * why the load is taken at the governor's own frequency).
 *
 * The governor keeps a requested virtual frequency f, starting at the
 * current frequency. Each sample: load = the busiest online CPU's busy time
 * at f, in percent. Above up_threshold, f rises by freq_step percent of the
 * top of the range (BL_CAPACITY_SCALE), at most to the top. Otherwise, on
 * every sampling_down_factor-th such sample, a load below down_threshold
 * lowers f by the same step, at least to min_freq. f is the demand: the
 * pass-through engine goes up when f passes the current level's capacity and
 * down when f fits the level below, so the level follows the stepping target
 * a step at a time. An f above the active cluster's top (the engine did not
 * follow) is cut to that top, as a policy limit would.
 *
 * Defaults from the kernel (kernel-abi.md 3.3): up_threshold 80,
 * down_threshold 20 (the kernel accepts down 11-100 below up), freq_step 5
 * (% of the maximum; the kernel's 0, "never change", is not accepted),
 * sampling_down_factor 1 (at most 10). min_freq, the bottom of the virtual
 * range in capacity units: GOV_MIN_FREQ_DEFAULT. */
#include <errno.h>

#include "policy/builtin.h"
#include "policy/governor.h"

enum {
        CONSERVATIVE_UP_THRESHOLD,
        CONSERVATIVE_DOWN_THRESHOLD,
        CONSERVATIVE_FREQ_STEP,
        CONSERVATIVE_SAMPLING_DOWN_FACTOR,
        CONSERVATIVE_MIN_FREQ,
};

struct conservative_state {
        double up_threshold;
        double down_threshold;
        double freq_step;               /* percent of the top */
        unsigned sampling_down_factor;
        double min_freq;
        double freq;                    /* the requested virtual frequency */
        unsigned down_skip;
        bool started;
};

static const struct bl_policy_param conservative_params[] = {
        [CONSERVATIVE_UP_THRESHOLD] = {
                .key = "up_threshold",
                .unit = "%, above down_threshold",
                .def = 80,
                .min = 12,
                .max = 100,
                .integer = true,
        },
        [CONSERVATIVE_DOWN_THRESHOLD] = {
                .key = "down_threshold",
                .unit = "%, below up_threshold",
                .def = 20,
                .min = 11,
                .max = 99,
                .integer = true,
        },
        [CONSERVATIVE_FREQ_STEP] = {
                .key = "freq_step",
                .unit = "% of the top",
                .def = 5,
                .min = 1,
                .max = 100,
                .integer = true,
        },
        [CONSERVATIVE_SAMPLING_DOWN_FACTOR] = {
                .key = "sampling_down_factor",
                .unit = "samples",
                .def = 1,
                .min = 1,
                .max = 10,
                .integer = true,
        },
        [CONSERVATIVE_MIN_FREQ] = {
                .key = "min_freq",
                .unit = "capacity",
                .def = GOV_MIN_FREQ_DEFAULT,
                .min = 0,
                .max = 1023,
                .integer = true,
        },
};

static int conservative_init(void *state, const double *params)
{
        struct conservative_state *cs = state;

        if (!(params[CONSERVATIVE_DOWN_THRESHOLD] < params[CONSERVATIVE_UP_THRESHOLD]) ||
            !(params[CONSERVATIVE_FREQ_STEP] > 0) || !(params[CONSERVATIVE_SAMPLING_DOWN_FACTOR] >= 1) ||
            !(params[CONSERVATIVE_MIN_FREQ] >= 0 && params[CONSERVATIVE_MIN_FREQ] < BL_CAPACITY_SCALE))
                return -EINVAL;
        *cs = (struct conservative_state){
                .up_threshold = params[CONSERVATIVE_UP_THRESHOLD],
                .down_threshold = params[CONSERVATIVE_DOWN_THRESHOLD],
                .freq_step = params[CONSERVATIVE_FREQ_STEP],
                .sampling_down_factor = (unsigned)params[CONSERVATIVE_SAMPLING_DOWN_FACTOR],
                .min_freq = params[CONSERVATIVE_MIN_FREQ],
        };
        return 0;
}

static double conservative_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct conservative_state *cs = state;
        const double active_top = gov_active_top(s);
        const double top = gov_system_top(s);
        const double step = cs->freq_step * top / 100.0;
        double load;

        /* Nothing measured yet: stay. */
        if (s->interval == 0)
                return active_top;
        if (!cs->started) {
                cs->freq = gov_current(s) > cs->min_freq ? gov_current(s) : cs->min_freq;
                cs->started = true;
        }
        if (cs->freq > active_top)
                cs->freq = active_top;

        load = gov_load_pct(bl_sample_peak_demand(s), cs->freq);
        if (load > cs->up_threshold) {
                cs->down_skip = 0;
                cs->freq = cs->freq + step < top ? cs->freq + step : top;
                return cs->freq;
        }
        if (++cs->down_skip < cs->sampling_down_factor)
                return cs->freq;
        cs->down_skip = 0;
        if (load < cs->down_threshold)
                cs->freq = cs->freq - step > cs->min_freq ? cs->freq - step : cs->min_freq;
        return cs->freq;
}

static void conservative_reset(void *state)
{
        struct conservative_state *cs = state;

        cs->freq = 0.0;
        cs->down_skip = 0;
        cs->started = false;
}

const struct bl_heuristic_ops heuristic_conservative = {
        .abi = BL_POLICY_ABI,
        .name = "conservative",
        .summary = "the conservative governor on the switcher's virtual frequencies: "
                   "the target moves a step per sample",
        .params = conservative_params,
        .nparams = sizeof(conservative_params) / sizeof(conservative_params[0]),
        .state_size = sizeof(struct conservative_state),
        .init = conservative_init,
        .score = conservative_score,
        .reset = conservative_reset,
};
