/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Is the current level enough? A demand estimate that answers that question
 * rather than "how busy were the CPUs".
 *
 * 1. Saturation. CPU pressure (work that waited for a CPU) above
 *    min_pressure_pct of the interval while the CPUs of the sample were busy
 *    at least half the interval between them (work waits only where CPUs
 *    are busy, and the waiting may move between CPUs within one interval: a
 *    frame's UI thread, then its render thread), or a CPU busy for
 *    saturated_busy_pct of the interval at its top frequency, says that the
 *    CPUs of the sample are too small, and by how much nobody can tell:
 *    busy x capacity is capped by the capacity. The score is then boost_pct
 *    of their top capacity (at least the measured peak), above the top of
 *    the level, so the engine goes up. (Pressure is
 *    one figure for the whole machine: an instance that looks at an idle CPU
 *    in pair or mp mode is not the one that needs help.) Below saturation,
 *    busy x capacity of the busiest CPU never exceeds the level's capacity:
 *    a level is left upwards only when it is too small, however busy it is,
 *    because a LITTLE cluster at its top frequency is cheaper than a big one
 *    at a low one.
 * 2. Onset. After quiet_ms of quiet (the busiest CPU busy less than
 *    quiet_busy_pct), a sample whose peak is above onset_pct of the top
 *    capacity counts as a saturation: work that starts after an idle spell
 *    (a touch, a page load, a sync) is usually the start of more, and by the
 *    time it saturates LITTLE it is already late. 0 turns this off. The
 *    quiet must have been seen on the CPUs of the sample (the same top
 *    capacity): a light load is quiet on big and load on LITTLE.
 * 3. Bursts. A sample that is neither saturated, quiet nor steady (busiest
 *    CPU at least steady_busy_pct busy) comes from work that runs in bursts:
 *    the kernel raises the frequency for each and lowers it after, and busy x
 *    capacity (the capacity read at the end of the interval) says little
 *    about how fast the bursts ran. The score then keeps what was known
 *    (a saturation of the level below, or a steady demand), decaying toward
 *    the measured peak with a half-life of half_life_ms (0 keeps it: a light
 *    load at a low frequency would then hold the level up for ever), and
 *    quiet samples keep it too until the quiet has lasted quiet_ms. So a
 *    frame-paced load that saturated LITTLE stays on big through the gaps
 *    between its frames, and comes down once it stops or turns steady and
 *    small enough.
 *
 * 4. Settling. A steady sample above what is known raises it at once; one
 *    below it is believed only once a load (busiest CPU at least half busy)
 *    has been present without a break for HEADROOM_SETTLE_US. Bursty work
 *    such as a sync of network and database chunks, 10-40 ms each with short
 *    gaps, reads steady and small in a chunk and saturates LITTLE in the
 *    next (its parsing); believing each chunk took the machine down between
 *    bursts, and every burst that started on LITTLE was late. A load that is
 *    steady for longer (a ramp, a long phase of constant work between
 *    bursts) still comes down on its measure, 0.1 s later at most.
 *
 * Steady samples that settled, and quiet ones once the quiet lasts, score
 * the measured peak and it becomes what is known. A sample of length 0 (the
 * first), or whose peak is not finite, scores what is known, or its peak. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "policy/builtin.h"

enum {
        HEADROOM_MIN_PRESSURE_PCT,
        HEADROOM_SATURATED_BUSY_PCT,
        HEADROOM_BOOST_PCT,
        HEADROOM_QUIET_BUSY_PCT,
        HEADROOM_STEADY_BUSY_PCT,
        HEADROOM_HALF_LIFE_MS,
        HEADROOM_QUIET_MS,
        HEADROOM_ONSET_PCT,
};

/* CPUs busy half an interval between them carry load: pressure is charged
 * to them only then, and a load is present while the busiest one is. */
#define HEADROOM_LOADED_BUSY 0.5
/* How long a load must have been present without a break before a steady
 * measure below what is known is believed (see 4. above). */
#define HEADROOM_SETTLE_US (100 * 1000)

struct headroom_state {
        double min_pressure;            /* share of the interval */
        double saturated_busy;          /* fractions */
        double boost;
        double quiet_busy;
        double steady_busy;
        double half_life_us;            /* 0: hold */
        bl_usec_t quiet_for;            /* needed */
        bl_usec_t quiet;                /* so far */
        double quiet_top;               /* the top capacity of the CPUs it was seen on */
        bl_usec_t loaded;               /* so far, up to HEADROOM_SETTLE_US */
        double onset;                   /* share of the top capacity, 0 = none */
        double known;
        bool initialised;
};

static const struct bl_policy_param headroom_params[] = {
        [HEADROOM_MIN_PRESSURE_PCT] = {
                .key = "min_pressure_pct",
                .unit = "% of the interval",
                .def = 30,
                .min = 0,
                .max = 100,
                .integer = true,
        },
        [HEADROOM_SATURATED_BUSY_PCT] = {
                .key = "saturated_busy_pct",
                .unit = "% busy at the top frequency",
                .def = 100,
                .min = 50,
                .max = 100,
                .integer = true,
        },
        [HEADROOM_BOOST_PCT] = {
                .key = "boost_pct",
                .unit = "% of the top capacity",
                .def = 125,
                .min = 101,
                .max = 400,
                .integer = true,
        },
        [HEADROOM_QUIET_BUSY_PCT] = {
                .key = "quiet_busy_pct",
                .unit = "% busy, below steady_busy_pct",
                .def = 10,
                .min = 0,
                .max = 100,
                .integer = true,
        },
        [HEADROOM_STEADY_BUSY_PCT] = {
                .key = "steady_busy_pct",
                .unit = "% busy",
                .def = 75,
                .min = 0,
                .max = 100,
                .integer = true,
        },
        [HEADROOM_HALF_LIFE_MS] = {
                .key = "half_life_ms",
                .unit = "ms, 0 = hold",
                .def = 2000,
                .min = 0,
                .max = 100000,
                .integer = true,
        },
        [HEADROOM_QUIET_MS] = {
                .key = "quiet_ms",
                .unit = "ms",
                .def = 30,
                .min = 0,
                .max = 10000,
                .integer = true,
        },
        [HEADROOM_ONSET_PCT] = {
                .key = "onset_pct",
                .unit = "% of the top capacity, 0 = never",
                .def = 20,
                .min = 0,
                .max = 100,
                .integer = true,
        },
};

#define HEADROOM_NPARAMS (sizeof(headroom_params) / sizeof(headroom_params[0]))

static bool quiet_below_steady(const double *params)
{
        return params[HEADROOM_QUIET_BUSY_PCT] <= params[HEADROOM_STEADY_BUSY_PCT];
}

static int headroom_validate(const double *params, char *err, size_t size)
{
        if (quiet_below_steady(params))
                return 0;
        snprintf(err, size,
                 "quiet_busy_pct (%g) must not exceed steady_busy_pct (%g): a CPU cannot be nearly idle "
                 "and steadily busy at once.",
                 params[HEADROOM_QUIET_BUSY_PCT], params[HEADROOM_STEADY_BUSY_PCT]);
        return -EINVAL;
}

static int headroom_init(void *state, const double *params)
{
        struct headroom_state *h = state;

        for (unsigned i = 0; i < HEADROOM_NPARAMS; i++)
                if (!(params[i] >= headroom_params[i].min && params[i] <= headroom_params[i].max))
                        return -EINVAL;
        if (!quiet_below_steady(params))
                return -EINVAL;
        *h = (struct headroom_state){
                .min_pressure = params[HEADROOM_MIN_PRESSURE_PCT] / 100.0,
                .saturated_busy = params[HEADROOM_SATURATED_BUSY_PCT] / 100.0,
                .boost = params[HEADROOM_BOOST_PCT] / 100.0,
                .quiet_busy = params[HEADROOM_QUIET_BUSY_PCT] / 100.0,
                .steady_busy = params[HEADROOM_STEADY_BUSY_PCT] / 100.0,
                .half_life_us = params[HEADROOM_HALF_LIFE_MS] * 1000.0,
                .quiet_for = (bl_usec_t)params[HEADROOM_QUIET_MS] * 1000,
                .onset = params[HEADROOM_ONSET_PCT] / 100.0,
        };
        return 0;
}

/* Whether a CPU ran all the time at its top frequency (a CPU that does not
 * know its top is taken to be at it). */
static bool cpu_saturated(const struct bl_cpu_sample *c, double saturated_busy)
{
        return c->busy >= saturated_busy && (c->max_capacity == 0 || c->capacity >= c->max_capacity);
}

/* Durations are counted up to what matters: whether they were reached. */
static bl_usec_t count_up_to(bl_usec_t so_far, bl_usec_t more, bl_usec_t enough)
{
        return so_far + more < enough ? so_far + more : enough;
}

static double headroom_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct headroom_state *h = state;
        const double peak = bl_sample_peak_demand(s);
        const bool pressure_known = s->has_pressure && isfinite(s->pressure);
        double busiest = 0.0, busy_sum = 0.0;
        bool saturated = false;

        (void)now;
        if (s->interval == 0 || !isfinite(peak))
                return h->initialised ? h->known : peak;

        for (unsigned i = 0; i < s->ncpus; i++) {
                const struct bl_cpu_sample *c = &s->cpu[i];

                if (!c->online)
                        continue;
                if (c->busy > busiest)
                        busiest = c->busy;
                busy_sum += c->busy;
                if (cpu_saturated(c, h->saturated_busy))
                        saturated = true;
        }
        if (pressure_known && s->pressure > h->min_pressure && busy_sum >= HEADROOM_LOADED_BUSY)
                saturated = true;

        /* Quiet counts on the CPUs it was seen on: a load under
         * quiet_busy_pct of a big CPU can be a fifth of a LITTLE one, and
         * onset would take a switch down straight back up (seen live: the
         * daemon went up and down every 80 ms on 7 % of a big CPU). */
        if (bl_sample_top_capacity(s) != h->quiet_top) {
                h->quiet = 0;
                h->quiet_top = bl_sample_top_capacity(s);
        }
        if (h->onset > 0 && h->quiet >= h->quiet_for && peak > h->onset * bl_sample_top_capacity(s))
                saturated = true;
        h->quiet = busiest < h->quiet_busy && !saturated ?
                   count_up_to(h->quiet, s->interval, h->quiet_for) : 0;
        h->loaded = busiest >= HEADROOM_LOADED_BUSY && !saturated ?
                    count_up_to(h->loaded, s->interval, HEADROOM_SETTLE_US) : 0;

        if (saturated) {
                double over = h->boost * bl_sample_top_capacity(s);

                h->known = over > peak ? over : peak;
        } else if (!h->initialised || (busiest >= h->steady_busy && h->loaded >= HEADROOM_SETTLE_US) ||
                   h->known <= peak || h->quiet >= h->quiet_for) {
                h->known = peak;
        } else if (h->quiet == 0) {
                double keep = h->half_life_us > 0 ? exp2(-(double)s->interval / h->half_life_us) : 1.0;

                h->known = peak + (h->known - peak) * keep;
        }
        h->initialised = true;
        return h->known;
}

static void headroom_reset(void *state)
{
        struct headroom_state *h = state;

        h->known = 0.0;
        h->quiet = 0;
        h->quiet_top = 0.0;
        h->loaded = 0;
        h->initialised = false;
}

const struct bl_heuristic_ops heuristic_headroom = {
        .abi = BL_POLICY_ABI,
        .name = "headroom",
        .summary = "above the level's top when it saturates, held through bursts, else busy x capacity",
        .params = headroom_params,
        .nparams = HEADROOM_NPARAMS,
        .state_size = sizeof(struct headroom_state),
        .validate = headroom_validate,
        .init = headroom_init,
        .score = headroom_score,
        .reset = headroom_reset,
};
