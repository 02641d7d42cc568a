/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Android's interactive governor (drivers/cpufreq/cpufreq_interactive.c,
 * never merged upstream) running on the in-kernel switcher's virtual
 * frequency table, as the switcher's cluster choice (see policy/governor.h
 * for the virtual range and why the load is taken at the governor's own
 * frequency). Its timer_rate is the sample interval.
 *
 * The governor keeps a target virtual frequency f (starting at the current
 * frequency), a floor and two validation times. Each sample, with work w =
 * the busiest online CPU's busy x capacity (the kernel's loadadjfreq / 100)
 * and load = 100 w / f (kernel-abi.md 3.1):
 * 1. load >= go_hispeed_load: below hispeed_freq jump to it; else the chosen
 *    frequency, but not below hispeed_freq. Otherwise the chosen frequency,
 *    cut to hispeed_freq when coming from below it. The chosen frequency is
 *    the lowest one at which w would be target_load percent of it: 100 w /
 *    target_load, within the range (continuous here: from min_freq to the
 *    top).
 * 2. At or above hispeed_freq, a rise waits until above_hispeed_delay has
 *    passed since the last change was allowed.
 * 3. A frequency below the floor waits until min_sample_time has passed
 *    since the floor was last validated; every frequency that is applied
 *    (or confirmed) becomes the floor, validated now.
 * f is the demand: the pass-through engine goes up when f is above the
 * current level's capacity, to the level that covers it, and down when f
 * fits the level below. So a burst jumps to hispeed_freq at once, the level
 * holds for min_sample_time after the load falls, and rises beyond
 * hispeed_freq come after above_hispeed_delay. A frequency above the active
 * cluster's top (the engine did not follow) is cut to that top.
 *
 * Defaults from the governor (kernel-abi.md 3.1): go_hispeed_load 99,
 * target_load 90 (one value for all frequencies), min_sample_time 80 ms,
 * above_hispeed_delay 20 ms (one value), timer_rate 20 ms (the presets'
 * sample interval). hispeed_freq is in capacity units (the virtual
 * frequency); 0, the default, means the top of the range, as the kernel
 * starts with policy->max: a burst then goes to the top level at once. A
 * value at the little cluster's top (377 on an Exynos 5422) keeps bursts on
 * little for above_hispeed_delay first, as Android tunings did. min_freq,
 * the bottom of the virtual range in capacity units: GOV_MIN_FREQ_DEFAULT. */
#include <errno.h>

#include "policy/builtin.h"
#include "policy/governor.h"

enum {
        INTERACTIVE_GO_HISPEED_LOAD,
        INTERACTIVE_HISPEED_FREQ,
        INTERACTIVE_TARGET_LOAD,
        INTERACTIVE_MIN_SAMPLE_TIME_MS,
        INTERACTIVE_ABOVE_HISPEED_DELAY_MS,
        INTERACTIVE_MIN_FREQ,
};

struct interactive_state {
        double go_hispeed_load;
        double hispeed_freq;            /* 0: the top of the range */
        double target_load;
        bl_usec_t min_sample_time;
        bl_usec_t above_hispeed_delay;
        double min_freq;
        double freq;                    /* the target virtual frequency */
        double floor_freq;
        bl_usec_t floor_validate_time;
        bl_usec_t hispeed_validate_time;
        bool started;
};

static const struct bl_policy_param interactive_params[] = {
        [INTERACTIVE_GO_HISPEED_LOAD] = {
                .key = "go_hispeed_load",
                .unit = "%",
                .def = 99,
                .min = 1,
                .max = 100,
                .integer = true,
        },
        [INTERACTIVE_HISPEED_FREQ] = {
                .key = "hispeed_freq",
                .unit = "capacity, 0 = the top",
                .def = 0,
                .min = 0,
                .max = 65535,
                .integer = true,
        },
        [INTERACTIVE_TARGET_LOAD] = {
                .key = "target_load",
                .unit = "%",
                .def = 90,
                .min = 1,
                .max = 100,
                .integer = true,
        },
        [INTERACTIVE_MIN_SAMPLE_TIME_MS] = {
                .key = "min_sample_time_ms",
                .unit = "ms",
                .def = 80,
                .min = 0,
                .max = 10000,
                .integer = true,
        },
        [INTERACTIVE_ABOVE_HISPEED_DELAY_MS] = {
                .key = "above_hispeed_delay_ms",
                .unit = "ms",
                .def = 20,
                .min = 0,
                .max = 10000,
                .integer = true,
        },
        [INTERACTIVE_MIN_FREQ] = {
                .key = "min_freq",
                .unit = "capacity",
                .def = GOV_MIN_FREQ_DEFAULT,
                .min = 0,
                .max = 1023,
                .integer = true,
        },
};

static int interactive_init(void *state, const double *params)
{
        struct interactive_state *it = state;

        const double min_sample_ms = params[INTERACTIVE_MIN_SAMPLE_TIME_MS];
        const double above_hispeed_ms = params[INTERACTIVE_ABOVE_HISPEED_DELAY_MS];

        if (!(params[INTERACTIVE_TARGET_LOAD] > 0) || !(params[INTERACTIVE_HISPEED_FREQ] >= 0) ||
            !(min_sample_ms >= 0) || !(above_hispeed_ms >= 0) ||
            !(params[INTERACTIVE_MIN_FREQ] >= 0 && params[INTERACTIVE_MIN_FREQ] < BL_CAPACITY_SCALE))
                return -EINVAL;
        *it = (struct interactive_state){
                .go_hispeed_load = params[INTERACTIVE_GO_HISPEED_LOAD],
                .hispeed_freq = params[INTERACTIVE_HISPEED_FREQ],
                .target_load = params[INTERACTIVE_TARGET_LOAD],
                .min_sample_time = (bl_usec_t)min_sample_ms * BL_USEC_PER_MSEC,
                .above_hispeed_delay = (bl_usec_t)above_hispeed_ms * BL_USEC_PER_MSEC,
                .min_freq = params[INTERACTIVE_MIN_FREQ],
        };
        return 0;
}

static bl_usec_t since(bl_usec_t now, bl_usec_t then)
{
        return now > then ? now - then : 0;
}

static double interactive_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct interactive_state *it = state;
        const double active_top = gov_active_top(s);
        const double top = gov_system_top(s);
        const double hispeed = it->hispeed_freq > 0 && it->hispeed_freq < top ? it->hispeed_freq : top;
        double work, chosen, next;
        bool go_hispeed;

        /* Nothing measured yet: stay. */
        if (s->interval == 0)
                return active_top;
        if (!it->started) {
                /* The governor started when this sample's interval did. */
                it->freq = gov_current(s) > it->min_freq ? gov_current(s) : it->min_freq;
                it->floor_freq = it->freq;
                it->floor_validate_time = now > s->interval ? now - s->interval : 0;
                it->hispeed_validate_time = it->floor_validate_time;
                it->started = true;
        }
        if (it->freq > active_top)
                it->freq = active_top;

        work = bl_sample_peak_demand(s);
        chosen = 100.0 * work / it->target_load;
        if (chosen > top)
                chosen = top;
        if (chosen < it->min_freq)
                chosen = it->min_freq;
        /* At a frequency of 0 any work is a full load. */
        go_hispeed = it->freq > 0.0 ? 100.0 * work >= it->go_hispeed_load * it->freq : work > 0.0;

        if (go_hispeed) {
                if (it->freq < hispeed)
                        next = hispeed;
                else
                        next = chosen > hispeed ? chosen : hispeed;
        } else {
                next = chosen;
                if (next > hispeed && it->freq < hispeed)
                        next = hispeed;
        }

        if (it->freq >= hispeed && next > it->freq &&
            since(now, it->hispeed_validate_time) < it->above_hispeed_delay)
                return it->freq;
        it->hispeed_validate_time = now;

        if (next < it->floor_freq && since(now, it->floor_validate_time) < it->min_sample_time)
                return it->freq;
        it->floor_freq = next;
        it->floor_validate_time = now;
        it->freq = next;
        return it->freq;
}

static void interactive_reset(void *state)
{
        struct interactive_state *it = state;

        it->freq = 0.0;
        it->floor_freq = 0.0;
        it->floor_validate_time = 0;
        it->hispeed_validate_time = 0;
        it->started = false;
}

const struct bl_heuristic_ops heuristic_interactive = {
        .abi = BL_POLICY_ABI,
        .name = "interactive",
        .summary = "Android's interactive governor on the switcher's virtual frequencies: "
                   "jump to hispeed on a burst, hold before ramping down",
        .params = interactive_params,
        .nparams = sizeof(interactive_params) / sizeof(interactive_params[0]),
        .state_size = sizeof(struct interactive_state),
        .init = interactive_init,
        .score = interactive_score,
        .reset = interactive_reset,
};
