/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cluster switch of Samsung's Exynos 5410 kernel (Galaxy S4 i9500, the
 * "IKCS" cpufreq driver, drivers/cpufreq/exynos-ikcs-cpufreq.c of the 3.4
 * BSP; power-model.md 4.2): ondemand on a merged virtual table in which A7
 * frequencies are halved, the whole system on one cluster at a time.
 *
 * Virtual MHz become capacity units in proportion: top_virtual_mhz (the A15's
 * 2000 MHz in that table) is BL_CAPACITY_SCALE, so the A7 at 1.2 GHz (600
 * virtual) is 307 and the A15's 800 MHz is 410. (Halving assumes the A7 does
 * half the work per MHz; an Exynos 5422's A7 at 1.2 GHz has capacity 323.)
 * See policy/governor.h for why the load is taken at the governor's own
 * frequency f, which starts at the current frequency.
 *
 * Each sample, with load = the busiest online CPU's busy time at f:
 * 1. The governor's target t, by the ondemand of that kernel (pre-3.11, which
 *    settles on a steady load): above up_threshold the top; below
 *    up_threshold - down_differential the frequency the work would load to
 *    that level, work x 100 / (up_threshold - down_differential), but not
 *    below min_virtual_mhz; else f.
 * 2. The driver's step guards: from f <= up_guard_mhz a target above
 *    up_virtual_mhz stops at up_virtual_mhz (the A7's top) first; from f >=
 *    down_guard_mhz a target below up_virtual_mhz stops at down_virtual_mhz
 *    (the A15's bottom) first.
 * 3. On the A7 (any cluster but the fastest) a target above up_virtual_mhz
 *    switches to the A15, which runs at least at down_virtual_mhz; on the A15
 *    a target below down_virtual_mhz switches to the A7, which runs at most at
 *    up_virtual_mhz. Otherwise f = t. The switch to A15 is a demand above
 *    every level (the top level), the switch to A7 a demand of 0 (level 0),
 *    staying a demand equal to the active cluster's top: like the driver, it
 *    chooses between two clusters only. If the engine did not follow, f is
 *    brought back into the active cluster's range.
 * The hysteresis is in where a switch lands, not in the thresholds (a target
 * between 600 and 800 leaves either cluster): on the A15 at 800 or more, on
 * the A7 at 600 or less, and the next load is measured there. A steady work
 * between about 95% of up_virtual_mhz and 92% of down_virtual_mhz fits
 * neither side and goes back and forth: the rule itself implies it.
 *
 * Defaults from the driver and that kernel's ondemand: up_virtual_mhz 600
 * (STEP_LEVEL_CA7_MAX), down_virtual_mhz 800 (STEP_LEVEL_CA15_MIN),
 * up_guard_mhz 550 (UP_STEP_OLD), down_guard_mhz 1100 (DOWN_STEP_OLD),
 * top_virtual_mhz 2000 (the A15 table's top), min_virtual_mhz 100 (the A7's
 * 200 MHz halved, the table's bottom), up_threshold 95 and
 * down_differential 3 (ondemand with idle micro-accounting; 80 and 10
 * without). */
#include <errno.h>

#include "policy/builtin.h"
#include "policy/governor.h"

enum {
        EXYNOS_UP_THRESHOLD,
        EXYNOS_DOWN_DIFFERENTIAL,
        EXYNOS_UP_VIRTUAL_MHZ,
        EXYNOS_DOWN_VIRTUAL_MHZ,
        EXYNOS_UP_GUARD_MHZ,
        EXYNOS_DOWN_GUARD_MHZ,
        EXYNOS_TOP_VIRTUAL_MHZ,
        EXYNOS_MIN_VIRTUAL_MHZ,
};

/* Frequencies in capacity units. */
struct exynos_state {
        double up_threshold;
        double down_differential;
        double up_freq;         /* the A7's top: above it, switch up */
        double down_freq;       /* the A15's bottom: below it, switch down */
        double up_guard;
        double down_guard;
        double min_freq;
        double freq;            /* the governor's virtual frequency */
        bool started;
};

static const struct bl_policy_param exynos_params[] = {
        [EXYNOS_UP_THRESHOLD] = {
                .key = "up_threshold",
                .unit = "%",
                .def = 95,
                .min = 11,
                .max = 100,
                .integer = true,
        },
        [EXYNOS_DOWN_DIFFERENTIAL] = {
                .key = "down_differential",
                .unit = "%, below up_threshold",
                .def = 3,
                .min = 0,
                .max = 99,
                .integer = true,
        },
        [EXYNOS_UP_VIRTUAL_MHZ] = {
                .key = "up_virtual_mhz",
                .unit = "virtual MHz, below top_virtual_mhz",
                .def = 600,
                .min = 1,
                .max = 100000,
                .integer = true,
        },
        [EXYNOS_DOWN_VIRTUAL_MHZ] = {
                .key = "down_virtual_mhz",
                .unit = "virtual MHz, at most top_virtual_mhz",
                .def = 800,
                .min = 1,
                .max = 100000,
                .integer = true,
        },
        [EXYNOS_UP_GUARD_MHZ] = {
                .key = "up_guard_mhz",
                .unit = "virtual MHz",
                .def = 550,
                .min = 0,
                .max = 100000,
                .integer = true,
        },
        [EXYNOS_DOWN_GUARD_MHZ] = {
                .key = "down_guard_mhz",
                .unit = "virtual MHz",
                .def = 1100,
                .min = 0,
                .max = 100000,
                .integer = true,
        },
        [EXYNOS_TOP_VIRTUAL_MHZ] = {
                .key = "top_virtual_mhz",
                .unit = "virtual MHz",
                .def = 2000,
                .min = 1,
                .max = 100000,
                .integer = true,
        },
        [EXYNOS_MIN_VIRTUAL_MHZ] = {
                .key = "min_virtual_mhz",
                .unit = "virtual MHz, below up_virtual_mhz",
                .def = 100,
                .min = 0,
                .max = 100000,
                .integer = true,
        },
};

static int exynos_init(void *state, const double *params)
{
        struct exynos_state *x = state;
        const double top_mhz = params[EXYNOS_TOP_VIRTUAL_MHZ];
        const double scale = (double)BL_CAPACITY_SCALE / top_mhz;

        if (!(top_mhz > 0) || !(params[EXYNOS_UP_VIRTUAL_MHZ] < top_mhz) ||
            !(params[EXYNOS_DOWN_VIRTUAL_MHZ] <= top_mhz) ||
            !(params[EXYNOS_MIN_VIRTUAL_MHZ] < params[EXYNOS_UP_VIRTUAL_MHZ]) ||
            !(params[EXYNOS_DOWN_DIFFERENTIAL] < params[EXYNOS_UP_THRESHOLD]))
                return -EINVAL;
        *x = (struct exynos_state){
                .up_threshold = params[EXYNOS_UP_THRESHOLD],
                .down_differential = params[EXYNOS_DOWN_DIFFERENTIAL],
                .up_freq = params[EXYNOS_UP_VIRTUAL_MHZ] * scale,
                .down_freq = params[EXYNOS_DOWN_VIRTUAL_MHZ] * scale,
                .up_guard = params[EXYNOS_UP_GUARD_MHZ] * scale,
                .down_guard = params[EXYNOS_DOWN_GUARD_MHZ] * scale,
                .min_freq = params[EXYNOS_MIN_VIRTUAL_MHZ] * scale,
        };
        return 0;
}

/* The ondemand of 3.4: jump to the top above up_threshold, drop to the
 * frequency that puts the load at up_threshold - down_differential when it
 * is below that, otherwise keep the frequency. */
static double exynos_target(const struct exynos_state *x, double work)
{
        const double load = gov_load_pct(work, x->freq);
        const double settle = x->up_threshold - x->down_differential;
        double target;

        if (load > x->up_threshold)
                return BL_CAPACITY_SCALE;
        if (!(load < settle))
                return x->freq;
        target = work * 100.0 / settle;
        return target > x->min_freq ? target : x->min_freq;
}

static double exynos_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct exynos_state *x = state;
        const double active_top = gov_active_top(s);
        const bool on_big = gov_on_top(s);
        double target;

        /* Nothing measured yet: stay. */
        if (s->interval == 0)
                return active_top;
        if (!x->started) {
                x->freq = gov_current(s) > x->min_freq ? gov_current(s) : x->min_freq;
                x->started = true;
        }
        if (!on_big && x->freq > x->up_freq)
                x->freq = x->up_freq;
        if (on_big && x->freq < x->down_freq)
                x->freq = x->down_freq;

        target = exynos_target(x, bl_sample_peak_demand(s));
        if (x->freq <= x->up_guard && target > x->up_freq)
                target = x->up_freq;
        if (x->freq >= x->down_guard && target < x->up_freq)
                target = x->down_freq;

        if (!on_big && target > x->up_freq) {
                x->freq = target > x->down_freq ? target : x->down_freq;
                return GOV_DEMAND_TOP;
        }
        if (on_big && target < x->down_freq) {
                x->freq = target < x->up_freq ? target : x->up_freq;
                return 0.0;
        }
        x->freq = target;
        return active_top;
}

static void exynos_reset(void *state)
{
        struct exynos_state *x = state;

        x->freq = 0.0;
        x->started = false;
}

const struct bl_heuristic_ops heuristic_exynos5410 = {
        .abi = BL_POLICY_ABI,
        .name = "exynos5410",
        .summary = "the Exynos 5410 cluster switch: ondemand on a virtual table with A7 halved, "
                   "up above 600 MHz, down below 800 MHz",
        .params = exynos_params,
        .nparams = sizeof(exynos_params) / sizeof(exynos_params[0]),
        .state_size = sizeof(struct exynos_state),
        .init = exynos_init,
        .score = exynos_score,
        .reset = exynos_reset,
};
