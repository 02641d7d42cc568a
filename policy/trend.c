/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rising demand: act before the threshold. The peak demand of the samples
 * of the last window_ms is fitted with a least-squares line in real time,
 * and while the line rises the score is its value horizon_ms ahead:
 *
 *     score = max(peak, min(line(now + horizon), max_predicted x top))   if slope > 0
 *     score = peak                                                       otherwise
 *
 * peak is this sample's busiest online CPU's busy x capacity, top the
 * largest max_capacity of its online CPUs (the current capacity of one
 * whose max_capacity is unknown). So the trend only ever raises the
 * measured demand, never lowers it, and a prediction, being a guess, never
 * asks for more than max_predicted_pct of what these CPUs could serve:
 * bringing the next step up forward is its job, how far to go is left to
 * what is measured.
 *
 * A sample's demand is the mean over its interval, so it is placed at the
 * interval's midpoint: a linear rise sampled at any, even irregular,
 * intervals is then fitted exactly, and the slope is in capacity per µs of
 * real time, not per sample. The window holds the samples whose whole
 * interval lies within [now - window_ms, now] (one starting exactly at the
 * edge is in): three at the default 60 ms and the default 20 ms sample
 * interval, and the fit needs at least three, so a window shorter than
 * three sample intervals makes trend score the plain peak. Without a fit
 * (fewer points, a flat or falling line) the score is the peak.
 *
 * The state is a fixed ring of TREND_MAX_POINTS samples: enough for the
 * longest window at the daemon's shortest sample interval; when samples
 * come faster than that the oldest leave early and the fit covers less
 * than the window. A sample of length 0 (the first), or whose peak is not
 * finite, is not recorded; one that does not end after the previous sample
 * (time went back: a new run) forgets the history first; an interval that
 * reaches into the previous one is taken to start where that one ended. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "policy/builtin.h"

#define TREND_MAX_WINDOW_MS 1000
/* The shortest sample interval the daemon accepts (sample_interval_ms). */
#define TREND_MIN_INTERVAL_MS 5
#define TREND_MAX_POINTS (TREND_MAX_WINDOW_MS / TREND_MIN_INTERVAL_MS)
#define TREND_MIN_POINTS 3

enum {
        TREND_WINDOW_MS,
        TREND_HORIZON_MS,
        TREND_MAX_PREDICTED_PCT,
};

struct trend_point {
        bl_usec_t start, end;
        double demand;
};

struct trend_state {
        bl_usec_t window;
        bl_usec_t horizon;
        double max_predicted;           /* share of the top capacity */
        unsigned first, count;
        struct trend_point ring[TREND_MAX_POINTS];
};

static const struct bl_policy_param trend_params[] = {
        [TREND_WINDOW_MS] = {
                .key = "window_ms",
                .unit = "ms",
                .def = 60,
                .min = TREND_MIN_POINTS * TREND_MIN_INTERVAL_MS,
                .max = TREND_MAX_WINDOW_MS,
                .integer = true,
        },
        [TREND_HORIZON_MS] = {
                .key = "horizon_ms",
                .unit = "ms, at most window_ms",
                .def = 40,
                .min = 0,
                .max = TREND_MAX_WINDOW_MS,
                .integer = true,
        },
        [TREND_MAX_PREDICTED_PCT] = {
                .key = "max_predicted_pct",
                .unit = "% of the top capacity",
                .def = 100,
                .min = 50,
                .max = 400,
                .integer = true,
        },
};

static bool horizon_fits(const double *params)
{
        return params[TREND_HORIZON_MS] <= params[TREND_WINDOW_MS];
}

static int trend_validate(const double *params, char *err, size_t size)
{
        if (horizon_fits(params))
                return 0;
        snprintf(err, size,
                 "horizon_ms (%g) must not exceed window_ms (%g): a line fitted over the window says "
                 "little about the demand further ahead than the window is long.",
                 params[TREND_HORIZON_MS], params[TREND_WINDOW_MS]);
        return -EINVAL;
}

static int trend_init(void *state, const double *params)
{
        struct trend_state *t = state;

        for (unsigned i = 0; i < sizeof(trend_params) / sizeof(trend_params[0]); i++)
                if (!(params[i] >= trend_params[i].min && params[i] <= trend_params[i].max))
                        return -EINVAL;
        if (!horizon_fits(params))
                return -EINVAL;
        t->window = (bl_usec_t)params[TREND_WINDOW_MS] * BL_USEC_PER_MSEC;
        t->horizon = (bl_usec_t)params[TREND_HORIZON_MS] * BL_USEC_PER_MSEC;
        t->max_predicted = params[TREND_MAX_PREDICTED_PCT] / 100.0;
        t->first = 0;
        t->count = 0;
        return 0;
}

static const struct trend_point *point_at(const struct trend_state *t, unsigned i)
{
        return &t->ring[(t->first + i) % TREND_MAX_POINTS];
}

static void drop_oldest(struct trend_state *t)
{
        t->first = (t->first + 1) % TREND_MAX_POINTS;
        t->count--;
}

static void record(struct trend_state *t, const struct bl_sample *s, bl_usec_t now, double demand)
{
        bl_usec_t start = s->interval < now ? now - s->interval : 0;

        if (t->count > 0) {
                const struct trend_point *last = point_at(t, t->count - 1);

                if (now <= last->end)
                        t->count = 0;
                else if (start < last->end)
                        start = last->end;
        }
        if (t->count == TREND_MAX_POINTS)
                drop_oldest(t);
        t->ring[(t->first + t->count) % TREND_MAX_POINTS] = (struct trend_point){
                .start = start,
                .end = now,
                .demand = demand,
        };
        t->count++;
        while (t->count > 0 && now - point_at(t, 0)->start > t->window)
                drop_oldest(t);
}

static double trend_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct trend_state *t = state;
        const double peak = bl_sample_peak_demand(s);
        double mean_x = 0.0, mean_y = 0.0, sxx = 0.0, sxy = 0.0, slope, predicted, cap;

        if (s->interval == 0 || !isfinite(peak))
                return peak;
        record(t, s, now, peak);
        if (t->count < TREND_MIN_POINTS)
                return peak;

        /* Times relative to now keep the sums exact in doubles whatever the clock reads. */
        for (unsigned i = 0; i < t->count; i++) {
                const struct trend_point *p = point_at(t, i);

                mean_x -= ((double)(now - p->start) + (double)(now - p->end)) / 2.0;
                mean_y += p->demand;
        }
        mean_x /= t->count;
        mean_y /= t->count;
        for (unsigned i = 0; i < t->count; i++) {
                const struct trend_point *p = point_at(t, i);
                double dx = -((double)(now - p->start) + (double)(now - p->end)) / 2.0 - mean_x;

                sxx += dx * dx;
                sxy += dx * (p->demand - mean_y);
        }
        if (!(sxx > 0.0))
                return peak;
        slope = sxy / sxx;
        if (!(slope > 0.0))
                return peak;
        predicted = mean_y + slope * ((double)t->horizon - mean_x);
        cap = t->max_predicted * bl_sample_top_capacity(s);
        if (predicted > cap)
                predicted = cap;
        return predicted > peak ? predicted : peak;
}

static void trend_reset(void *state)
{
        struct trend_state *t = state;

        t->first = 0;
        t->count = 0;
}

const struct bl_heuristic_ops heuristic_trend = {
        .abi = BL_POLICY_ABI,
        .name = "trend",
        .summary = "peak demand, or while it rises the least-squares line horizon_ms ahead",
        .params = trend_params,
        .nparams = sizeof(trend_params) / sizeof(trend_params[0]),
        .state_size = sizeof(struct trend_state),
        .validate = trend_validate,
        .init = trend_init,
        .score = trend_score,
        .reset = trend_reset,
};
