/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mainline ondemand governor (drivers/cpufreq/cpufreq_ondemand.c, since
 * 3.11) running on the in-kernel switcher's virtual frequency table, as the
 * switcher's cluster choice (see policy/governor.h for the virtual range and
 * why the load is taken at the governor's own frequency).
 *
 * The governor's frequency f starts at the current frequency. Each sample:
 * load = the busiest online CPU's busy time at f, in percent (work / f, at
 * most 100). Above up_threshold the target is the top of the range
 * (BL_CAPACITY_SCALE), and the next sampling_down_factor - 1 samples leave it
 * there unexamined (the kernel stretches its next sample); otherwise target
 * = min_freq + load x (top - min_freq) / 100. The target becomes f and is the
 * demand: the pass-through engine goes up when it is above the current
 * level's capacity, to the level that covers it, and down when it fits the
 * level below. An f above the active cluster's top (the engine did not
 * follow) is cut to that top, as a policy limit would.
 *
 * Being proportional to a load measured at its own last choice, the target
 * swings on a steady load before it settles: from the top, a light load
 * gives a low target, at which the same work is a heavy load and a high
 * target. The swings shrink towards the fixed point f = min + w (top - min) /
 * f; while they cross little's top the level goes back and forth. That is
 * the kernel's rule (policy/exynos5410.c keeps the pre-3.11 one, which goes
 * straight to the frequency that fits the work).
 *
 * Defaults from the kernel (kernel-abi.md 3.2): up_threshold 95
 * (MICRO_FREQUENCY_UP_THRESHOLD, with idle micro-accounting; 80 without),
 * accepted 11-100; sampling_down_factor 1, at most 100000. min_freq, the
 * bottom of the virtual range in capacity units: GOV_MIN_FREQ_DEFAULT. */
#include <errno.h>

#include "policy/builtin.h"
#include "policy/governor.h"

enum {
        ONDEMAND_UP_THRESHOLD,
        ONDEMAND_SAMPLING_DOWN_FACTOR,
        ONDEMAND_MIN_FREQ,
};

struct ondemand_state {
        double up_threshold;
        unsigned sampling_down_factor;
        double min_freq;
        double freq;            /* the governor's virtual frequency */
        unsigned skip;          /* samples still left at the top unexamined */
        bool started;
};

static const struct bl_policy_param ondemand_params[] = {
        [ONDEMAND_UP_THRESHOLD] = {
                .key = "up_threshold",
                .unit = "%",
                .def = 95,
                .min = 11,
                .max = 100,
                .integer = true,
        },
        [ONDEMAND_SAMPLING_DOWN_FACTOR] = {
                .key = "sampling_down_factor",
                .unit = "samples",
                .def = 1,
                .min = 1,
                .max = 100000,
                .integer = true,
        },
        [ONDEMAND_MIN_FREQ] = {
                .key = "min_freq",
                .unit = "capacity",
                .def = GOV_MIN_FREQ_DEFAULT,
                .min = 0,
                .max = 1023,
                .integer = true,
        },
};

static int ondemand_init(void *state, const double *params)
{
        struct ondemand_state *od = state;

        if (!(params[ONDEMAND_UP_THRESHOLD] > 0) || !(params[ONDEMAND_SAMPLING_DOWN_FACTOR] >= 1) ||
            !(params[ONDEMAND_MIN_FREQ] >= 0 && params[ONDEMAND_MIN_FREQ] < BL_CAPACITY_SCALE))
                return -EINVAL;
        *od = (struct ondemand_state){
                .up_threshold = params[ONDEMAND_UP_THRESHOLD],
                .sampling_down_factor = (unsigned)params[ONDEMAND_SAMPLING_DOWN_FACTOR],
                .min_freq = params[ONDEMAND_MIN_FREQ],
        };
        return 0;
}

static double ondemand_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct ondemand_state *od = state;
        const double active_top = gov_active_top(s);
        const double top = gov_system_top(s);
        double load;

        /* Nothing measured yet: stay. */
        if (s->interval == 0)
                return active_top;
        if (!od->started) {
                od->freq = gov_current(s) > od->min_freq ? gov_current(s) : od->min_freq;
                od->started = true;
        }
        if (od->freq > active_top)
                od->freq = active_top;
        if (od->skip > 0) {
                od->skip--;
                return od->freq;
        }

        load = gov_load_pct(bl_sample_peak_demand(s), od->freq);
        if (load > od->up_threshold) {
                if (od->freq < top)
                        od->skip = od->sampling_down_factor - 1;
                od->freq = top;
        } else {
                od->freq = od->min_freq + load * (top - od->min_freq) / 100.0;
        }
        return od->freq;
}

static void ondemand_reset(void *state)
{
        struct ondemand_state *od = state;

        od->freq = 0.0;
        od->skip = 0;
        od->started = false;
}

const struct bl_heuristic_ops heuristic_ondemand = {
        .abi = BL_POLICY_ABI,
        .name = "ondemand",
        .summary = "the ondemand governor on the switcher's virtual frequencies: "
                   "top above up_threshold, else proportional to load",
        .params = ondemand_params,
        .nparams = sizeof(ondemand_params) / sizeof(ondemand_params[0]),
        .state_size = sizeof(struct ondemand_state),
        .init = ondemand_init,
        .score = ondemand_score,
        .reset = ondemand_reset,
};
