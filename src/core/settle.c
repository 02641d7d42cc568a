/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/settle.h"

/* Each closed window keeps this share of the mean before it. */
#define MEAN_KEEP 0.9

void settle_init(struct bl_settle *s, bl_usec_t min_bound)
{
        *s = (struct bl_settle){ .min_bound = min_bound };
}

/* The BL_SETTLE_RANKS largest demands of the sample into 'top', largest
 * first, and the indices of their CPUs into 'at'; returns how many CPUs
 * were ranked (the ranks after them are 0). */
static unsigned largest_demands(const struct bl_sample_buf *b, double *top, unsigned *at)
{
        unsigned k = 0;

        for (unsigned r = 0; r < BL_SETTLE_RANKS; r++)
                top[r] = 0.0;
        for (unsigned i = 0; i < b->s.ncpus; i++) {
                const struct bl_cpu_sample *c = &b->cpu[i];
                const double d = (double)c->busy * c->capacity;
                unsigned j;

                if (!c->online)
                        continue;
                if (k < BL_SETTLE_RANKS)
                        k++;
                else if (d <= top[k - 1])
                        continue;
                /* stable: of equal CPUs the first keeps the higher rank */
                for (j = k - 1; j > 0 && top[j - 1] < d; j--) {
                        top[j] = top[j - 1];
                        at[j] = at[j - 1];
                }
                top[j] = d;
                at[j] = i;
        }
        return k;
}

static double peak(const double *v, unsigned n)
{
        double top = 0.0;

        for (unsigned i = 0; i < n; i++)
                if (v[i] > top)
                        top = v[i];
        return top;
}

/* The median: robust to one burst and to one dip among the samples. */
static double median(const double *v, unsigned n)
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

/* 'f' of each rank's demands over the ring. */
static void each_rank(const struct bl_settle *s, double (*f)(const double *, unsigned), double *out)
{
        double column[BL_SETTLE_BASE_SAMPLES];

        for (unsigned r = 0; r < BL_SETTLE_RANKS; r++) {
                for (unsigned i = 0; i < s->recent_n; i++)
                        column[i] = s->recent_demand[i][r];
                out[r] = f(column, s->recent_n);
        }
}

void settle_begin(struct bl_settle *s, bl_usec_t now)
{
        /* A switch inside a window: the machine has not been itself since
         * the first one, so that one's baseline stays. Before any sample
         * the baseline is nothing at all. */
        if (s->phase == BL_SETTLE_QUIET) {
                each_rank(s, peak, s->base_demand);
                s->base_pressure = peak(s->recent_pressure, s->recent_n);
        }
        s->phase = BL_SETTLE_SWITCHING;
        s->started = now;
}

void settle_begin_at_start(struct bl_settle *s, bl_usec_t now)
{
        each_rank(s, median, s->base_demand);
        s->base_pressure = median(s->recent_pressure, s->recent_n);
        s->phase = BL_SETTLE_SWITCHING;
        s->started = now;
}

void settle_applied(struct bl_settle *s, bl_usec_t now)
{
        bl_usec_t took = now > s->started ? now - s->started : 0, bound, floor;

        if (s->phase != BL_SETTLE_SWITCHING)
                return;
        bound = took * BL_SETTLE_BOUND_PER_SWITCH;
        floor = took * BL_SETTLE_FLOOR_PER_SWITCH;
        if (floor > s->min_bound)
                floor = s->min_bound;
        if (bound < floor)
                bound = floor;
        if (bound > BL_SETTLE_MAX_BOUND_USEC)
                bound = BL_SETTLE_MAX_BOUND_USEC;
        s->phase = BL_SETTLE_SETTLING;
        s->applied = now;
        s->deadline = now + bound;
        s->quiet = 0;
}

static void remember(struct bl_settle *s, const double *top, double pressure)
{
        for (unsigned r = 0; r < BL_SETTLE_RANKS; r++)
                s->recent_demand[s->recent_head][r] = top[r];
        s->recent_pressure[s->recent_head] = pressure;
        s->recent_head = (s->recent_head + 1) % BL_SETTLE_BASE_SAMPLES;
        if (s->recent_n < BL_SETTLE_BASE_SAMPLES)
                s->recent_n++;
}

static bool at_baseline(const struct bl_settle *s, double demand, double pressure)
{
        double slack = s->base_demand[0] * BL_SETTLE_DEMAND_SLACK_SHARE;

        if (slack < BL_SETTLE_DEMAND_SLACK)
                slack = BL_SETTLE_DEMAND_SLACK;
        return demand <= s->base_demand[0] + slack && pressure <= s->base_pressure + BL_SETTLE_PRESSURE_SLACK;
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

/* Cuts the sample to the baseline, each CPU to its rank's ('at': the CPUs
 * of the first ranks, 'n' of them); returns whether anything was cut. */
static bool cut(const struct bl_settle *s, struct bl_sample_buf *b, const unsigned *at, unsigned n)
{
        bool cut = false;

        for (unsigned i = 0; i < b->s.ncpus; i++) {
                struct bl_cpu_sample *c = &b->cpu[i];
                unsigned r = 0;
                double limit;

                if (!c->online || c->capacity == 0)
                        continue;
                while (r < n && at[r] != i)
                        r++;
                limit = s->base_demand[r < n ? r : BL_SETTLE_RANKS - 1] / c->capacity;
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
        double top[BL_SETTLE_RANKS];
        unsigned at[BL_SETTLE_RANKS];
        const unsigned ranked = largest_demands(b, top, at);
        const double demand = top[0];
        const double pressure = b->s.has_pressure ? b->s.pressure : 0.0;
        /* Only a sample that began after the last read-back shows what the
         * kernel does once the switch is over. */
        const bool after = b->s.interval > 0 && now >= s->applied + b->s.interval;

        if (s->phase == BL_SETTLE_QUIET) {
                remember(s, top, pressure);
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
                                remember(s, top, pressure);
                                return false;
                        }
                } else {
                        s->quiet = 0;
                        if (now >= s->deadline) {
                                close_window(s, now, false);
                                remember(s, top, pressure);
                                return false;
                        }
                }
        }
        if (cut(s, b, at, ranked))
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
