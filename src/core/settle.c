/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/settle.h"

/* Each closed window keeps this share of the mean before it. */
#define MEAN_KEEP 0.9

void settle_init(struct bl_settle *s, bl_usec_t min_bound)
{
        *s = (struct bl_settle){ .min_bound = min_bound };
}

static double ring_peak(const double *v, unsigned n)
{
        double peak = 0.0;

        for (unsigned i = 0; i < n; i++)
                if (v[i] > peak)
                        peak = v[i];
        return peak;
}

/* The median: robust to one burst and to one dip among the samples. */
static double ring_median(const double *v, unsigned n)
{
        double sorted[BL_SETTLE_BASE_SAMPLES];

        if (n == 0)
                return 0.0;
        for (unsigned i = 0; i < n; i++) {
                unsigned j = i;

                for (; j > 0 && sorted[j - 1] > v[i]; j--)
                        sorted[j] = sorted[j - 1];
                sorted[j] = v[i];
        }
        return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

void settle_begin(struct bl_settle *s, bl_usec_t now)
{
        /* A switch inside a window: the machine has not been itself since
         * the first one, so that one's baseline stays. Before any sample
         * the baseline is nothing at all. */
        if (s->phase == BL_SETTLE_QUIET) {
                s->base_demand = ring_peak(s->recent_demand, s->recent_n);
                s->base_pressure = ring_peak(s->recent_pressure, s->recent_n);
        }
        s->phase = BL_SETTLE_SWITCHING;
        s->started = now;
}

void settle_begin_at_start(struct bl_settle *s, bl_usec_t now)
{
        s->base_demand = ring_median(s->recent_demand, s->recent_n);
        s->base_pressure = ring_median(s->recent_pressure, s->recent_n);
        s->phase = BL_SETTLE_SWITCHING;
        s->started = now;
}

void settle_applied(struct bl_settle *s, bl_usec_t now)
{
        bl_usec_t took = now > s->started ? now - s->started : 0, bound;

        if (s->phase != BL_SETTLE_SWITCHING)
                return;
        bound = took * BL_SETTLE_BOUND_PER_SWITCH;
        if (bound < s->min_bound)
                bound = s->min_bound;
        if (bound > BL_SETTLE_MAX_BOUND_USEC)
                bound = BL_SETTLE_MAX_BOUND_USEC;
        s->phase = BL_SETTLE_SETTLING;
        s->applied = now;
        s->deadline = now + bound;
        s->quiet = 0;
}

static void remember(struct bl_settle *s, double demand, double pressure)
{
        s->recent_demand[s->recent_head] = demand;
        s->recent_pressure[s->recent_head] = pressure;
        s->recent_head = (s->recent_head + 1) % BL_SETTLE_BASE_SAMPLES;
        if (s->recent_n < BL_SETTLE_BASE_SAMPLES)
                s->recent_n++;
}

static bool at_baseline(const struct bl_settle *s, double demand, double pressure)
{
        double slack = s->base_demand * BL_SETTLE_DEMAND_SLACK_SHARE;

        if (slack < BL_SETTLE_DEMAND_SLACK)
                slack = BL_SETTLE_DEMAND_SLACK;
        return demand <= s->base_demand + slack && pressure <= s->base_pressure + BL_SETTLE_PRESSURE_SLACK;
}

/* 'now': where the window is measured to. */
static void close_window(struct bl_settle *s, bl_usec_t now, bool settled)
{
        bl_usec_t len = now > s->applied ? now - s->applied : 0;

        s->mean_us = s->windows == 0 ? (double)len : s->mean_us * MEAN_KEEP + (double)len * (1 - MEAN_KEEP);
        s->windows++;
        if (!settled)
                s->bounded++;
        s->last_us = len;
        if (len > s->max_us)
                s->max_us = len;
        s->phase = BL_SETTLE_QUIET;
}

/* Settled or not, the window lasts as long as its switch took (within the
 * bound): see settle_applied() in settle.h. */
static bl_usec_t earliest_close(const struct bl_settle *s)
{
        bl_usec_t took = s->applied > s->started ? s->applied - s->started : 0;

        return s->applied + took < s->deadline ? s->applied + took : s->deadline;
}

/* Cuts the sample to the baseline; returns whether anything was cut. */
static bool cut(const struct bl_settle *s, struct bl_sample_buf *b)
{
        bool cut = false;

        for (unsigned i = 0; i < b->s.ncpus; i++) {
                struct bl_cpu_sample *c = &b->cpu[i];
                double limit;

                if (!c->online || c->capacity == 0)
                        continue;
                limit = s->base_demand / c->capacity;
                if (c->busy > limit) {
                        c->busy = (float)limit;
                        cut = true;
                }
        }
        if (b->s.has_pressure && b->s.pressure > s->base_pressure) {
                b->s.pressure = s->base_pressure;
                cut = true;
        }
        return cut;
}

bool settle_filter(struct bl_settle *s, struct bl_sample_buf *b, bl_usec_t now)
{
        const double demand = sample_peak_demand(&b->s);
        const double pressure = b->s.has_pressure ? b->s.pressure : 0.0;
        /* Only a sample that began after the last read-back shows what the
         * kernel does once the switch is over. */
        const bool after = b->s.interval > 0 && now >= s->applied + b->s.interval;

        if (s->phase == BL_SETTLE_QUIET) {
                remember(s, demand, pressure);
                return false;
        }
        if (s->phase == BL_SETTLE_SETTLING) {
                if (after && at_baseline(s, demand, pressure)) {
                        /* settled since the first of the quiet samples */
                        if (s->quiet++ == 0)
                                s->quiet_since = now;
                        if ((s->quiet >= BL_SETTLE_QUIET_SAMPLES && now >= earliest_close(s)) ||
                            now >= s->deadline) {
                                close_window(s, s->quiet_since, true);
                                remember(s, demand, pressure);
                                return false;
                        }
                } else {
                        s->quiet = 0;
                        if (now >= s->deadline) {
                                close_window(s, now, false);
                                remember(s, demand, pressure);
                                return false;
                        }
                }
        }
        if (cut(s, b))
                s->discounted++;
        return true;
}

bool settle_holds(bool in_window, const struct bl_decision *d, unsigned n)
{
        bool down = false;

        if (!in_window)
                return false;
        for (unsigned i = 0; i < n; i++) {
                if (!d[i].change)
                        continue;
                if (d[i].cause != BL_CAUSE_DOWN)
                        return false;
                down = true;
        }
        return down;
}
